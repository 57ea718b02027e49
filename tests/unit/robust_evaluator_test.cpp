// The robust objective's network states (sim/evaluate/robust_evaluator): deterministic for a seed, each pair
// degraded with the stated probability, and the mean estimate over them.
#include <gtest/gtest.h>

#include "placement_test_platforms.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/robust_evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;

Scenario four_regions() {
  Scenario s = make_scenario(make_platform({2, 2, 2, 2}, 2, a100()), make_job(4, 2, 2, 8));
  s.robust = {0.3, 0.1, 64, 11};
  return s;
}

TEST(RobustEvaluator, StatesAreDeterministicAndDegradeAboutTheStatedShare) {
  const Scenario s = four_regions();
  const auto a = robust_states(s, s.robust, 11);
  const auto b = robust_states(s, s.robust, 11);
  ASSERT_EQ(a.size(), 64u);
  int degraded = 0, pairs = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    for (int x = 0; x < 4; ++x)
      for (int y = x + 1; y < 4; ++y) {
        EXPECT_EQ(a[k].platform.wan[x][y].bandwidth_Bps, b[k].platform.wan[x][y].bandwidth_Bps);
        EXPECT_EQ(a[k].platform.wan[x][y].bandwidth_Bps, a[k].platform.wan[y][x].bandwidth_Bps);
        const double ratio = a[k].platform.wan[x][y].bandwidth_Bps / s.platform.wan[x][y].bandwidth_Bps;
        EXPECT_TRUE(ratio == 1.0 || ratio == 0.1) << ratio;
        degraded += ratio < 1;
        ++pairs;
      }
  // 384 draws at p = 0.3: 115 expected, sd 9; a binomial outside [70, 160] is a broken sampler.
  EXPECT_GT(degraded, 70);
  EXPECT_LT(degraded, 160);
}

TEST(RobustEvaluator, MeanOfTheStatesEstimates) {
  const Scenario s = four_regions();
  const RobustEvaluator robust(s);
  const Placement p = GreedyPlacer().place(s);
  double sum = 0;
  for (const Scenario& state : robust_states(s, s.robust, s.robust.seed)) sum += Evaluator(state).iteration_time_s(p);
  EXPECT_DOUBLE_EQ(robust.iteration_time_s(p), sum / 64);
  // Degraded pairs never make a placement faster.
  EXPECT_GE(robust.iteration_time_s(p), Evaluator(s).iteration_time_s(p));
}

TEST(RobustEvaluator, NeedsTheDistribution) {
  Scenario s = four_regions();
  s.robust.samples = 0;
  EXPECT_THROW(RobustEvaluator{s}, InputError);
}

TEST(RobustEvaluator, RobustSearchMinimisesTheRobustObjective) {
  Scenario s = four_regions();
  s.robust.samples = 8;
  SearchOptions o;
  o.max_evaluations = 1500;
  o.robust = true;
  SearchPlacer robust(o);
  const Placement p = robust.place(s);
  const RobustEvaluator objective(s);
  // Its stats are on the robust objective, and it is never worse than where it started.
  EXPECT_DOUBLE_EQ(robust.stats().best_time_s, objective.iteration_time_s(p));
  EXPECT_LE(robust.stats().best_time_s, robust.stats().start_time_s);
  if (robust.stats().start_method == "greedy")
    EXPECT_DOUBLE_EQ(robust.stats().start_time_s, objective.iteration_time_s(GreedyPlacer().place(s)));
}

}  // namespace
}  // namespace hulk
