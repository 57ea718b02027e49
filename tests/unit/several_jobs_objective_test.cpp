// What the search and greedy do with several jobs where one job was the only case once: the robust objective and a
// given objective_of over all jobs, and greedy keeping round-robin's placement when the jobs' objective finds it
// faster.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/robust_evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/jobs_placement.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

/** Two jobs on four regions, with a `robust:` distribution of 8 states. */
Scenario two_jobs_four_regions() {
  Scenario s = testing::jobs_scenario(testing::make_platform({2, 2, 2, 2}, 2, testing::a100()),
                                      {testing::make_job(2, 2, 1, 4), testing::make_job(2, 1, 2, 4)});
  s.robust = {0.3, 0.1, 8, 11};
  return s;
}

TEST(SeveralJobsObjective, RobustObjectiveIsTheMeanOfTheJobsObjectiveOverTheStates) {
  const Scenario s = two_jobs_four_regions();
  const Placement p = GreedyPlacer().place(s);
  double sum = 0;
  for (const Scenario& state : robust_states(s, s.robust, s.robust.seed)) sum += JobsEvaluator(state).objective_s(p);
  EXPECT_DOUBLE_EQ(RobustEvaluator(s).iteration_time_s(p), sum / 8);
}

TEST(SeveralJobsObjective, RobustSearchPlacesSeveralJobsForTheRobustObjective) {
  const Scenario s = two_jobs_four_regions();
  SearchOptions o;
  o.max_evaluations = 600;
  o.robust = true;
  SearchPlacer search(o);
  const Placement p = search.place(s);
  EXPECT_EQ(placement_problem(s, p, true), "");
  EXPECT_DOUBLE_EQ(search.stats().best_time_s, RobustEvaluator(s).iteration_time_s(p));
  EXPECT_LE(search.stats().best_time_s, search.stats().start_time_s);
}

TEST(SeveralJobsObjective, RobustSearchStillRefusesDiLoCo) {
  Scenario s =
      testing::make_scenario(testing::make_platform({2, 2}, 2, testing::a100()), testing::make_job(2, 1, 1, 4));
  s.robust = {0.3, 0.1, 4, 11};
  s.only_job().sync.algorithm = "diloco";
  SearchOptions o;
  o.robust = true;
  EXPECT_THROW(SearchPlacer(o).place(s), InputError);
}

TEST(SeveralJobsObjective, GivenObjectiveIsOfTheJobsObjective) {
  const Scenario s = two_jobs_four_regions();
  SearchOptions o;
  o.max_evaluations = 300;
  o.objective_of = [](const std::vector<int>&, double t) { return 3.0 * t; };
  SearchPlacer search(o);
  const Placement p = search.place(s);
  EXPECT_EQ(placement_problem(s, p, true), "");
  EXPECT_DOUBLE_EQ(search.stats().best_time_s, 3.0 * JobsEvaluator(s).objective_s(p));
}

TEST(SeveralJobsObjective, GreedyKeepsRoundRobinsPlacementWhereItIsFaster) {
  // Four one-GPU hosts, then a four-GPU host. Greedy places the larger job first, on the four-GPU host (its
  // all-reduce inside one host), which leaves the tensor-parallel job, weighted 100, a ring across two hosts' NICs;
  // round-robin's one list of ranks gives the larger job the one-GPU hosts and the ring the four-GPU host.
  PlatformSpec platform = testing::make_platform({5}, 1, testing::a100());
  platform.hosts[4].gpus = 4;
  JobSpec ring = testing::make_job(1, 2, 1, 4);
  ring.weight = 100;
  const Scenario s = testing::jobs_scenario(platform, {testing::make_job(4, 1, 1, 4), ring});
  const JobsEvaluator ev(s);
  const Placement first_fit = greedy_jobs_first_fit(s);
  const double first_fit_s = ev.objective_s(first_fit);
  const std::optional<Placement> round_robin = faster_round_robin_jobs(s, ev, first_fit_s);
  ASSERT_TRUE(round_robin.has_value());
  EXPECT_EQ(round_robin->gpu_of_rank, round_robin_placement(s).gpu_of_rank);
  EXPECT_LT(ev.objective_s(*round_robin), first_fit_s);
  EXPECT_EQ(GreedyPlacer().place(s).gpu_of_rank, round_robin->gpu_of_rank);
  // Where greedy's first fit is the faster, it stays.
  EXPECT_FALSE(faster_round_robin_jobs(s, ev, ev.objective_s(*round_robin)).has_value());
}

}  // namespace
}  // namespace hulk
