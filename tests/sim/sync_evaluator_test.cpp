// The DiLoCo step-time estimate (sim/evaluate/sync_evaluator.hpp) against SimGrid, and the search placing islands.
#include <gtest/gtest.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer.hpp"
#include "sim/place/search_placer.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {

/** Three regions of 4 hosts x 2 GPUs; a dp 6 x tp 2 x pp 2 job, DiLoCo with islands by region. */
hulk::Scenario three_regions() {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 100e12;
  hulk::JobSpec job = small_job(6, 2, 2, 8, 4);
  job.sync.algorithm = "diloco";
  job.sync.inner_steps = 50;
  job.sync.compression = "int8";
  return scenario(grid_platform(3, 4, 2, 1.25e9, 50e-6, 1.25e8, 60e-3, gpu), job);
}

double simulated(const hulk::Scenario& s, const hulk::Placement& p) {
  hulk::SimOptions o;
  o.record_events = o.record_spans = false;
  return hulk::simulate_isolated(s, p, o).at("objective_s").get<double>();
}

}  // namespace

// Round-robin spreads the replicas over the three regions (three islands, DP inside each); greedy packs them
// compactly, every replica in one island syncing every step over the WAN or not: the estimate orders them as SimGrid
// does and is within 25% of it on both.
TEST(SyncEvaluator, EstimatesTheStepTimeAndOrdersPlacementsAsSimGrid) {
  const hulk::Scenario s = three_regions();
  const hulk::SyncEvaluator ev(s);
  const hulk::Placement rr = hulk::round_robin_placement(s), greedy = hulk::GreedyPlacer().place(s);
  const double rr_sim = simulated(s, rr), greedy_sim = simulated(s, greedy);
  const double rr_est = ev.step_time_s(rr), greedy_est = ev.step_time_s(greedy);
  std::printf("round-robin: estimate %.4g s, SimGrid %.4g s; greedy: estimate %.4g s, SimGrid %.4g s\n", rr_est, rr_sim,
              greedy_est, greedy_sim);
  EXPECT_NEAR(rr_est / rr_sim, 1.0, 0.25) << rr_est << " vs " << rr_sim;
  EXPECT_NEAR(greedy_est / greedy_sim, 1.0, 0.25) << greedy_est << " vs " << greedy_sim;
  EXPECT_EQ(rr_est < greedy_est, rr_sim < greedy_sim);
}

// The search minimises the DiLoCo step time: its answer is no slower by SimGrid than the better of its starts.
TEST(SyncEvaluator, SearchPlacesForTheStepTime) {
  const hulk::Scenario s = three_regions();
  hulk::SearchOptions o;
  o.max_evaluations = 2000;
  hulk::SearchPlacer search(o);
  const hulk::Placement p = search.place(s);
  const double best_start = std::min(simulated(s, hulk::round_robin_placement(s)),
                                     simulated(s, hulk::GreedyPlacer().place(s)));
  EXPECT_LE(simulated(s, p), best_start * 1.001);
  EXPECT_LE(search.stats().best_time_s, search.stats().start_time_s);
}
