// Score-guided host exchanges after the sampling decoder (gnn/polish.hpp). Torch-free.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "gnn/moves.hpp"
#include "gnn/polish.hpp"
#include "gnn_test_helpers.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/exhaustive_placer.hpp"

namespace hulk::gnn {
namespace {

using testing::grid_scenario;
using testing::random_scores;
using testing::stand_in_time_s;

SampledPlacement start_of(const Scenario& s, const RoleScores& sc, const PlacementCost& cost) {
  SampledPlacement st;
  st.placement = decode_placement(s, sc);
  st.cost = cost(st.placement);
  return st;
}

/** pp 2 on four single-GPU hosts in two regions; region 1's GPUs (hosts 2 and 3) are 4x slower. */
Scenario slow_second_region() {
  Scenario s = grid_scenario(2, 2, 1, Parallelism{1, 1, 2});
  for (int h = 2; h < 4; ++h) {
    s.platform.hosts[h].gpu.fp16_flops /= 4;
    s.platform.hosts[h].gpu.fp32_flops /= 4;
  }
  return s;
}

/** Scores for slow_second_region() that decode stage 0 on host 0 and stage 1 on host 2. */
RoleScores stage_split_scores() {
  RoleScores decoded;
  decoded.hosts = 4;
  decoded.roles = 3;
  decoded.values = {5, 0, 0, /**/ 0, 0, 5, /**/ 0, 5, 0, /**/ 0, 0, 5};
  return decoded;
}

TEST(Polish, ValidNeverWorseWithinBudgetAndDeterministic) {
  std::mt19937_64 rng(21);
  SamplerOptions o;
  o.max_total_gpus = 64;
  int improved = 0;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const RoleScores sc = random_scores(s, rng);
    int calls = 0;
    const PlacementCost cost = [&](const Placement& p) { return ++calls, stand_in_time_s(s, p); };
    const SampledPlacement start = start_of(s, sc, cost);
    calls = 0;
    const SampledPlacement got = polish_placement(s, sc, start, 12, cost);
    EXPECT_EQ(placement_violation(s, got.placement), "") << "seed " << seed;
    EXPECT_LE(got.cost, start.cost) << "seed " << seed;
    EXPECT_DOUBLE_EQ(got.cost, stand_in_time_s(s, got.placement));
    EXPECT_LE(calls, 12);
    EXPECT_EQ(calls, got.polish_evaluations);
    EXPECT_LE(got.polished, got.polish_evaluations);
    improved += got.cost < start.cost;
    const SampledPlacement again = polish_placement(s, sc, start, 12, cost);
    EXPECT_EQ(again.placement.gpu_of_rank, got.placement.gpu_of_rank);
    const SampledPlacement none = polish_placement(s, sc, start, 0, cost);
    EXPECT_EQ(none.placement.gpu_of_rank, start.placement.gpu_of_rank);
    EXPECT_EQ(none.polish_evaluations, 0);
  }
  EXPECT_GT(improved, 0);  // random scores decode to poor placements: some exchange must help somewhere
}

/** Every placement one host exchange away from p (valid ones only). */
std::vector<Placement> exchange_neighbours(const Scenario& s, const Placement& p) {
  std::vector<Placement> out;
  const int n = static_cast<int>(s.platform.hosts.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      Placement q = p;
      int ia = 0, ib = 0;
      bool fits = true;
      for (GpuSlot& g : q.gpu_of_rank) {
        if (g.host == a) g = {b, ib++};
        else if (g.host == b) g = {a, ia++};
      }
      fits = ib <= s.platform.hosts[b].gpus && ia <= s.platform.hosts[a].gpus;
      if (fits && placement_violation(s, q).empty()) out.push_back(q);
    }
  return out;
}

TEST(Polish, EndsWhereNoHostExchangeIsFasterBruteForce) {
  // With a budget above every pair, the descent stops only at a local optimum of host exchanges: checked against
  // every exchange of the answer, on tiny sampled clusters with random scores.
  std::mt19937_64 rng(4);
  SamplerOptions o;
  o.max_total_gpus = 16;
  int moved = 0;
  for (std::uint64_t seed = 100; seed < 130; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const PlacementCost cost = [&ev](const Placement& p) { return ev.iteration_time_s(p); };
    const RoleScores sc = random_scores(s, rng);
    const SampledPlacement start = start_of(s, sc, cost);
    const SampledPlacement got = polish_placement(s, sc, start, 100000, cost);
    moved += got.polished > 0;
    for (const Placement& q : exchange_neighbours(s, got.placement))
      EXPECT_GE(cost(q), got.cost) << "seed " << seed;
  }
  EXPECT_GT(moved, 0);
}

TEST(Polish, TheEvaluatorsBoundChangesNoAnswerOnlyTheCostCalls) {
  // The decoder's candidates and the exchanges with and without Evaluator::time_lower_bound: the same placements and
  // costs, bit for bit (a bounded-out candidate could not have been kept), and fewer evaluations in all.
  std::mt19937_64 rng(8);
  SamplerOptions o;
  o.max_total_gpus = 64;
  long calls_plain = 0, calls_bounded = 0;
  for (std::uint64_t seed = 200; seed < 224; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    long* counter = nullptr;
    const PlacementCost cost = [&](const Placement& p) { return ++*counter, ev.iteration_time_s(p); };
    const PlacementBound bound = [&ev](const Placement& p) { return ev.time_lower_bound(p); };
    const RoleScores sc = random_scores(s, rng);
    SamplingOptions so;
    so.candidates = 16;
    so.temperature = 1.0;
    counter = &calls_plain;
    const SampledPlacement plain = polish_placement(s, sc, decode_best_of_samples(s, sc, so, cost), 64, cost);
    counter = &calls_bounded;
    const SampledPlacement bounded =
        polish_placement(s, sc, decode_best_of_samples(s, sc, so, cost, bound), 64, cost, bound);
    EXPECT_EQ(plain.placement.gpu_of_rank, bounded.placement.gpu_of_rank) << "seed " << seed;
    EXPECT_EQ(plain.cost, bounded.cost) << "seed " << seed;
    EXPECT_EQ(plain.chosen, bounded.chosen) << "seed " << seed;
    EXPECT_EQ(plain.polished, bounded.polished) << "seed " << seed;
  }
  EXPECT_LT(calls_bounded, calls_plain);
}

TEST(Polish, TheScoresOrderTheExchanges) {
  // pp 2 on four single-GPU hosts in two regions, region 1's GPUs 4x slower; the decoded start puts stage 1 in
  // region 1. Scores that favour host 1 for stage 1 make (1, 2) the first exchange tried, and the optimum (both
  // stages in region 0, checked by brute force) is reached with one evaluation.
  const Scenario s = slow_second_region();
  const Evaluator ev(s);
  const PlacementCost cost = [&ev](const Placement& p) { return ev.iteration_time_s(p); };
  const RoleScores decoded = stage_split_scores();
  const SampledPlacement start = start_of(s, decoded, cost);
  ASSERT_EQ(start.placement.gpu_of_rank[1].host, 2);
  const double optimum = ev.iteration_time_s(ExhaustivePlacer().place(s));
  ASSERT_LT(optimum, start.cost * 0.99);
  RoleScores guide = decoded;
  guide.values[1 * 3 + 1] = 9;  // host 1: stage 1
  const SampledPlacement got = polish_placement(s, guide, start, 1, cost);
  EXPECT_NEAR(got.cost, optimum, 1e-9 * optimum);
  EXPECT_EQ(got.polish_evaluations, 1);
}

TEST(Polish, TopKTriesOnlyTheRankersFirstExchanges) {
  // The scenario of TheScoresOrderTheExchanges. Its start's exchanges, timed by the evaluator, give a poor ranking
  // (slowest first) and a good one (fastest first). With top_k, a step tries the ranking's first top_k exchanges
  // only: the poor ranking with top_k = its non-improving exchanges stops there, at the start, after exactly that
  // many evaluations; the good one with top_k = 1 takes the fastest exchange; without top_k the poor ranking is
  // tried to its end and finds a faster placement.
  const Scenario s = slow_second_region();
  const Evaluator ev(s);
  const PlacementCost cost = [&ev](const Placement& p) { return ev.iteration_time_s(p); };
  const RoleScores decoded = stage_split_scores();
  const SampledPlacement start = start_of(s, decoded, cost);
  std::vector<std::pair<double, std::pair<int, int>>> timed;
  for (const auto& [a, b] : candidate_exchanges(s, start.placement)) {
    Placement p = start.placement;
    ASSERT_TRUE(exchange_hosts(s, p, a, b));
    timed.push_back({cost(p), {a, b}});
  }
  std::sort(timed.begin(), timed.end());
  const auto not_faster = std::count_if(timed.begin(), timed.end(), [&](const auto& t) { return t.first >= start.cost; });
  ASSERT_GE(not_faster, 1);
  ASSERT_LT(timed.front().first, start.cost);  // some exchange is faster
  std::vector<std::pair<int, int>> fastest_first;
  for (const auto& t : timed) fastest_first.push_back(t.second);
  const std::vector<std::pair<int, int>> slowest_first(fastest_first.rbegin(), fastest_first.rend());
  const PairRanker poor = [&](const Placement&) { return slowest_first; };
  const PairRanker good = [&](const Placement&) { return fastest_first; };
  const int k = static_cast<int>(not_faster);
  const SampledPlacement stopped = polish_placement(s, decoded, start, 100, cost, {}, poor, k);
  EXPECT_EQ(stopped.placement.gpu_of_rank, start.placement.gpu_of_rank);
  EXPECT_EQ(stopped.polish_evaluations, k);
  const SampledPlacement found = polish_placement(s, decoded, start, 100, cost, {}, good, 1);
  EXPECT_LE(found.cost, timed.front().first);
  EXPECT_GE(found.polished, 1);
  const SampledPlacement whole = polish_placement(s, decoded, start, 100, cost, {}, poor, 0);
  EXPECT_LT(whole.cost, start.cost);
  EXPECT_GT(whole.polish_evaluations, k);
}

TEST(Polish, BudgetShrinksWithTheJob) {
  const Scenario s = grid_scenario(3, 3, 2, Parallelism{2, 1, 3});  // 6 ranks
  EXPECT_EQ(polish_budget(s, 128, 0), 128);
  EXPECT_EQ(polish_budget(s, 128, 60), 10);
  EXPECT_EQ(polish_budget(s, 128, 3), 1);
  EXPECT_EQ(polish_budget(s, 0, 60), 0);
}

}  // namespace
}  // namespace hulk::gnn
