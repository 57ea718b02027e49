// `hulk plan` without SimGrid: `auto` and `plan:` in the loader (bad constraints are one error naming the key), the
// layouts it enumerates, and its screening: with every layout placed, the plan's answer is the best layout of a
// brute force that places each feasible layout by greedy and ranks them by the analytic evaluator.
#include <gtest/gtest.h>

#include "plan_test_helpers.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/methods/plan.hpp"
#include "sim/methods/plan_layouts.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/scenario/scenario.hpp"

using namespace hulk;

namespace {

// Two regions of 2 hosts x 2 GPUs; the job's layout lines are appended by each test.
const std::string kBase =
    "name: plan-tiny\n"                                  // 1
    "platform:\n"                                        // 2
    "  regions:\n"                                       // 3
    "    - {name: east, hosts: 2, gpus_per_host: 2, gpu: A100-40GB}\n"  // 4
    "    - {name: west, hosts: 2, gpus_per_host: 2, gpu: V100-32GB}\n"  // 5
    "  wan:\n"                                           // 6
    "    default: {bandwidth: 1Gbps, latency: 30ms}\n"   // 7
    "job:\n"                                             // 8
    "  model: {layers: 8, hidden: 1024, heads: 16, seq_len: 512, vocab: 32000}\n"  // 9
    "  global_batch: 16\n";                              // 10

std::string write(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hulk_plan_tests", name, text);
}

std::string error_of(const std::string& text) { return hulk_test::plan_load_error("hulk_plan_tests", text); }

}  // namespace

TEST(PlanScenario, AutoValuesAndConstraintsAreRead) {
  const Scenario s = load_plan_scenario_file(write(
      "auto.yaml", kBase + "  parallelism: auto\n  micro_batch: auto\n  schedule: auto\n  recompute: auto\n"
                           "plan: {min_gpus: 2, max_gpus: 6, tp_max: 2, pp_max: 4}\n"));
  EXPECT_TRUE(s.plan.parallelism && s.plan.micro_batch && s.plan.schedule && s.plan.recompute);
  EXPECT_EQ(s.plan.min_gpus, 2);
  EXPECT_EQ(s.plan.max_gpus, 6);
  EXPECT_EQ(s.plan.tp_max, 2);
  EXPECT_EQ(s.plan.pp_max, 4);
}

TEST(PlanScenario, OtherCommandsRefuseAuto) {
  const std::string path = write("auto-sim.yaml", kBase + "  parallelism: auto\n");
  try {
    load_scenario_file(path);
    FAIL() << "an auto scenario loaded for simulation";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.parallelism");
    EXPECT_EQ(e.line(), 11);
    EXPECT_NE(std::string(e.what()).find("hulk plan"), std::string::npos) << e.what();
  }
}

TEST(PlanScenario, BadConstraintsNameTheKey) {
  const std::string par = "  parallelism: auto\n";
  EXPECT_NE(error_of(kBase + par + "plan: {max_gpus: 9}\n").find(":12: plan.max_gpus: max_gpus 9 is more than the "
                                                                 "platform's 8 GPUs"), std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {min_gpus: 6, max_gpus: 4}\n").find("plan.min_gpus: min_gpus 6 is more "
                                                                              "than max_gpus 4"), std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {tp_max: 0}\n").find("plan.tp_max"), std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {objective: speed}\n").find("plan.objective"), std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {tensor: 2}\n").find("unknown key 'tensor'"), std::string::npos);
  EXPECT_NE(error_of(kBase + "  parallelism: {dp: 2}\nplan: {min_gpus: 4}\n").find("outside plan's"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + "  parallelism: Auto\n").find("job.parallelism"), std::string::npos);
}

