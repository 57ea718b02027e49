// Stage reorderings (sim/place/stage_order.hpp): the same GPU blocks chained in another order. Checked on a chain
// whose best order is known, against brute force over every order on small pipelines, and for their invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/replica_order.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/place/stage_order.hpp"
#include "sim/place/tp_ring_order.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;
using testing::small_sampled_cluster;

/** Stage s of `p` on the block of stage order[s] of `start`. */
Placement with_order(const Placement& start, const std::vector<int>& order, int block) {
  Placement p = start;
  for (size_t s = 0; s < order.size(); ++s)
    for (int i = 0; i < block; ++i) p.gpu_of_rank[s * block + i] = start.gpu_of_rank[order[s] * block + i];
  return p;
}

/** Four regions of one 1-GPU host in a ring of fast links; the two diagonals (0-2, 1-3) are 100x slower. */
Scenario ring_with_slow_diagonals() {
  PlatformSpec platform = make_platform({1, 1, 1, 1}, 1, a100(), {1.25e9, 50e-6}, {1.25e9, 5e-3});
  platform.wan[0][2] = platform.wan[2][0] = {1.25e7, 50e-3};
  platform.wan[1][3] = platform.wan[3][1] = {1.25e7, 50e-3};
  return make_scenario(platform, make_job(1, 1, 4, 8));
}

TEST(StageOrder, ChainsTheBlocksAroundASlowLinkTheStartCrosses) {
  const Scenario s = ring_with_slow_diagonals();
  Placement start;
  for (int h : {0, 2, 1, 3}) start.gpu_of_rank.push_back({h, 0});  // crosses 0-2 and 1-3
  const std::vector<Placement> c = stage_order_candidates(s, start, 6);
  ASSERT_FALSE(c.empty());
  const std::vector<int> first = hosts_of(c[0]);
  for (size_t i = 0; i + 1 < first.size(); ++i)
    EXPECT_NE((first[i] + 2) % 4, first[i + 1]) << "hand-off " << i << " crosses a slow diagonal";
  const Evaluator ev(s);
  EXPECT_LT(ev.iteration_time_s(c[0]), 0.5 * ev.iteration_time_s(start));
  EXPECT_LT(stage_order_cost(s, c[0]), stage_order_cost(s, start));
}

TEST(StageOrder, CandidatesPermuteTheStartsBlocksDistinctlyAndDeterministically) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Scenario s = small_sampled_cluster(seed);
    const Placement start = GreedyPlacer().place(s);
    const int block = s.only_job().par.dp * s.only_job().par.tp, p = s.only_job().par.pp;
    const std::vector<Placement> c = stage_order_candidates(s, start, 5);
    if (p < 2) {
      EXPECT_TRUE(c.empty()) << seed;
      continue;
    }
    ++checked;
    EXPECT_LE(c.size(), 5u);
    std::vector<std::vector<GpuSlot>> blocks;
    for (int b = 0; b < p; ++b)
      blocks.emplace_back(start.gpu_of_rank.begin() + b * block, start.gpu_of_rank.begin() + (b + 1) * block);
    std::vector<std::vector<int>> seen{hosts_of(start)};
    double previous = 0;
    for (const Placement& x : c) {
      ASSERT_EQ(x.gpu_of_rank.size(), start.gpu_of_rank.size());
      std::vector<std::vector<GpuSlot>> mine;
      for (int b = 0; b < p; ++b)
        mine.emplace_back(x.gpu_of_rank.begin() + b * block, x.gpu_of_rank.begin() + (b + 1) * block);
      std::vector<std::vector<GpuSlot>> a = blocks, b = mine;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      EXPECT_TRUE(a == b) << seed << ": a candidate is not a permutation of the start's blocks";
      EXPECT_EQ(std::count(seen.begin(), seen.end(), hosts_of(x)), 0) << seed << ": repeated or the start";
      seen.push_back(hosts_of(x));
      const double cost = stage_order_cost(s, x);
      EXPECT_GE(cost, previous * (1 - 1e-12)) << seed << ": not by proxy cost, lowest first";  // sums in another order
      previous = cost;
    }
    const std::vector<Placement> again = stage_order_candidates(s, start, 5);
    ASSERT_EQ(again.size(), c.size());
    for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(hosts_of(again[i]), hosts_of(c[i])) << seed;
  }
  EXPECT_GE(checked, 10);
}

