// `hulk plan`'s cost objective and its journal, without SimGrid: `prices:` in the loader (bad or missing prices are
// one error naming the key), a placement's cost in closed form, a cluster where the cheaper GPUs win under cost and
// the faster under time, and a plan resumed from a cut journal writing the same plan.csv as one that ran through.
#include <gtest/gtest.h>

#include "plan_test_helpers.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/methods/plan.hpp"
#include "sim/methods/plan_cost.hpp"
#include "sim/methods/plan_journal.hpp"
#include "sim/methods/scenario_loading.hpp"

using namespace hulk;

namespace {

// Two regions of 2 hosts x 2 GPUs (A100s in east, V100s in west); each test appends its plan and prices.
const std::string kBase =
    "name: plan-cost-tiny\n"
    "platform:\n"
    "  regions:\n"
    "    - {name: east, hosts: 2, gpus_per_host: 2, gpu: A100-40GB}\n"
    "    - {name: west, hosts: 2, gpus_per_host: 2, gpu: V100-32GB}\n"
    "  wan:\n"
    "    default: {bandwidth: 1Gbps, latency: 30ms}\n"
    "job:\n"
    "  model: {layers: 8, hidden: 1024, heads: 16, seq_len: 512, vocab: 32000}\n"
    "  global_batch: 16\n"
    "  parallelism: auto\n"
    "  micro_batch: auto\n";

const std::string kPrices = "prices: {gpu_hour: {A100-40GB: 4.0, V100-32GB: 0.5}, egress_gb: 0.05}\n";

std::string write(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hulk_plan_cost_tests", name, text);
}

std::string error_of(const std::string& text) { return hulk_test::plan_load_error("hulk_plan_cost_tests", text); }

PlanOptions analytic() { return hulk_test::analytic_plan_options(); }

/** The region of every rank of the chosen row ("" if they span both). */
std::string region_of(const Scenario& s, const PlanRow& r) {
  std::string region;
  for (const GpuSlot& g : r.placement.gpu_of_rank) {
    const std::string& here = s.platform.regions[s.platform.hosts[g.host].region];
    if (!region.empty() && region != here) return "";
    region = here;
  }
  return region;
}

}  // namespace

TEST(PlanCost, BadOrMissingPricesNameTheKey) {
  const std::string cost = "plan: {objective: cost}\n";
  EXPECT_NE(error_of(kBase + cost).find("plan.objective: objective cost needs `prices:`"), std::string::npos)
      << error_of(kBase + cost);
  EXPECT_NE(error_of(kBase + cost + "prices: {gpu_hour: {A100-40GB: 4}, egress_gb: 0.1}\n")
                .find("prices.gpu_hour: no price per GPU-hour for V100-32GB"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + cost + "prices: {gpu_hour: {A100-40GB: 4, V100-32GB: 1}}\n")
                .find("no egress price per GB between east and west"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + "prices: {gpu_hour: {A100-40GB: -4}}\n").find("prices.gpu_hour.A100-40GB"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + "prices: {gpu_hour: {H100: 4}}\n").find("no GPU of the platform is a H100"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + "prices: {egress_gb: {pairs: [{regions: [east, wset], per_gb: 1}]}}\n")
                .find("unknown region 'wset' (did you mean 'west'?)"),
            std::string::npos);
  EXPECT_NE(error_of(kBase + "prices: {gpu_hour: {A100-40GB: 4}, fee: 1}\n").find("unknown key 'fee'"),
            std::string::npos);
  // Time objective: prices are optional, and a partial table is no error.
  EXPECT_EQ(error_of(kBase + "prices: {gpu_hour: {A100-40GB: 4}}\n"), "");
}

TEST(PlanCost, PairPricesOverrideTheDefault) {
  const Scenario s = load_plan_scenario_file(write(
      "pairs.yaml", kBase + "prices:\n  gpu_hour: {A100-40GB: 4, V100-32GB: 1}\n  egress_gb:\n    default: 0.01\n"
                            "    pairs: [{regions: [west, east], per_gb: 0.09}]\n"));
  ASSERT_TRUE(prices_complete(s));
  EXPECT_DOUBLE_EQ(s.prices.egress_gb[0][1], 0.09);
  EXPECT_DOUBLE_EQ(s.prices.egress_gb[1][0], 0.09);
  EXPECT_NEAR(cheapest_gpu_usd_per_s(s), 1.0 / 3600, 1e-15);
}

