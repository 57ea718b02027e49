// `hulk plan` over ZeRO stages and sequence parallelism (`zero: auto`, `sequence_parallel: auto`) and within fixed
// degrees or listed layouts (`plan: {dp, tp, pp, layouts}`), without SimGrid: what is enumerated, a layout that fits
// memory only with ZeRO-1 chosen exactly when zero is auto, and bad values one error naming the key.
#include <gtest/gtest.h>

#include "plan_test_helpers.hpp"

#include <algorithm>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/methods/plan.hpp"
#include "sim/methods/plan_layouts.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/workload/cost_model.hpp"

using namespace hulk;

namespace {

// One host of 4 GPUs; each test appends the job's layout lines and its plan.
const std::string kBase =
    "name: plan-features\n"                                               // 1
    "platform:\n"                                                         // 2
    "  regions:\n"                                                        // 3
    "    - {name: east, hosts: 2, gpus_per_host: 4, gpu: A100-40GB}\n"   // 4
    "job:\n"                                                              // 5
    "  model: {layers: 8, hidden: 1024, heads: 16, seq_len: 512, vocab: 32000}\n"  // 6
    "  global_batch: 16\n"                                                // 7
    "  micro_batch: 2\n";                                                 // 8

std::string write(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hulk_plan_features_tests", name, text);
}

std::string error_of(const std::string& text) { return hulk_test::plan_load_error("hulk_plan_features_tests", text); }

PlanOptions analytic() { return hulk_test::analytic_plan_options(); }

/** The heaviest stage's peak memory of the scenario's job in a layout. */
double peak_bytes(const Scenario& s, const Layout& l) {
  double peak = 0;
  for (const StageCost& st : compute_job_cost(with_layout(s, l).only_job()).stages)
    peak = std::max(peak, st.peak_memory_bytes);
  return peak;
}

}  // namespace

TEST(PlanFeatures, ZeroAndSequenceParallelismAreEnumeratedWhereModelled) {
  const Scenario s = load_plan_scenario_file(write(
      "enum.yaml", kBase + "  parallelism: auto\n  zero: auto\n  sequence_parallel: auto\nplan: {min_gpus: 4}\n"));
  ASSERT_TRUE(s.plan.zero && s.plan.sequence_parallel);
  bool zero3 = false, sp = false;
  for (const LayoutCandidate& c : enumerate_layouts(s)) {
    const Layout& l = c.layout;
    EXPECT_TRUE(l.zero < 3 || l.par.pp == 1) << l.name();  // ZeRO-3 is modelled without pipelines only
    EXPECT_TRUE(!l.sequence_parallel || l.par.tp > 1) << l.name();
    zero3 = zero3 || l.zero == 3;
    sp = sp || l.sequence_parallel;
  }
  EXPECT_TRUE(zero3);
  EXPECT_TRUE(sp);
}

