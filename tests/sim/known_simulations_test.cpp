// Each placement simulated once per command (sim/methods/known_simulations.hpp): a known result is taken instead of
// a SimGrid run, compare's rows (which share their results with the search's check and take the check's result of
// its answer) equal each placement's own simulation, and the search gives the same answer whether it is handed
// known results or runs them itself. Each test runs in its own process (SimGrid children are forked from it).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/engine/isolated_run.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/methods/known_simulations.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk {
namespace {

const std::string kTiny = std::string(HULK_TEST_DATA) + "/tiny/tiny.yaml";

/** The placement's quiet result.json from a SimGrid run of its own. */
nlohmann::json own_run(const Scenario& s, const Placement& p) {
  SimOptions quiet;
  quiet.record_events = quiet.record_spans = false;
  return simulate_isolated(s, p, quiet);
}

TEST(KnownSimulations, AKnownResultIsTakenAndANewOneAdded) {
  const Scenario s = load_scenario_file(kTiny);
  const Placement greedy = GreedyPlacer().place(s), rr = round_robin_placement(s);
  ASSERT_NE(greedy.gpu_of_rank, rr.gpu_of_rank);
  KnownSimulations known;
  const nlohmann::json first = quiet_simulation(s, greedy, &known);
  ASSERT_EQ(known.size(), 1u);
  EXPECT_EQ(first.dump(), own_run(s, greedy).dump());
  // A known result is the answer, whatever it holds: no run is made (a marked copy comes back).
  known[0].result["objective_s"] = -1.0;
  EXPECT_EQ(quiet_simulation(s, greedy, &known).at("objective_s").get<double>(), -1.0);
  EXPECT_EQ(known.size(), 1u);
  // Another placement is run and added; without a list nothing is kept.
  EXPECT_EQ(quiet_simulation(s, rr, &known).dump(), own_run(s, rr).dump());
  EXPECT_EQ(known.size(), 2u);
  EXPECT_EQ(quiet_simulation(s, rr, nullptr).dump(), own_run(s, rr).dump());
}

TEST(KnownSimulations, CompareRowsEqualEachPlacementsOwnRun) {
  const Scenario s = load_scenario_file(kTiny);
  const CompareReport report = run_compare(s, {"round-robin", "greedy", "search"}, MethodOptions{}, false);
  ASSERT_EQ(report.results.size(), 3u);
  for (const MethodResult& r : report.results) {
    ASSERT_TRUE(r.ok) << r.method << ": " << r.error;
    const nlohmann::json own = own_run(s, r.placement);
    EXPECT_EQ(r.iteration_time_s, own.at("objective_s").get<double>()) << r.method;
    EXPECT_EQ(r.mfu, own.at("mfu").get<double>()) << r.method;
    ASSERT_TRUE(r.compute_time_share.has_value()) << r.method;
    EXPECT_EQ(*r.compute_time_share, own.at("compute_s").get<double>() / own.at("iteration_time_s").get<double>());
  }
}

TEST(KnownSimulations, SearchGivesTheSameAnswerWithKnownResults) {
  const Scenario s = load_scenario_file(kTiny);
  MethodOptions alone;
  alone.budget = 600;
  MethodOptions with_known = alone;
  const Placement greedy = GreedyPlacer().place(s), rr = round_robin_placement(s);
  with_known.known_simulations = {{greedy, own_run(s, greedy)}, {rr, own_run(s, rr)}};
  const PlacementOutcome a = compute_placement(s, "search", alone);
  const PlacementOutcome b = compute_placement(s, "search", with_known);
  EXPECT_EQ(a.placement.gpu_of_rank, b.placement.gpu_of_rank);
  // Alone, the check runs every candidate, round-robin and the answer among them; handed greedy's and round-robin's
  // results it runs neither again. Every result it returns is that placement's own run.
  const auto has = [](const KnownSimulations& k, const Placement& p) { return find_known(k, p) != nullptr; };
  EXPECT_TRUE(has(a.simulated, a.placement));
  EXPECT_TRUE(has(a.simulated, rr));
  EXPECT_FALSE(has(b.simulated, rr));
  EXPECT_FALSE(has(b.simulated, greedy));
  for (const KnownSimulation& k : a.simulated) EXPECT_EQ(k.result.dump(), own_run(s, k.placement).dump());
  for (const KnownSimulation& k : b.simulated) EXPECT_EQ(k.result.dump(), own_run(s, k.placement).dump());
}

}  // namespace
}  // namespace hulk
