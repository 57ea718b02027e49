// DP all-reduce algorithms against closed forms (compute ~0, so the iteration is the all-reduce).
#include <gtest/gtest.h>

#include "sim/workload/cost_model.hpp"
#include "sim/place/placer.hpp"
#include "sim/engine/simulator.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {
constexpr double kNicBps = 1.25e9;   // 10 Gbit/s
constexpr double kNicLat = 50e-6;
constexpr double kWanBps = 1.25e8;   // 1 Gbit/s
constexpr double kWanLat = 20e-3;

double dp_bytes(const hulk::JobSpec& j) { return hulk::compute_job_cost(j).stages[0].dp_grad_bytes; }
}  // namespace

TEST(Collectives, RingAllReduceMatchesClosedForm) {
  const int n = 4;
  hulk::Scenario s = scenario(grid_platform(1, n, 1, kNicBps, kNicLat, kWanBps, kWanLat), small_job(n, 1, 1, 2, 1));
  s.only_job().collective = "ring";
  const double S = dp_bytes(s.only_job());
  const double a = 2 * kNicLat;  // route = sender NIC up + receiver NIC down
  const double expected = 2 * (n - 1) * a + 2.0 * (n - 1) / n * S / kNicBps;
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.iteration_time_s / expected, 1.0, 0.01) << r.iteration_time_s << " vs " << expected;
  EXPECT_NEAR(r.comm_dp_s / expected, 1.0, 0.01);
  EXPECT_EQ(r.messages, 2 * (n - 1) * n);
  EXPECT_NEAR(r.bytes.intra_region, 2.0 * (n - 1) * S, 1.0);  // every rank sends 2(n-1) chunks of S/n
  EXPECT_EQ(r.bytes.inter_region, 0);
}

TEST(Collectives, HierarchicalAllReduceMatchesClosedForm) {
  // 2 regions x k = 3 hosts, one GPU each: round-robin puts dp ranks 0-2 in region 0, 3-5 in region 1.
  const int R = 2, k = 3;
  hulk::Scenario s = scenario(grid_platform(R, k, 1, kNicBps, kNicLat, kWanBps, kWanLat), small_job(R * k, 1, 1, 2, 1));
  s.only_job().collective = "hierarchical";
  const double S = dp_bytes(s.only_job());
  const double local = (k - 1) * (2 * kNicLat + (S / k) / kNicBps);
  // k concurrent cross-region rings share the WAN link (each direction): each flow gets B_wan / k.
  const double cross_bw = std::min(kNicBps, kWanBps / k);
  const double cross = 2 * (R - 1) * (2 * kNicLat + kWanLat + (S / (k * R)) / cross_bw);
  const double expected = 2 * local + cross;
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.iteration_time_s / expected, 1.0, 0.01) << r.iteration_time_s << " vs " << expected;
  // Only the shards cross the WAN: 2(R-1) chunks of S/(kR) per rank.
  EXPECT_NEAR(r.bytes.inter_region, R * k * 2.0 * (R - 1) * S / (k * R), 1.0);
}

TEST(Collectives, HierarchicalUnbalancedFallsBackToRegionOrderedRing) {
  // Regions of the 4 DP members in group order: [0, 1, 0, 2] (unequal counts). The fallback ring visits them
  // region by region (0, 0, 1, 2): 3 region crossings per step instead of the 4 of the group-order ring. With a
  // WAN as fast as a NIC and no WAN latency every hop costs the same and the ring closed form holds.
  hulk::Scenario s =
      scenario(grid_platform(3, 2, 1, kNicBps, kNicLat, 100 * kNicBps, 0.0), small_job(4, 1, 1, 2, 1));
  s.only_job().collective = "hierarchical";
  hulk::Placement pl;
  pl.gpu_of_rank = {{0, 0}, {2, 0}, {1, 0}, {4, 0}};  // hosts r0h0, r1h0, r0h1, r2h0
  const int n = 4;
  const double S = dp_bytes(s.only_job());
  const double expected = 2 * (n - 1) * 2 * kNicLat + 2.0 * (n - 1) / n * S / kNicBps;
  hulk::SimResult r = hulk::simulate(s, pl);
  EXPECT_NEAR(r.iteration_time_s / expected, 1.0, 0.01) << r.iteration_time_s << " vs " << expected;
  EXPECT_NEAR(r.bytes.inter_region, 3 * 2.0 * (n - 1) * S / n, 1.0);
  EXPECT_NEAR(r.bytes.intra_region, 1 * 2.0 * (n - 1) * S / n, 1.0);
}

TEST(Collectives, TreeAllReduceMatchesClosedForm) {
  // 7 members: a full binary tree of depth 2. Each level: two children share their parent's NIC (reduce: the
  // parent's downlink; broadcast: its uplink), so a level takes a + 2S/B. Reduce + broadcast = 2 * depth levels.
  const int n = 7;
  hulk::Scenario s = scenario(grid_platform(1, n, 1, kNicBps, kNicLat, kWanBps, kWanLat), small_job(n, 1, 1, 2, 1));
  s.only_job().collective = "tree";
  const double S = dp_bytes(s.only_job());
  const double expected = 2 * 2 * (2 * kNicLat + 2 * S / kNicBps);
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.iteration_time_s / expected, 1.0, 0.01) << r.iteration_time_s << " vs " << expected;
  EXPECT_EQ(r.messages, 2 * (n - 1));
  // No pipeline, so no bubble: the leaves, whose part ends first, wait for the root's broadcast, and that wait is
  // DP time, not a bubble.
  EXPECT_EQ(r.bubble_s, 0.0);
  EXPECT_NEAR(r.comm_dp_s / expected, 1.0, 0.01) << r.comm_dp_s << " vs " << expected;
}
