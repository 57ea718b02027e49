// Replica re-ordering (sim/place/replica_order.hpp): the DP rings' order over the same GPUs, whole replicas moved.
// Checked on a ring whose best order is known, against brute force over every replica order of small jobs, and for
// its invariants on the training family's clusters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/replica_order.hpp"
#include "sim/workload/placement_check.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;
using testing::small_sampled_cluster;

/** Replica d (dp = hosts.size(), tp = pp = 1) on host hosts[d]. */
Placement one_rank_per_replica(const std::vector<int>& hosts) {
  Placement p;
  for (int h : hosts) p.gpu_of_rank.push_back({h, 0});
  return p;
}

/** Four one-GPU hosts in four regions; the pairs 0-1 and 2-3 are 100x slower than the others. */
Scenario square_platform() {
  PlatformSpec platform = make_platform({1, 1, 1, 1}, 1, a100(), {1.25e9, 50e-6}, {1.25e9, 5e-3});
  platform.wan[0][1] = platform.wan[1][0] = {1.25e7, 50e-3};
  platform.wan[2][3] = platform.wan[3][2] = {1.25e7, 50e-3};
  JobSpec job = make_job(4, 1, 1, 4);
  job.collective = "ring";
  return make_scenario(platform, job);
}

TEST(ReplicaOrder, RingAvoidsTheSlowPairs) {
  const Scenario s = square_platform();
  const RouteModel network(s.platform);
  const Placement start = one_rank_per_replica({0, 1, 2, 3});  // the ring crosses 0-1 and 2-3
  const Placement r = replicas_reordered(s, start, network);
  for (int d = 0; d < 4; ++d) {
    const int a = r.gpu_of_rank[d].host, b = r.gpu_of_rank[(d + 1) % 4].host;
    EXPECT_FALSE((std::min(a, b) == 0 && std::max(a, b) == 1) || (std::min(a, b) == 2 && std::max(a, b) == 3))
        << "hop " << d << ": " << a << " -> " << b;
  }
  EXPECT_LT(replica_ring_proxy_s(s, r, network), 0.2 * replica_ring_proxy_s(s, start, network));
  const Evaluator ev(s);
  const double t0 = ev.iteration_time_s(start);
  EXPECT_LT(ev.iteration_time_s(r), 0.5 * t0);
  const TimedPlacement f =
      fastest_replica_order(s, start, t0, [&](const Placement& p) { return ev.iteration_time_s(p); }, network);
  EXPECT_EQ(f.placement.gpu_of_rank, r.gpu_of_rank);
  EXPECT_EQ(f.time_s, ev.iteration_time_s(r));
}

/** The best time by the evaluator over every order of the start's replicas (replica 0 kept first: rotations of a
 *  ring are the same ring). */
double best_replica_order_s(const Scenario& s, const Placement& start) {
  const Evaluator ev(s);
  std::vector<int> index(s.only_job().par.dp);
  std::iota(index.begin(), index.end(), 0);
  double best = ev.iteration_time_s(start);
  do best = std::min(best, ev.iteration_time_s(replicas_renumbered(s, start, index)));
  while (std::next_permutation(index.begin() + 1, index.end()));
  return best;
}