TEST(PlanLayouts, EnumeratesDivisibleLayoutsWithinBounds) {
  const Scenario s = load_plan_scenario_file(
      write("enum.yaml", kBase + "  parallelism: auto\n  micro_batch: auto\nplan: {min_gpus: 4, tp_max: 2}\n"));
  const std::vector<LayoutCandidate> layouts = enumerate_layouts(s);
  ASSERT_FALSE(layouts.empty());
  bool has_full = false;
  for (const LayoutCandidate& c : layouts) {
    const Layout& l = c.layout;
    EXPECT_GE(l.par.ranks(), 4);
    EXPECT_LE(l.par.ranks(), 8);
    EXPECT_LE(l.par.tp, 2);
    EXPECT_LE(l.par.pp, 8);
    EXPECT_EQ(16 % (l.par.dp * l.micro_batch), 0) << l.name();
    has_full = has_full || (l.par.dp == 2 && l.par.tp == 2 && l.par.pp == 2 && l.micro_batch == 4);
  }
  EXPECT_TRUE(has_full);
}

TEST(PlanLayouts, TensorParallelDegreesDivideTheKeyValueHeads) {
  Scenario s =
      load_plan_scenario_file(write("gqa.yaml", kBase + "  parallelism: auto\nplan: {min_gpus: 8, tp_max: 8}\n"));
  s.only_job().model.kv_heads = 2;  // grouped-query attention: 16 heads share 2 key/value heads
  const std::vector<LayoutCandidate> layouts = enumerate_layouts(s);
  ASSERT_FALSE(layouts.empty());
  bool has_tp2 = false;
  for (const LayoutCandidate& c : layouts) {
    EXPECT_EQ(2 % c.layout.par.tp, 0) << c.layout.name();
    has_tp2 = has_tp2 || c.layout.par.tp == 2;
  }
  EXPECT_TRUE(has_tp2);
}

TEST(Plan, MatchesABruteForceOverLayoutsRankedByTheEvaluator) {
  const Scenario s = load_plan_scenario_file(
      write("brute.yaml", kBase + "  parallelism: auto\n  micro_batch: auto\n  schedule: auto\n"));
  PlanOptions o;
  o.methods.clear();
  o.simgrid = false;
  o.screen = 1000000;
  const PlanReport report = run_plan(s, o);
  double brute = std::numeric_limits<double>::infinity();
  std::string brute_name;
  for (const LayoutCandidate& c : enumerate_layouts(s)) {
    if (!c.infeasible.empty()) continue;
    const Scenario ls = with_layout(s, c.layout);
    const Evaluator ev(ls);
    const double t = ev.iteration_time_s(GreedyPlacer::place_with(ls, ev));
    if (t < brute) brute_name = c.layout.name();
    brute = std::min(brute, t);
  }
  ASSERT_TRUE(std::isfinite(brute));
  EXPECT_NEAR(report.chosen().estimate_s, brute, 1e-9 * brute)
      << "plan chose " << report.chosen().layout.name() << ", brute force " << brute_name;
  EXPECT_GT(report.feasible, 10);
  // Every feasible layout has its row, and each row that went no further says why; the finalists (at most 3) are
  // within kFinalistMargin of the best estimate.
  int finalists = 0;
  for (const PlanRow& r : report.rows)
    if (r.pruned.empty()) {
      ++finalists;
      EXPECT_LE(r.estimate_s, (1 + kFinalistMargin) * report.chosen().estimate_s) << r.layout.name();
    }
  EXPECT_GE(finalists, 1);
  EXPECT_LE(finalists, 3);
}

TEST(Plan, BestScenarioIsTheChosenLayout) {
  const Scenario s = load_plan_scenario_file(
      write("best.yaml", kBase + "  parallelism: auto\n  micro_batch: 2\nplan: {min_gpus: 8}\n"));
  PlanOptions o;
  o.methods.clear();
  o.simgrid = false;
  const PlanReport report = run_plan(s, o);
  const std::string yaml = best_scenario_yaml(s, report.chosen(), "p.json");
  const Layout& l = report.chosen().layout;
  EXPECT_EQ(l.par.ranks(), 8);
  EXPECT_NE(yaml.find("dp: " + std::to_string(l.par.dp)), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("placement: file:p.json"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("plan:"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("auto"), std::string::npos) << yaml;
}
