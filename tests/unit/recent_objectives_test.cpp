// The annealing's memory of recent proposals (sim/place/annealing.hpp, RecentObjectives): a repeat is answered
// without the objective, the budget counts it, and the run keeps the objective of what it returns.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "sim/place/annealing.hpp"

namespace hulk {
namespace {

TEST(RecentObjectives, FindsWhatItHoldsAndForgetsTheOldestOnceFull) {
  RecentObjectives recent(std::size_t{1} << 24);  // so many ranks that the ring has its least size, 16
  const auto hosts = [](int i) { return std::vector<int>{i, i + 1, i + 2}; };
  for (int i = 0; i < 17; ++i) recent.add(hosts(i), RecentObjectives::hash_of(hosts(i)), 0.5 * i);
  double t = -1;
  EXPECT_FALSE(recent.find(hosts(0), RecentObjectives::hash_of(hosts(0)), t)) << "the oldest should be replaced";
  for (int i = 1; i < 17; ++i) {
    ASSERT_TRUE(recent.find(hosts(i), RecentObjectives::hash_of(hosts(i)), t)) << i;
    EXPECT_EQ(t, 0.5 * i);
  }
  EXPECT_FALSE(recent.find({1, 2}, RecentObjectives::hash_of({1, 2}), t));
  // A hash that matches but other hosts: not the same proposal.
  EXPECT_FALSE(recent.find({7, 7, 7}, RecentObjectives::hash_of(hosts(5)), t));
  EXPECT_NE(RecentObjectives::hash_of({1, 2}), RecentObjectives::hash_of({2, 1}));
}

/** Two ranks over three hosts: few distinct proposals, so the annealing repeats itself often. */
struct TinyState {
  std::vector<GpuSlot> gpu;
  std::vector<int> host;
  std::vector<GpuSlot> free;
};

TEST(RecentObjectives, AnnealingCallsTheObjectiveOnlyForNewProposalsAndKeepsItsBudget) {
  TinyState cur;
  cur.host = {0, 1};
  cur.gpu = {{0, 0}, {1, 0}};
  std::mt19937_64 rng(3), moves(4);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto objective_of = [](const std::vector<int>& h) { return 1.0 + h[0] + 2.0 * h[1]; };
  int calls = 0;
  std::map<std::vector<int>, double> seen;
  SearchOptions options;
  options.max_evaluations = 200;
  SearchStats stats;
  double best_t = 0;
  const std::vector<GpuSlot> best = anneal(
      cur, objective_of(cur.host), options, std::chrono::steady_clock::now(), rng, unit,
      [&](TinyState& c) {
        c.host[moves() % 2] = static_cast<int>(moves() % 3);
        c.gpu = {{c.host[0], 0}, {c.host[1], 0}};
        return true;
      },
      [&](const std::vector<int>& h) {
        ++calls;
        seen[h] = objective_of(h);
        return objective_of(h);
      },
      [](double, const TinyState&) {}, stats, best_t);
  EXPECT_EQ(stats.evaluations, 200);
  EXPECT_EQ(calls + stats.repeats, stats.evaluations);
  EXPECT_LE(calls, 9) << "at most the 9 distinct proposals should reach the objective";
  EXPECT_GT(stats.repeats, 0);
  EXPECT_EQ(best_t, objective_of({best[0].host, best[1].host}));
  EXPECT_EQ(best_t, 1.0) << "the best of 9 proposals, one move from the start, missed in 200 steps";
}

}  // namespace
}  // namespace hulk
