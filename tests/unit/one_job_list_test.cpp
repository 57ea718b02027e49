// One job is the list of one: a scenario written with `jobs:` and a single job is placed by every method exactly as
// the same job written with `job:` (the list's rules for several jobs are for more than one job), and the features
// a one-job scenario has (the robust search) work for it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/core/jobs.hpp"
#include "sim/place/exhaustive_placer.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/scenario/scenario.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;
using testing::v100;

/** The scenario as the loader reads it from `jobs:` with its one job (named, listed). */
Scenario listed(Scenario s) {
  s.only_job().name = "only";
  s.jobs_listed = true;
  return s;
}

/** Jobs that leave GPUs free on platforms of several hosts: where a rule for several jobs (the joint annealing of
 *  search) would differ from the one-job rule. */
std::vector<Scenario> one_job_instances() {
  std::vector<Scenario> out;
  out.push_back(make_scenario(make_platform({2, 2}, 4, a100()), make_job(2, 2, 1, 4), 3));
  PlatformSpec mixed = make_platform({1, 2, 1}, 2, a100());
  mixed.hosts[1].gpu = v100();
  out.push_back(make_scenario(mixed, make_job(1, 1, 3, 4), 11));
  out.push_back(make_scenario(make_platform({3, 1}, 2, v100()), make_job(2, 1, 2, 4), 5));
  return out;
}

TEST(OneJobList, EveryMethodPlacesTheListOfOneAsTheJob) {
  for (const Scenario& s : one_job_instances()) {
    const Scenario l = listed(s);
    ASSERT_TRUE(names_jobs(l));
    EXPECT_EQ(round_robin_placement(l).gpu_of_rank, round_robin_placement(s).gpu_of_rank) << "round-robin";
    EXPECT_EQ(RandomPlacer().place(l).gpu_of_rank, RandomPlacer().place(s).gpu_of_rank) << "random";
    EXPECT_EQ(GreedyPlacer().place(l).gpu_of_rank, GreedyPlacer().place(s).gpu_of_rank) << "greedy";
    SearchOptions o;
    o.max_evaluations = 300;
    EXPECT_EQ(SearchPlacer(o).place(l).gpu_of_rank, SearchPlacer(o).place(s).gpu_of_rank) << "search";
  }
}

TEST(OneJobList, ExhaustivePlacesTheListOfOneAsTheJob) {
  const Scenario s = make_scenario(make_platform({1, 1, 1}, 2, a100()), make_job(2, 1, 2, 4), 2);
  EXPECT_EQ(ExhaustivePlacer().place(listed(s)).gpu_of_rank, ExhaustivePlacer().place(s).gpu_of_rank);
}

// The robust objective is one job's: a list of one has it (the several-job search refuses it).
TEST(OneJobList, RobustSearchPlacesTheListOfOne) {
  Scenario s = load_scenario(std::string(HULK_SOURCE_DIR) + "/scenarios/examples/robust.yaml");
  s.robust.samples = 4;  // the answer's equality, not its quality, is under test
  SearchOptions o;
  o.robust = true;
  o.max_evaluations = 200;
  const Placement alone = SearchPlacer(o).place(s);
  EXPECT_EQ(SearchPlacer(o).place(listed(s)).gpu_of_rank, alone.gpu_of_rank);
}

}  // namespace
}  // namespace hulk