TEST(StageOrder, FindsTheBruteForceBestOrderOfShortPipelines) {
  // On pipelines of at most 6 stages every order is enumerated: when some order beats the start's, the first
  // candidate has the least proxy cost of all (the search is a heuristic; on these sizes it must be exact).
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 200 && checked < 15; ++seed) {
    const Scenario s = small_sampled_cluster(seed);
    const int p = s.only_job().par.pp, block = s.only_job().par.dp * s.only_job().par.tp;
    if (p < 3 || p > 6) continue;
    const Placement start = GreedyPlacer().place(s);
    std::vector<int> order(p);
    std::iota(order.begin(), order.end(), 0);
    double best = -1;
    while (std::next_permutation(order.begin(), order.end())) {  // every order but the identity
      const Placement x = with_order(start, order, block);
      if (hosts_of(x) == hosts_of(start)) continue;  // blocks on the same hosts: the start itself
      const double cost = stage_order_cost(s, x);
      if (best < 0 || cost < best) best = cost;
    }
    const std::vector<Placement> c = stage_order_candidates(s, start, 1);
    if (best < 0) EXPECT_TRUE(c.empty()) << seed;
    if (best < 0 || best >= stage_order_cost(s, start)) continue;
    ++checked;
    ASSERT_EQ(c.size(), 1u) << seed;
    EXPECT_DOUBLE_EQ(stage_order_cost(s, c[0]), best) << seed << " (pp " << p << ")";
  }
  EXPECT_GE(checked, 8);
}

TEST(StageOrder, TheSearchEndsWithTheFastestReorderingOfItsAnnealedAnswerThenItsRings) {
  // Without a given start the search tries the stage reorderings on its annealed answer, then the TP rings'
  // re-chaining (tp_ring_order.hpp), then the replicas' order (replica_order.hpp); with greedy's placement given as the start (neither) the annealing is the
  // same, so the default answer is exactly that of the same steps on that one. Some scenario must gain, else the
  // end steps do nothing here.
  int compared = 0, gained = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Scenario s = small_sampled_cluster(seed);
    if (s.only_job().par.pp < 2) continue;
    SearchOptions plain;
    plain.max_evaluations = 300;
    SearchPlacer search(plain);
    const Placement reordered = search.place(s);
    if (search.stats().start_method != "greedy") continue;
    SearchOptions given = plain;
    given.start = GreedyPlacer().place(s);
    const Placement annealed = SearchPlacer(given).place(s);
    const Evaluator ev(s);
    const auto time_s = [&ev](const Placement& p) { return ev.iteration_time_s(p); };
    TimedPlacement best = fastest_stage_order(s, annealed, ev.iteration_time_s(annealed), kSearchStageOrders, time_s);
    // With the evaluator's lower bound (orders it rules out are not evaluated): the same answer.
    const TimedPlacement bounded =
        fastest_stage_order(s, annealed, ev.iteration_time_s(annealed), kSearchStageOrders, time_s, nullptr,
                            [&ev](const Placement& p) { return ev.time_lower_bound(p); });
    EXPECT_EQ(bounded.placement.gpu_of_rank, best.placement.gpu_of_rank) << seed;
    EXPECT_EQ(bounded.time_s, best.time_s) << seed;
    best = fastest_tp_ring_order(s, best.placement, best.time_s, time_s);
    best = fastest_replica_order(s, best.placement, best.time_s, time_s, ev.network());
    EXPECT_EQ(reordered.gpu_of_rank, best.placement.gpu_of_rank) << seed;
    EXPECT_LE(ev.iteration_time_s(reordered), ev.iteration_time_s(annealed)) << seed;
    ++compared;
    gained += ev.iteration_time_s(reordered) < ev.iteration_time_s(annealed);
  }
  EXPECT_GE(compared, 8);
  EXPECT_GT(gained, 0);
}

}  // namespace
}  // namespace hulk
