// TP ring re-chaining (sim/place/tp_ring_order.hpp): each tensor-parallel group's members reordered over the same
// GPUs. Checked on a group whose best ring is known, against brute force over every member order of one-group jobs,
// and for its invariants on the training family's clusters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/tp_ring_order.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;
using testing::small_sampled_cluster;

/** One TP group of `hosts.size()` members (pp = dp = 1), member t on host hosts[t]. */
Placement one_group(const std::vector<int>& hosts) {
  Placement p;
  std::vector<int> next(16, 0);
  for (int h : hosts) p.gpu_of_rank.push_back({h, next[h]++});
  return p;
}

/** Host 0 (two GPUs) in region 0, hosts 1 and 2 (one GPU each) in regions 1 and 2; the pair 1-2 is 100x slower. */
Scenario relay_platform() {
  PlatformSpec platform = make_platform({1, 1, 1}, 1, a100(), {1.25e9, 50e-6}, {1.25e9, 5e-3});
  platform.hosts[0].gpus = 2;
  platform.wan[1][2] = platform.wan[2][1] = {1.25e7, 50e-3};
  return make_scenario(platform, make_job(1, 4, 1, 4));
}

TEST(TpRingOrder, RelaysThroughTheHostWithTwoMembersAroundASlowPair) {
  const Scenario s = relay_platform();
  const Placement start = one_group({0, 0, 1, 2});  // the ring crosses 1 -> 2 and 2 -> 0
  const Placement r = tp_ring_rechained(s, start);
  std::vector<int> hosts;
  for (const GpuSlot& g : r.gpu_of_rank) hosts.push_back(g.host);
  EXPECT_EQ(hosts, (std::vector<int>{0, 1, 0, 2})) << "host 0 relays, the slow pair is never a hop";
  const Evaluator ev(s);
  EXPECT_LT(ev.iteration_time_s(r), 0.5 * ev.iteration_time_s(start));
  const TimedPlacement f = fastest_tp_ring_order(s, start, ev.iteration_time_s(start),
                                                 [&](const Placement& p) { return ev.iteration_time_s(p); });
  EXPECT_EQ(f.placement.gpu_of_rank, r.gpu_of_rank);
}

/** Every distinct order of the members of a one-group job, by the evaluator: the best time. */
double best_member_order_s(const Scenario& s, const Placement& start) {
  const Evaluator ev(s);
  std::vector<int> idx(start.gpu_of_rank.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  double best = ev.iteration_time_s(start);
  do {
    Placement p;
    for (int i : idx) p.gpu_of_rank.push_back(start.gpu_of_rank[i]);
    best = std::min(best, ev.iteration_time_s(p));
  } while (std::next_permutation(idx.begin(), idx.end()));
  return best;
}

TEST(TpRingOrder, FindsTheBruteForceBestRingOfOneGroupJobs) {
  // Random WAN between 3-4 one- or two-GPU hosts in their own regions; a 4- or 5-member group over all their GPUs.
  std::mt19937_64 rng(20261204);
  std::uniform_real_distribution<double> bw(1e7, 1.25e9), lat(1e-3, 80e-3);
  int improved = 0, exact = 0;
  double worst = 1.0;  // largest ratio of the re-chained ring's time to the brute-force best
  for (int c = 0; c < 40; ++c) {
    const int hosts = 3 + static_cast<int>(rng() % 2);
    PlatformSpec platform = make_platform(std::vector<int>(hosts, 1), 1, a100());
    std::vector<int> members;
    for (int h = 0; h < hosts; ++h) {
      platform.hosts[h].gpus = 1 + static_cast<int>(rng() % 2);
      for (int g = 0; g < platform.hosts[h].gpus; ++g) members.push_back(h);
    }
    for (int a = 0; a < hosts; ++a)
      for (int b = a + 1; b < hosts; ++b) platform.wan[a][b] = platform.wan[b][a] = {bw(rng), lat(rng)};
    if (members.size() > 6) members.resize(6);
    const Scenario s = make_scenario(platform, make_job(1, static_cast<int>(members.size()), 1, 4));
    const Placement start = one_group(members);
    const Evaluator ev(s);
    const double best = best_member_order_s(s, start);
    const double got = ev.iteration_time_s(tp_ring_rechained(s, start));
    // The proxy is the evaluator's ring alone (ring_steps.hpp); the evaluator also skews members by their compute
    // and GPUs, so on a few cases another order is slightly faster (2 of 40 here, by 2.1% and 0.5%).
    EXPECT_LE(got, best * 1.05) << "case " << c;
    exact += got <= best * (1 + 1e-9);
    worst = std::max(worst, got / best);
    improved += got < ev.iteration_time_s(start) * (1 - 1e-9);
  }
  std::printf("[tp-ring] brute-force best on %d of 40 one-group jobs, worst %.2f%% slower; start improved on %d\n",
              exact, 100 * (worst - 1), improved);
  EXPECT_GE(exact, 36) << "the brute-force best on at least 90% of the cases";
  EXPECT_GE(improved, 10) << "the start order is the best on most cases: the check would be empty";
}

TEST(TpRingOrder, KeepsEveryGroupsGpusAndIsDeterministicAndNeverSlowerWhenChosen) {
  int changed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Scenario s = small_sampled_cluster(seed);
    const int tp = s.only_job().par.tp;
    for (const Placement& start : {GreedyPlacer().place(s), RandomPlacer(seed).place(s)}) {
      const Placement r = tp_ring_rechained(s, start);
      ASSERT_EQ(r.gpu_of_rank.size(), start.gpu_of_rank.size());
      EXPECT_EQ(placement_problem(s, r, s.only_job().check_memory), "") << seed;
      for (size_t g = 0; g * tp < r.gpu_of_rank.size(); ++g) {
        std::vector<GpuSlot> a(start.gpu_of_rank.begin() + g * tp, start.gpu_of_rank.begin() + (g + 1) * tp);
        std::vector<GpuSlot> b(r.gpu_of_rank.begin() + g * tp, r.gpu_of_rank.begin() + (g + 1) * tp);
        EXPECT_EQ(a[0].host, b[0].host) << "member 0's host stays first";
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        EXPECT_EQ(a, b) << "seed " << seed << " group " << g;
      }
      EXPECT_EQ(tp_ring_rechained(s, start).gpu_of_rank, r.gpu_of_rank);
      EXPECT_EQ(tp_ring_rechained(s, r).gpu_of_rank, r.gpu_of_rank) << "a re-chained placement is its own best";
      changed += r.gpu_of_rank != start.gpu_of_rank;
      const Evaluator ev(s);
      const double t0 = ev.iteration_time_s(start);
      const TimedPlacement f =
          fastest_tp_ring_order(s, start, t0, [&](const Placement& p) { return ev.iteration_time_s(p); });
      EXPECT_LE(f.time_s, t0);
      EXPECT_EQ(f.time_s, ev.iteration_time_s(f.placement));
    }
  }
  EXPECT_GT(changed, 0);
}

TEST(TpRingOrder, JobsWithoutTensorParallelismAreUnchanged) {
  const Scenario s = make_scenario(make_platform({2, 2}, 2, a100()), make_job(2, 1, 4, 8));
  const Placement start = GreedyPlacer().place(s);
  EXPECT_EQ(tp_ring_rechained(s, start).gpu_of_rank, start.gpu_of_rank);
}

}  // namespace
}  // namespace hulk