TEST(PlanCost, CheaperGpusWinUnderCostFasterUnderTime) {
  const std::string plan = "plan: {min_gpus: 4, max_gpus: 4, tp_max: 2, objective: ";
  const Scenario by_time = load_plan_scenario_file(write("time.yaml", kBase + plan + "time}\n" + kPrices));
  const Scenario by_cost = load_plan_scenario_file(write("cost.yaml", kBase + plan + "cost}\n" + kPrices));
  const PlanReport fast = run_plan(by_time, analytic()), cheap = run_plan(by_cost, analytic());
  EXPECT_EQ(region_of(by_time, fast.chosen()), "east");
  EXPECT_EQ(region_of(by_cost, cheap.chosen()), "west");
  EXPECT_EQ(cheap.chosen().method, "greedy-cheapest");
  EXPECT_LT(fast.chosen().time_s(), cheap.chosen().time_s());
  EXPECT_LT(cheap.chosen().usd_per_mtokens(), fast.chosen().usd_per_mtokens());
  // Closed form: 4 GPUs in one region move no byte between regions; $ = GPUs x price x time / tokens.
  const double tokens = 16.0 * 512;
  for (const auto& [r, price] : {std::pair{&fast.chosen(), 4.0}, std::pair{&cheap.chosen(), 0.5}}) {
    EXPECT_DOUBLE_EQ(r->cost.egress_gb_per_iteration, 0);
    EXPECT_NEAR(r->usd_per_mtokens(), 4 * price / 3600 * r->time_s() / tokens * 1e6, 1e-9 * r->usd_per_mtokens());
  }
}

TEST(PlanCost, EgressIsPricedPerRegionPair) {
  const Scenario s = load_plan_scenario_file(
      write("egress.yaml", kBase + "plan: {min_gpus: 8}\n" + kPrices));
  const PlanReport report = run_plan(s, analytic());
  const PlanRow& r = report.chosen();
  ASSERT_EQ(r.gpus, 8);  // both regions: the dp or pp traffic crosses the WAN
  EXPECT_GT(r.cost.egress_gb_per_iteration, 0);
  EXPECT_NEAR(r.cost.egress_usd_per_iteration, 0.05 * r.cost.egress_gb_per_iteration, 1e-12);
  EXPECT_NEAR(r.cost.gpu_usd_per_s, (4 * 4.0 + 4 * 0.5) / 3600, 1e-12);
}

TEST(PlanJournal, ResumedPlanWritesTheSameRows) {
  const Scenario s = load_plan_scenario_file(write("resume.yaml", kBase + "  schedule: auto\n"));
  const std::string dir = std::filesystem::path(write("resume/x", "")).parent_path().string();
  PlanOptions o = analytic();
  o.journal = plan_journal_path(dir);
  o.journal_identity = "test-1";
  std::filesystem::remove(o.journal);
  const std::string full = plan_csv(run_plan(s, o));
  // Cut the journal after its header and three entries, the last one half-written.
  std::ifstream in(o.journal);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), cut;
  std::size_t pos = 0;
  for (int line = 0; line < 4; ++line) pos = text.find('\n', pos) + 1;
  ASSERT_LT(pos, text.size());
  cut = text.substr(0, pos) + text.substr(pos, 10);
  std::ofstream(o.journal, std::ios::trunc) << cut;
  const PlanReport resumed = run_plan(s, o);
  EXPECT_EQ(resumed.resumed, 3);
  EXPECT_EQ(plan_csv(resumed), full);
  // A journal of another plan is not read.
  o.journal_identity = "test-2";
  const PlanReport other = run_plan(s, o);
  EXPECT_EQ(other.resumed, 0);
  EXPECT_EQ(plan_csv(other), full);
}