TEST(PlanFeatures, ALayoutThatFitsOnlyWithZeroOneIsChosenOnlyWhenZeroIsAuto) {
  // dp 8: its memory without ZeRO and with ZeRO-1 (the optimizer state split 8 ways), then GPUs between the two.
  const std::string layout = "  parallelism: auto\nplan: {layouts: [{dp: 8}]}\n";
  Scenario with_zero = load_plan_scenario_file(write("zero-auto.yaml", kBase + "  zero: auto\n" + layout));
  Scenario without = load_plan_scenario_file(write("zero-0.yaml", kBase + layout));
  Layout dp8;
  dp8.par = {8, 1, 1};
  dp8.micro_batch = 2;
  Layout dp8_zero1 = dp8;
  dp8_zero1.zero = 1;
  const double no_zero = peak_bytes(without, dp8), zero1 = peak_bytes(without, dp8_zero1);
  ASSERT_LT(zero1, no_zero);
  for (Scenario* s : {&with_zero, &without})
    for (HostSpec& h : s->platform.hosts) h.gpu.memory_bytes = 0.5 * (zero1 + no_zero);

  // Stages 1 and 2 move the same bytes: the least sharding that fits comes first and wins the tie.
  const PlanReport planned = run_plan(with_zero, analytic());
  EXPECT_EQ(planned.chosen().layout.name(), "dp8-tp1-pp1 mb2 1f1b none zero1");
  const std::string csv = plan_csv(planned);  // plan.csv says which stage was chosen
  EXPECT_NE(csv.find("8,1,1,2,1f1b,none,1,false,8,greedy,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("8,1,1,2,1f1b,none,0,false,8,,"), std::string::npos) << csv;  // zero 0: listed, not placed

  try {
    run_plan(without, analytic());
    FAIL() << "dp 8 without ZeRO was planned on GPUs it does not fit";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.parallelism");
    EXPECT_NE(std::string(e.what()).find("stage 0 needs"), std::string::npos) << e.what();
  }
}

TEST(PlanFeatures, FixedDegreesAndListedLayoutsBoundTheEnumeration) {
  const Scenario fixed =
      load_plan_scenario_file(write("fixed.yaml", kBase + "  parallelism: auto\nplan: {dp: 2, min_gpus: 4}\n"));
  const std::vector<LayoutCandidate> f = enumerate_layouts(fixed);
  ASSERT_FALSE(f.empty());
  for (const LayoutCandidate& c : f) EXPECT_EQ(c.layout.par.dp, 2) << c.layout.name();

  const Scenario listed = load_plan_scenario_file(
      write("listed.yaml", kBase + "  parallelism: auto\nplan: {layouts: [{dp: 4, tp: 2}, {dp: 2, pp: 4}]}\n"));
  std::vector<std::string> names;
  for (const LayoutCandidate& c : enumerate_layouts(listed)) names.push_back(c.layout.name());
  EXPECT_EQ(names, (std::vector<std::string>{"dp2-tp1-pp4 mb2 1f1b none", "dp4-tp2-pp1 mb2 1f1b none"}));
}

TEST(PlanFeatures, BadValuesNameTheKey) {
  const std::string par = "  parallelism: auto\n";
  EXPECT_NE(error_of(kBase + "  zero: automatic\n").find(":9: job.zero"), std::string::npos);
  EXPECT_NE(error_of(kBase + "  sequence_parallel: maybe\n").find(":9: job.sequence_parallel"), std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {dp: 3, min_gpus: 8}\n")
                .find("plan.dp: dp 3 divides none of the GPU counts 8..8"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {dp: 4, tp: 4, min_gpus: 8}\n").find("(product 16)"), std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {tp: 4, tp_max: 2}\n").find("plan.tp: tp 4 is above tp_max 2"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {layouts: [{dp: 16}]}\n").find("plan.layouts.0: uses 16 GPUs"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {layouts: [{dq: 2}]}\n").find("unknown key 'dq'"), std::string::npos);
  EXPECT_NE(error_of(kBase + par + "plan: {layouts: []}\n").find("plan.layouts"), std::string::npos);
  EXPECT_NE(error_of(kBase + "  parallelism: {dp: 2}\nplan: {dp: 2}\n").find("expected job.parallelism: auto"),
            std::string::npos);
  // auto in one job of several is refused as the other auto values are.
  const std::string jobs =
      "name: two\nplatform:\n  regions:\n    - {name: east, hosts: 2, gpus_per_host: 4, gpu: A100-40GB}\n"
      "jobs:\n  - name: a\n    model: {layers: 8, hidden: 1024, heads: 16, seq_len: 512, vocab: 32000}\n"
      "    global_batch: 16\n    zero: auto\n";
  EXPECT_NE(error_of(jobs).find("jobs[0].zero"), std::string::npos) << error_of(jobs);
}

TEST(PlanFeatures, SimulateRefusesZeroAuto) {
  try {
    load_scenario_file(write("sim.yaml", kBase + "  zero: auto\n"));
    FAIL() << "zero: auto loaded for simulation";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.zero");
    EXPECT_EQ(e.line(), 9);
  }
}
