// Host failures with several jobs: a failure restarts only the jobs with ranks on the failed host. Two jobs on hosts
// of their own (tensor-parallel inside one host each: they share no link) make the check exact: the job that was
// not hit keeps its time, and the job that was hit matches the one-job run of it alone under the same failure.
// Every run is a child process (simulate_with_events).
#include <gtest/gtest.h>

#include <limits>

#include <nlohmann/json.hpp>

#include "sim/engine/failure_run.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/** tp 2 inside one host, 10 iterations, a checkpoint after every third. */
hulk::JobSpec tp_job(const std::string& name, int micro_batches) {
  hulk::JobSpec j = small_job(1, 2, 1, 4, micro_batches);
  j.name = name;
  j.iterations = 10;
  j.checkpoint = {3, 0.25};
  return j;
}

/** One region of `hosts` hosts of 2 GPUs. */
hulk::PlatformSpec hosts_of_two(int hosts) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 1e13;
  return grid_platform(1, hosts, 2, 1.25e9, 50e-6, 1.25e9, 0, gpu);
}

/** Job a on host 0, job b (4 micro-batches against a's 3: their iterations end at different times) on the last
 *  host; with three hosts, host 1 is idle (a spare for a; with two, a waits for its host). A failure of host 0
 *  half-way through a's run. */
void expect_only_the_job_hit_changes(int hosts, double down_for) {
  const hulk::PlatformSpec platform = hosts_of_two(hosts);
  const hulk::JobSpec a = tp_job("a", 3), b = tp_job("b", 4);
  // a alone: on the platform without b's host, whose GPUs are no spare for a.
  hulk::Scenario both = scenario(platform, a), alone = scenario(hosts_of_two(hosts - 1), a);
  both.jobs = {a, b};
  hulk::Placement both_on, a_on;
  a_on.gpu_of_rank = {{0, 0}, {0, 1}};
  both_on.gpu_of_rank = {{0, 0}, {0, 1}, {hosts - 1, 0}, {hosts - 1, 1}};
  const nlohmann::json quiet = hulk::simulate_with_events(both, both_on, quiet_options());
  const double a_wall = quiet["jobs"][0]["total_time_s"].get<double>();
  const hulk::EventSpec failure = host_failure(0, 0.55 * a_wall, 1.5, down_for);
  both.events = alone.events = {failure};
  const nlohmann::json r = hulk::simulate_with_events(both, both_on, quiet_options());
  const nlohmann::json a_alone = hulk::simulate_with_events(alone, a_on, quiet_options());
  const double b_quiet = quiet["jobs"][1]["total_time_s"].get<double>();
  EXPECT_NEAR(r["jobs"][1]["total_time_s"].get<double>() / b_quiet, 1.0, 1e-9);
  EXPECT_EQ(r["jobs"][1]["events"]["attempts"].size(), 1u);
  EXPECT_EQ(r["jobs"][1]["events"]["redone_iterations"].get<int>(), 0);
  const double a_failed = a_alone["events"]["wall_s"].get<double>();
  EXPECT_GT(a_failed, a_wall + 1.5);  // the failure costs job a its restart at least
  EXPECT_NEAR(r["jobs"][0]["total_time_s"].get<double>() / a_failed, 1.0, 1e-9);
  EXPECT_EQ(r["jobs"][0]["events"]["attempts"].size(), 2u);
  EXPECT_EQ(r["jobs"][0]["events"]["redone_iterations"], a_alone["events"]["redone_iterations"]);
  EXPECT_EQ(r["jobs"][0]["events"]["attempts"][1]["first_iteration"],
            a_alone["events"]["attempts"][1]["first_iteration"]);
  const double objective = (r["jobs"][0]["iteration_time_s"].get<double>() +
                            r["jobs"][1]["iteration_time_s"].get<double>()) / 2;
  EXPECT_NEAR(r["objective_s"].get<double>() / objective, 1.0, 1e-12);
}

TEST(JobFailures, AFailureOnOneJobsHostMovesItToTheSpareAndLeavesTheOtherJobAlone) {
  expect_only_the_job_hit_changes(3, kInf);
}

TEST(JobFailures, AJobWaitingForItsHostLeavesTheOtherJobAlone) { expect_only_the_job_hit_changes(2, 4.0); }

TEST(JobFailures, AFailureOnAHostOfBothJobsRestartsBoth) {
  // Both jobs on host 0's two GPUs (tp 1 each) and a spare host: both restart on it, each from its own checkpoint.
  hulk::JobSpec a = small_job(1, 1, 1, 4, 3), b = small_job(1, 1, 1, 4, 4);
  a.name = "a";
  b.name = "b";
  a.iterations = b.iterations = 6;
  a.checkpoint = b.checkpoint = {2, 0.0};
  hulk::Scenario both = scenario(hosts_of_two(2), a);
  both.jobs = {a, b};
  hulk::Placement pl;
  pl.gpu_of_rank = {{0, 0}, {0, 1}};
  const double quiet = hulk::simulate_with_events(both, pl, quiet_options())["events"]["wall_s"].get<double>();
  both.events = {host_failure(0, 0.5 * quiet, 1.0, kInf)};
  const nlohmann::json r = hulk::simulate_with_events(both, pl, quiet_options());
  for (int j = 0; j < 2; ++j) {
    EXPECT_EQ(r["jobs"][j]["events"]["attempts"].size(), 2u) << j;
    EXPECT_GT(r["jobs"][j]["total_time_s"].get<double>(), quiet * 0.5 + 1.0) << j;
  }
  EXPECT_EQ(r["placement_after_failures"]["jobs"][0]["ranks"][0]["host"], "r0h1");
}

}  // namespace