TEST(ReplicaOrder, NearTheBruteForceBestOrderOfSmallJobs) {
  // Random WAN between 4-6 one-GPU hosts in their own regions; dp over all of them, one or two stages.
  std::mt19937_64 rng(20261205);
  std::uniform_real_distribution<double> bw(1e7, 1.25e9), lat(1e-3, 80e-3);
  int exact = 0, improved = 0;
  double worst = 1.0;  // largest ratio of the re-ordered time to the brute-force best
  const int cases = 30;
  for (int c = 0; c < cases; ++c) {
    const int pp = 1 + static_cast<int>(rng() % 2), dp = 4 + static_cast<int>(rng() % 3);
    PlatformSpec platform = make_platform(std::vector<int>(dp, 1), pp, a100());
    for (int a = 0; a < dp; ++a)
      for (int b = a + 1; b < dp; ++b) platform.wan[a][b] = platform.wan[b][a] = {bw(rng), lat(rng)};
    JobSpec job = make_job(dp, 1, pp, 4);
    job.collective = "ring";
    const Scenario s = make_scenario(platform, job);
    Placement start;  // replica d on host d, its stages on the host's GPUs
    for (int st = 0; st < pp; ++st)
      for (int d = 0; d < dp; ++d) start.gpu_of_rank.push_back({d, st});
    const Evaluator ev(s);
    const double best = best_replica_order_s(s, start);
    const double got = ev.iteration_time_s(replicas_reordered(s, start, RouteModel(s.platform)));
    exact += got <= best * (1 + 1e-9);
    worst = std::max(worst, got / best);
    improved += got < ev.iteration_time_s(start) * (1 - 1e-9);
  }
  std::printf("[replica-order] brute-force best on %d of %d small jobs, worst %.2f%% slower; start improved on %d\n",
              exact, cases, 100 * (worst - 1), improved);
  EXPECT_GE(exact, cases * 5 / 6) << "the brute-force best on at least five cases of six";
  EXPECT_LE(worst, 1.05) << "the proxy paces rings as the evaluator does: within a few percent elsewhere";
  EXPECT_GE(improved, cases / 2) << "the start order is the best on most cases: the check would be empty";
}

/** Each replica's GPUs (all stages and TP ranks, in rank order). */
std::vector<std::vector<GpuSlot>> replica_gpus(const Scenario& s, const Placement& p) {
  const Parallelism& par = s.only_job().par;
  const ParallelPlan plan(par);
  std::vector<std::vector<GpuSlot>> out(par.dp);
  for (int d = 0; d < par.dp; ++d)
    for (int st = 0; st < par.pp; ++st)
      for (int t = 0; t < par.tp; ++t) out[d].push_back(p.gpu_of_rank[plan.rank_of(st, d, t)]);
  return out;
}

TEST(ReplicaOrder, MovesWholeReplicasDeterministicallyAndIsNeverSlowerWhenChosen) {
  int changed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Scenario s = small_sampled_cluster(seed);
    const RouteModel network(s.platform);
    for (const Placement& start : {GreedyPlacer().place(s), RandomPlacer(seed).place(s)}) {
      const Placement r = replicas_reordered(s, start, network);
      ASSERT_EQ(r.gpu_of_rank.size(), start.gpu_of_rank.size());
      EXPECT_EQ(placement_problem(s, r, s.only_job().check_memory), "") << seed;
      std::vector<std::vector<GpuSlot>> a = replica_gpus(s, start), b = replica_gpus(s, r);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      EXPECT_EQ(a, b) << "seed " << seed << ": every pipeline keeps its GPUs";
      EXPECT_EQ(replicas_reordered(s, start, network).gpu_of_rank, r.gpu_of_rank);
      EXPECT_LE(replica_ring_proxy_s(s, r, network), replica_ring_proxy_s(s, start, network));
      changed += r.gpu_of_rank != start.gpu_of_rank;
      const Evaluator ev(s);
      const double t0 = ev.iteration_time_s(start);
      const TimedPlacement f = fastest_replica_order(
          s, start, t0, [&](const Placement& p) { return ev.iteration_time_s(p); }, network,
          [&](const Placement& p) { return ev.time_lower_bound(p); });
      EXPECT_LE(f.time_s, t0);
      EXPECT_EQ(f.time_s, ev.iteration_time_s(f.placement));
    }
  }
  EXPECT_GT(changed, 0);
}

TEST(ReplicaOrder, JobsOfFewerThanThreeReplicasAreUnchanged) {
  for (const int dp : {1, 2}) {
    const Scenario s = make_scenario(make_platform({2, 2}, 2, a100()), make_job(dp, 1, 2, 8));
    const Placement start = GreedyPlacer().place(s);
    EXPECT_EQ(replicas_reordered(s, start, RouteModel(s.platform)).gpu_of_rank, start.gpu_of_rank);
  }
}

}  // namespace
}  // namespace hulk
