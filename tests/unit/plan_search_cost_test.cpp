// The search under `hulk plan`'s cost objective: on an instance small enough for the exhaustive placer, the
// annealing given the $-per-1M-tokens objective (cost_objective) and a start on the cheap GPUs (as the plan gives
// it) finds the placement of least cost that brute force finds with the same objective as its oracle, and it is
// not the placement the time-minimising search returns (so the test fails if the objective is ignored).
#include <gtest/gtest.h>

#include "temp_file.hpp"

#include <cmath>
#include <string>

#include "sim/evaluate/evaluator.hpp"
#include "sim/methods/plan_cost.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/place/exhaustive_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/search_placer.hpp"

using namespace hulk;

namespace {

// 8 GPUs: A100s in east, V100s (8x cheaper) in west; 4 ranks, so the placement chooses which GPUs are paid for.
const std::string kScenario =
    "name: search-cost-tiny\n"
    "seed: 3\n"
    "platform:\n"
    "  regions:\n"
    "    - {name: east, hosts: 2, gpus_per_host: 2, gpu: A100-40GB}\n"
    "    - {name: west, hosts: 2, gpus_per_host: 2, gpu: V100-32GB}\n"
    "  wan:\n"
    "    default: {bandwidth: 1Gbps, latency: 30ms}\n"
    "job:\n"
    "  model: {layers: 8, hidden: 1024, heads: 16, seq_len: 512, vocab: 32000}\n"
    "  global_batch: 16\n"
    "  micro_batch: 2\n"
    "  parallelism: {dp: 2, pp: 2}\n"
    "prices: {gpu_hour: {A100-40GB: 4.0, V100-32GB: 0.5}, egress_gb: 0.05}\n";

}  // namespace

TEST(PlanSearchCost, TheSearchFindsTheCostOptimumOfBruteForce) {
  const Scenario s = load_scenario_file(hulk_test::write_temp_file("hulk_search_cost_tests", "s.yaml", kScenario));
  ASSERT_TRUE(prices_complete(s));
  const Evaluator ev(s);
  const auto cost = cost_objective(s);
  const auto cost_of = [&](const Placement& p) { return cost(hosts_of(p), ev.iteration_time_s(p)); };

  ExhaustiveOptions eo;
  eo.time_oracle = [&](const Scenario&, const Placement& p) { return cost_of(p); };
  ExhaustivePlacer brute(eo);
  const Placement cheapest = brute.place(s);
  ASSERT_TRUE(std::isfinite(brute.best_time_s()));

  // The plan starts the search from its cheapest greedy placement; here from the worse of two arrangements of the
  // ranks on the cheap hosts (2 and 3), so that the search has to improve on its start.
  const Placement a = placement_from_hosts({2, 2, 3, 3}), b = placement_from_hosts({2, 3, 2, 3});
  SearchOptions so;
  so.max_evaluations = 4000;
  so.objective_of = cost;
  so.start = cost_of(a) > cost_of(b) ? a : b;
  ASSERT_GT(cost_of(*so.start), (1 + 1e-6) * brute.best_time_s());
  const Placement found = SearchPlacer(so).place(s);
  EXPECT_NEAR(cost_of(found), brute.best_time_s(), 1e-9 * brute.best_time_s());
  EXPECT_NEAR(cost_of(cheapest), brute.best_time_s(), 1e-9 * brute.best_time_s());

  // The time-minimising search pays more: the objective changed the answer.
  SearchOptions by_time;
  by_time.max_evaluations = 4000;
  const Placement fastest = SearchPlacer(by_time).place(s);
  EXPECT_GT(cost_of(fastest), 1.01 * brute.best_time_s());
  EXPECT_LT(ev.iteration_time_s(fastest), ev.iteration_time_s(found));
}
