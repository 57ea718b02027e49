// The several-job sampler (hulk compare generated): deterministic, every draw a valid shared cluster.
#include <gtest/gtest.h>

#include <set>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/workload/memory_fit.hpp"

TEST(MultiJobSampler, SameSeedSameClusterAndJobs) {
  hulk::SamplerOptions opt;
  opt.max_total_gpus = 64;
  const hulk::Scenario a = hulk::sample_jobs_scenario(11, 3, opt), b = hulk::sample_jobs_scenario(11, 3, opt);
  EXPECT_EQ(hulk::scenario_to_json(a).dump(), hulk::scenario_to_json(b).dump());
  EXPECT_NE(hulk::scenario_to_json(a).dump(), hulk::scenario_to_json(hulk::sample_jobs_scenario(12, 3, opt)).dump());
}

TEST(MultiJobSampler, EveryDrawFitsTheClusterTogether) {
  hulk::SamplerOptions opt;
  opt.max_total_gpus = 64;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const int jobs = 2 + static_cast<int>(seed % 4);
    const hulk::Scenario s = hulk::sample_jobs_scenario(seed, jobs, opt);
    ASSERT_TRUE(hulk::names_jobs(s)) << seed;
    EXPECT_EQ(static_cast<int>(s.jobs.size()), jobs) << seed;
    EXPECT_LE(hulk::total_ranks(s), s.platform.total_gpus()) << seed;
    int misfit = -1;
    EXPECT_EQ(hulk::memory_fit_problem(s, misfit), "") << seed;
    std::set<std::string> names;
    for (const hulk::JobSpec& j : s.jobs) names.insert(j.name);
    EXPECT_EQ(names.size(), s.jobs.size());
    EXPECT_NO_THROW(hulk::validate_job(s)) << seed;  // every job valid on its own, and together
  }
}

TEST(MultiJobSampler, JobCountOutOfRangeIsAnInputError) {
  EXPECT_THROW(hulk::sample_jobs_scenario(1, 1), hulk::InputError);
  EXPECT_THROW(hulk::sample_jobs_scenario(1, 9), hulk::InputError);
}

TEST(MultiJobSampler, MoreJobsThanTheClustersGpusAreRefusedNotFewerJobsDrawn) {
  hulk::SamplerOptions opt;
  opt.min_total_gpus = opt.max_total_gpus = 5;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    try {
      const hulk::Scenario s = hulk::sample_jobs_scenario(seed, 6, opt);
      ADD_FAILURE() << "seed " << seed << ": " << s.jobs.size() << " jobs drawn on " << s.platform.total_gpus()
                    << " GPUs";
    } catch (const hulk::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("fewer than its 6 jobs"), std::string::npos) << e.what();
    }
  }
}

TEST(Sampler, GrowingTowardsTheMinimumNeverPassesTheCap) {
  for (int cap : {4, 5, 6, 7, 9, 12}) {
    hulk::SamplerOptions opt;
    opt.min_total_gpus = opt.max_total_gpus = cap;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      const int gpus = hulk::sample_scenario(seed, opt).platform.total_gpus();
      EXPECT_LE(gpus, cap) << "cap " << cap << ", seed " << seed;
      EXPECT_GT(2 * gpus, cap) << "cap " << cap << ", seed " << seed;  // grown while a doubling still fit
    }
  }
}
