// Clusters where the analytic evaluator was far from SimGrid (tests/data/evaluator/, each file says how far and
// why): its estimate of each placement must now be within 10% of SimGrid's time. Every case failed before its fix.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk {
namespace {

const std::string kCases = std::string(HULK_TEST_DATA) + "/evaluator/";

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

/** Prints and checks the evaluator's error on one placement. */
void expect_close_to_simgrid(const Scenario& s, const Placement& p, const std::string& label) {
  const double analytic = Evaluator(s).iteration_time_s(p), simgrid = simulated_iteration_time_s(s, p);
  const double error = analytic / simgrid - 1;
  std::printf("[evaluator-cases] %s: analytic %.3f s, SimGrid %.3f s (%+.1f%%)\n", label.c_str(), analytic, simgrid,
              100 * error);
  EXPECT_LT(std::fabs(error), 0.10) << label;
}

TEST(EvaluatorCases, HandOffsIntoSlowNicsAreNotSlowedByTheFasterWan) {
  // Greedy's placement was estimated 52% over SimGrid (the WAN's six flows divided the NIC-bound rate by six).
  const Scenario s = load_scenario_file(kCases + "slow-nics.yaml");
  expect_close_to_simgrid(s, GreedyPlacer().place(s), "slow-nics greedy");
}

TEST(EvaluatorCases, ChunksOfOneConnectionShareItsBandwidth) {
  // Three channels per peer: round-robin's placement was estimated 60% under SimGrid, greedy's 14% under.
  const Scenario s = load_scenario_file(kCases + "channels-hierarchical.yaml");
  expect_close_to_simgrid(s, compute_placement(s, "round-robin", MethodOptions{}).placement, "channels-hierarchical round-robin");
  expect_close_to_simgrid(s, GreedyPlacer().place(s), "channels-hierarchical greedy");
}

TEST(EvaluatorCases, OverlappingHierarchicalAllReducesLoadTheLinksTheyCross) {
  // Clusters of the `larger` sampler (seeds 3103, 3113) with placements a search found while the evaluator put the
  // other stages' DP traffic on the wrong links. 3113: hierarchical rings run region by region, not in dp order
  // (37% under SimGrid). 3103: the tp groups' rings run all at once (a first version of the fix counted only one
  // group's flows per link: 20% under; the dp-order rings before it were within 3%).
  for (const char* name : {"larger-3103", "larger-3113"}) {
    const std::string base = kCases + name;
    const Scenario s = scenario_from_json(read_json(base + ".scenario.json"), base + ".scenario.json");
    const Placement p = placement_from_json(s, read_json(base + ".placement.json"), base + ".placement.json");
    expect_close_to_simgrid(s, p, name);
  }
}

}  // namespace
}  // namespace hulk
