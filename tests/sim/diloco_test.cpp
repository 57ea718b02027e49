// DiLoCo outer synchronisation (JobSpec::sync): the outer all-reduce against the ring closed form on the compressed
// byte count, the outer round's utilisation with and without overlap, islands from the placement.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/engine/isolated_run.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/islands.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {
constexpr double kNicBps = 1.25e9, kNicLat = 50e-6, kWanBps = 1.25e8, kWanLat = 20e-3;

/** One single-GPU host per region, dp = regions, one replica per island (islands: region). */
hulk::Scenario diloco_scenario(int regions, const std::string& compression, int inner_steps, double gpu_flops) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = gpu_flops;
  hulk::Scenario s = scenario(grid_platform(regions, 1, 1, kNicBps, kNicLat, kWanBps, kWanLat, gpu),
                              small_job(regions, 1, 1, 2, 1));
  s.only_job().sync.algorithm = "diloco";
  s.only_job().sync.inner_steps = inner_steps;
  s.only_job().sync.compression = compression;
  return s;
}

hulk::Placement one_per_host(int n) {
  hulk::Placement p;
  for (int h = 0; h < n; ++h) p.gpu_of_rank.push_back({h, 0});
  return p;
}

nlohmann::json run(const hulk::Scenario& s) {
  hulk::SimOptions o;
  o.record_events = o.record_spans = false;
  return hulk::simulate_isolated(s, one_per_host(s.only_job().par.dp), o);
}
}  // namespace

// Three islands in three regions: a ring over the three region-pair links of S = params x bytes per value.
TEST(Diloco, OuterAllReduceIsTheRingClosedFormOnTheCompressedBytes) {
  for (const char* compression : {"none", "bf16", "int8"}) {
    const hulk::Scenario s = diloco_scenario(3, compression, 10, 1e30);
    const nlohmann::json r = run(s);
    const double S = hulk::compute_job_cost(s.only_job()).stages[0].params * s.only_job().sync.bytes_per_value();
    const int n = 3;
    const double a = 2 * kNicLat + kWanLat;
    const double expected = 2 * (n - 1) * (a + S / n / kWanBps);
    EXPECT_NEAR(r["sync"]["outer_allreduce_s"].get<double>() / expected, 1.0, 0.01) << compression;
    EXPECT_EQ(r["sync"]["islands"], 3);
    // Inside an island of one replica there is no DP traffic: the inner iteration crosses no WAN link.
    EXPECT_DOUBLE_EQ(r["sync"]["wan_bytes_per_round"].get<double>(), r["bytes"]["inter_region"].get<double>() * 10 +
                                                                          2.0 * (n - 1) * S);
  }
}

// Without overlap, utilisation = H t_inner / (H t_inner + t_outer) for a compute-only inner step; with overlap the
// round costs max(H t_inner, t_outer) (nothing else shares the WAN links here).
TEST(Diloco, UtilisationAndRoundWithAndWithoutOverlap) {
  hulk::Scenario s = diloco_scenario(2, "int8", 50, 50e12);
  const nlohmann::json plain = run(s);
  const double t_in = plain["sync"]["inner_iteration_s"].get<double>();
  const double t_out = plain["sync"]["outer_allreduce_s"].get<double>();
  EXPECT_NEAR(plain["compute_s"].get<double>() / t_in, 1.0, 1e-9);  // one replica per island: compute only
  EXPECT_NEAR(plain["sync"]["round_s"].get<double>(), 50 * t_in + t_out, 1e-9 * (50 * t_in + t_out));
  EXPECT_NEAR(plain["sync"]["compute_time_share"].get<double>(), 50 * t_in / (50 * t_in + t_out), 1e-9);
  // The round's MFU: the inner iterations' model FLOPs over the whole round (the outer all-reduce computes nothing).
  EXPECT_GT(plain["mfu"].get<double>(), 0.0);
  EXPECT_NEAR(plain["sync"]["mfu"].get<double>() / plain["mfu"].get<double>(), 50 * t_in / (50 * t_in + t_out), 1e-9);
  EXPECT_NEAR(plain["objective_s"].get<double>(), (50 * t_in + t_out) / 50, 1e-9);
  s.only_job().sync.overlap = "outer";
  const nlohmann::json overlapped = run(s);
  EXPECT_NEAR(overlapped["sync"]["round_s"].get<double>(), std::max(50 * t_in, t_out), 1e-9 * 50 * t_in);
}

// Islands follow the placement: two replicas in one region form one island, their DP all-reduce stays inside it.
TEST(Diloco, IslandsByRegionSliceTheOuterAllReduce) {
  hulk::Scenario s = scenario(grid_platform(2, 2, 1, kNicBps, kNicLat, kWanBps, kWanLat), small_job(4, 1, 1, 2, 1));
  s.only_job().sync.algorithm = "diloco";
  s.only_job().sync.inner_steps = 5;
  hulk::Placement p = one_per_host(4);  // replicas 0, 1 in region 0; 2, 3 in region 1
  const hulk::IslandPlan islands = hulk::island_plan(s, p);
  ASSERT_EQ(islands.islands(), 2);
  EXPECT_EQ(islands.slices, 2);
  hulk::SimOptions o;
  o.record_events = o.record_spans = false;
  const nlohmann::json r = hulk::simulate_isolated(s, p, o);
  EXPECT_EQ(r["bytes"]["inter_region"].get<double>(), 0.0);  // inner steps: DP inside each region only
  // Two slices of S/2 each cross the one WAN pair link at once (a ring of two: 2 steps of S/4 at B/2).
  const double S = hulk::compute_job_cost(s.only_job()).stages[0].params * 4;
  const double a = 2 * kNicLat + kWanLat;
  const double expected = 2 * (a + (S / 2 / 2) / (kWanBps / 2));
  EXPECT_NEAR(r["sync"]["outer_allreduce_s"].get<double>() / expected, 1.0, 0.01);
}
