// The analytic traffic estimate (the GNN's edge features) against a SimGrid trace of the same placement: the
// bytes per host pair and kind must be the ones the simulator moves (ring collectives, PP hand-offs).
#include <gtest/gtest.h>

#include "sim/features/cluster_graph.hpp"
#include "sim/core/errors.hpp"
#include "sim/place/placer.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {

void expect_same_bytes(const hulk::Scenario& s, const hulk::Placement& p) {
  const hulk::SimResult r = hulk::simulate(s, p);
  const hulk::TrafficMatrix traced = hulk::traffic_from_events(s.platform, r.events);
  const hulk::TrafficMatrix estimated = hulk::estimate_traffic(s, p);
  const int H = static_cast<int>(s.platform.hosts.size());
  double total = 0;
  for (int k = 0; k < hulk::kCommKinds; ++k)
    for (int a = 0; a < H; ++a)
      for (int b = 0; b < H; ++b) {
        const auto kind = static_cast<hulk::CommKind>(k);
        const double want = traced.bytes_between(kind, a, b), got = estimated.bytes_between(kind, a, b);
        total += want;
        EXPECT_NEAR(got, want, 1e-6 * want + 1.0) << "kind " << k << " hosts " << a << "-" << b;
      }
  EXPECT_GT(total, 0);
}

}  // namespace

TEST(TrafficEstimate, MatchesSimGridBytesOfA3dJob) {
  // 2 regions x 2 hosts x 2 GPUs, dp 2 x tp 2 x pp 2 = 8 ranks, round-robin scatters TP over hosts.
  hulk::Scenario s = scenario(grid_platform(2, 2, 2, 1.25e9, 50e-6, 1.25e8, 20e-3), small_job(2, 2, 2, 2, 3));
  s.only_job().collective = "ring";
  expect_same_bytes(s, hulk::round_robin_placement(s));
}

TEST(TrafficEstimate, MatchesSimGridBytesWithTpInsideHosts) {
  hulk::Scenario s = scenario(grid_platform(1, 3, 4, 1.25e9, 50e-6, 1.25e8, 20e-3), small_job(3, 4, 1, 2, 2));
  s.only_job().collective = "ring";
  hulk::Placement p;
  for (int r = 0; r < s.only_job().par.ranks(); ++r) p.gpu_of_rank.push_back({r / 4, r % 4});
  expect_same_bytes(s, p);
}

TEST(TrafficEstimate, BusyTimeIsAlphaBetaOfTheRoute) {
  // pp 2 on two hosts of one region: 2m messages of pp_message_bytes each way, NIC route both ways.
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, 1.25e9, 50e-6, 1.25e8, 20e-3), small_job(1, 1, 2, 2, 4));
  const hulk::Placement p = hulk::round_robin_placement(s);
  const hulk::TrafficMatrix t = hulk::estimate_traffic(s, p);
  const double bytes = t.bytes_between(hulk::CommKind::pp, 0, 1);
  const double messages = 2.0 * 4;
  EXPECT_NEAR(t.busy_between(hulk::CommKind::pp, 0, 1), messages * 100e-6 + bytes / 1.25e9, 1e-12);
  EXPECT_EQ(t.bytes_between(hulk::CommKind::pp, 0, 1), t.bytes_between(hulk::CommKind::pp, 1, 0));
  EXPECT_EQ(t.bytes_between(hulk::CommKind::tp, 0, 1), 0);
  EXPECT_EQ(t.bytes_between(hulk::CommKind::dp, 0, 1), 0);
}

TEST(TrafficEstimate, RejectsAPlacementOfAnotherJob) {
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, 1.25e9, 50e-6, 1.25e8, 20e-3), small_job(1, 1, 2, 2, 4));
  hulk::Placement p;
  p.gpu_of_rank = {{0, 0}};
  EXPECT_THROW(hulk::estimate_traffic(s, p), hulk::InputError);
  p.gpu_of_rank = {{0, 0}, {7, 0}};
  EXPECT_THROW(hulk::estimate_traffic(s, p), hulk::InputError);
}

TEST(TrafficEstimate, FullRecomputeAddsHalfTheTensorParallelTraffic) {
  // Full recompute: 6 TP all-reduces per layer and micro-batch instead of 4, so 1.5x the TP bytes on every host
  // pair; selective adds none; pipeline and DP traffic are unchanged. (Checked without SimGrid: the engine repeats
  // the all-reduces once its side of recomputation lands; then expect_same_bytes applies to it too.)
  hulk::Scenario s = scenario(grid_platform(2, 2, 2, 1.25e9, 50e-6, 1.25e8, 20e-3), small_job(2, 2, 2, 2, 3));
  const hulk::Placement p = hulk::round_robin_placement(s);
  const hulk::TrafficMatrix none = hulk::estimate_traffic(s, p);
  s.only_job().recompute = "selective";
  const hulk::TrafficMatrix selective = hulk::estimate_traffic(s, p);
  s.only_job().recompute = "full";
  const hulk::TrafficMatrix full = hulk::estimate_traffic(s, p);
  const int H = static_cast<int>(s.platform.hosts.size());
  double tp_total = 0;
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b) {
      const double tp = none.bytes_between(hulk::CommKind::tp, a, b);
      tp_total += tp;
      EXPECT_DOUBLE_EQ(full.bytes_between(hulk::CommKind::tp, a, b), 1.5 * tp);
      EXPECT_DOUBLE_EQ(selective.bytes_between(hulk::CommKind::tp, a, b), tp);
      for (hulk::CommKind k : {hulk::CommKind::pp, hulk::CommKind::dp})
        EXPECT_DOUBLE_EQ(full.bytes_between(k, a, b), none.bytes_between(k, a, b));
    }
  EXPECT_GT(tp_total, 0);
}
