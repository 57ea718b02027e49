// Several jobs in one simulation: sharing against the alpha-beta closed form, independence where nothing is shared,
// a job that ends early, and one job listed under `jobs:` against the same job under `job:`.
#include <gtest/gtest.h>

#include <limits>

#include <nlohmann/json.hpp>

#include "sim/core/jobs.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/lab/labelling.hpp"
#include "sim/workload/placement_check.hpp"
#include "sim/place/placer.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {
constexpr double kNicBps = 1.25e9;  // 10 Gbit/s
constexpr double kNicLat = 50e-6;
constexpr double kWanBps = 1.25e8;  // 1 Gbit/s
constexpr double kWanLat = 20e-3;

hulk::JobSpec named(hulk::JobSpec j, const std::string& name, int iterations = 1) {
  j.name = name;
  j.iterations = iterations;
  return j;
}

/** A scenario of several jobs on platform p. */
hulk::Scenario jobs_scenario(const hulk::PlatformSpec& p, const std::vector<hulk::JobSpec>& jobs) {
  hulk::Scenario s = scenario(p, jobs.front());
  s.jobs = jobs;
  return s;
}

hulk::Placement on_hosts(std::initializer_list<int> hosts) {
  hulk::Placement p;
  for (int h : hosts) p.gpu_of_rank.push_back({h, 0});
  return p;
}

nlohmann::json run(const hulk::Scenario& s, const hulk::Placement& p) {
  hulk::SimOptions o;
  o.record_events = false;
  o.record_spans = false;
  return hulk::simulate_isolated(s, p, o);
}

double job_time(const nlohmann::json& result, int j) { return result["jobs"][j]["iteration_time_s"].get<double>(); }
}  // namespace

// Two DP rings of 2 ranks, each between region 0 and region 1: alone a ring step takes a + (S/2)/B; together both
// rings' chunks cross the one WAN pair link in each direction at once, B/2 each (fair sharing).
TEST(MultiJob, TwoDpJobsOnOneWanLinkShareItFairly) {
  const hulk::PlatformSpec p = grid_platform(2, 2, 1, kNicBps, kNicLat, kWanBps, kWanLat);
  const hulk::JobSpec dp = small_job(2, 1, 1, 2, 1);
  const hulk::Scenario both = jobs_scenario(p, {named(dp, "a"), named(dp, "b")});
  // Hosts: 0 = r0h0, 1 = r0h1, 2 = r1h0, 3 = r1h1.
  const nlohmann::json together = run(both, on_hosts({0, 2, 1, 3}));
  const nlohmann::json alone = run(scenario(p, dp), on_hosts({0, 2}));
  const double S = hulk::compute_job_cost(dp).stages[0].dp_grad_bytes;
  const double a = 2 * kNicLat + kWanLat;  // NIC up, WAN, NIC down
  const double alone_expected = 2 * a + 2 * (S / 2) / kWanBps;
  const double shared_expected = 2 * a + 2 * (S / 2) / (kWanBps / 2);
  EXPECT_NEAR(alone["iteration_time_s"].get<double>() / alone_expected, 1.0, 0.01);
  for (int j = 0; j < 2; ++j)
    EXPECT_NEAR(job_time(together, j) / shared_expected, 1.0, 0.01) << "job " << j << ": " << job_time(together, j)
                                                                    << " vs " << shared_expected;
  EXPECT_NEAR(together["objective_s"].get<double>() / shared_expected, 1.0, 0.01);
  EXPECT_EQ(together["gpus_used"].get<int>(), 4);
  EXPECT_EQ(together["jobs"][1]["name"], "b");
}

/** Two jobs on disjoint regions whose routes share no link: "pipe" on regions 0 and 1, "ring" on regions 2 and 3
 *  (region r = hosts 2r, 2r+1), with their placements. */
struct DisjointJobs {
  hulk::Scenario both;
  hulk::Placement pipe_at, ring_at;
};

DisjointJobs disjoint_jobs() {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 100e12;  // compute matters, so pipelines and all-reduces interleave
  const hulk::PlatformSpec p = grid_platform(4, 2, 2, kNicBps, kNicLat, kWanBps, kWanLat, gpu);
  const hulk::JobSpec pipe = named(small_job(2, 1, 2, 4, 4), "pipe", 2);
  hulk::JobSpec ring = named(small_job(2, 2, 1, 2, 2), "ring", 3);
  ring.utilisation = 0.5;  // a second job at another speed on the same kind of GPU
  DisjointJobs d{jobs_scenario(p, {pipe, ring}), on_hosts({0, 2, 1, 3}), {}};
  d.ring_at.gpu_of_rank = {{4, 0}, {4, 1}, {6, 0}, {6, 1}};
  return d;
}

// Jobs on disjoint regions whose routes share no link: each takes the time it takes alone.
TEST(MultiJob, JobsSharingNoLinkRunAsIfAlone) {
  const auto [both, pipe_at, ring_at] = disjoint_jobs();
  const nlohmann::json together = run(both, hulk::concat_placements({pipe_at, ring_at}));
  const nlohmann::json pipe_alone = run(hulk::job_view(both, 0), pipe_at);
  const nlohmann::json ring_alone = run(hulk::job_view(both, 1), ring_at);
  // SimGrid advances all activities together, so the remaining work of each is updated at the other job's events
  // too: equal up to rounding, not bit for bit.
  EXPECT_NEAR(job_time(together, 0) / pipe_alone["iteration_time_s"].get<double>(), 1.0, 1e-9);
  EXPECT_NEAR(job_time(together, 1) / ring_alone["iteration_time_s"].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(together["jobs"][0]["messages"], pipe_alone["messages"]);
  EXPECT_EQ(together["jobs"][1]["bytes"], ring_alone["bytes"]);
  const double makespan = std::max(pipe_alone["total_time_s"].get<double>(), ring_alone["total_time_s"].get<double>());
  EXPECT_NEAR(together["makespan_s"].get<double>() / makespan, 1.0, 1e-9);
}

// A job that has run its iterations stops sending: the other one's later iterations run at the speed alone.
TEST(MultiJob, AJobThatEndsEarlyFreesTheLink) {
  const hulk::PlatformSpec p = grid_platform(2, 2, 1, kNicBps, kNicLat, kWanBps, kWanLat);
  const hulk::JobSpec dp = small_job(2, 1, 1, 2, 1);
  const hulk::Scenario both = jobs_scenario(p, {named(dp, "short", 1), named(dp, "long", 3)});
  const nlohmann::json together = run(both, on_hosts({0, 2, 1, 3}));
  const double S = hulk::compute_job_cost(dp).stages[0].dp_grad_bytes;
  const double a = 2 * kNicLat + kWanLat;
  const double alone = 2 * a + S / kWanBps, shared = 2 * a + 2 * S / kWanBps;
  EXPECT_NEAR(together["jobs"][0]["total_time_s"].get<double>() / shared, 1.0, 0.01);
  EXPECT_NEAR(together["jobs"][1]["total_time_s"].get<double>() / (shared + 2 * alone), 1.0, 0.01);
  EXPECT_NEAR(together["makespan_s"].get<double>() / (shared + 2 * alone), 1.0, 0.01);
  // Weights: objective = (1 x t_short + 1 x t_long) / 2 with the per-iteration means.
  EXPECT_NEAR(together["objective_s"].get<double>(), (job_time(together, 0) + job_time(together, 1)) / 2, 1e-15);
}

// One job under `jobs:` simulates exactly as the same job under `job:`.
TEST(MultiJob, OneListedJobEqualsTheSameJobAlone) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 100e12;
  const hulk::PlatformSpec p = grid_platform(2, 2, 2, kNicBps, kNicLat, kWanBps, kWanLat, gpu);
  const hulk::JobSpec job = named(small_job(2, 2, 2, 4, 4), "only", 2);
  const hulk::Placement at = hulk::round_robin_placement(scenario(p, job));
  const nlohmann::json listed = run(jobs_scenario(p, {job}), at);
  const nlohmann::json alone = run(scenario(p, job), at);
  EXPECT_EQ(listed["objective_s"], alone["iteration_time_s"]);
  EXPECT_EQ(listed["jobs"][0]["iteration_time_s"], alone["iteration_time_s"]);
  EXPECT_EQ(listed["jobs"][0]["comm_s"], alone["comm_s"]);
  EXPECT_EQ(listed["jobs"][0]["messages"], alone["messages"]);
}

// A placement that gives one GPU to two jobs is refused before anything runs.
TEST(MultiJob, AGpuGivenToTwoJobsIsAnInputError) {
  const hulk::PlatformSpec p = grid_platform(2, 2, 1, kNicBps, kNicLat, kWanBps, kWanLat);
  const hulk::JobSpec dp = small_job(2, 1, 1, 2, 1);
  const hulk::Scenario both = jobs_scenario(p, {named(dp, "a"), named(dp, "b")});
  try {
    hulk::simulate(both, on_hosts({0, 2, 2, 3}));
    FAIL() << "expected an InputError";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("job 'b'"), std::string::npos) << e.what();
  }
}

// gen-data --jobs: a sample is one job of a shared cluster on the GPUs the joint search left it, labelled validly.
TEST(MultiJob, SharedClusterSampleIsOneJobOnItsShare) {
  hulk::LabelOptions options;
  options.budget = 300;
  options.max_gpus = 32;
  options.jobs = 3;
  const hulk::LabelledSample a = hulk::make_labelled_sample(42, options);
  EXPECT_FALSE(hulk::names_jobs(a.scenario));
  EXPECT_NE(a.scenario.name.find("sampled-jobs-42/job"), std::string::npos) << a.scenario.name;
  EXPECT_EQ(hulk::placement_problem(a.scenario, a.label, true), "");
  EXPECT_EQ(a.times_s.count("greedy"), 1u);
  EXPECT_EQ(a.times_s.count("search"), 1u);
  const hulk::LabelledSample b = hulk::make_labelled_sample(42, options);  // deterministic
  EXPECT_EQ(a.label.gpu_of_rank, b.label.gpu_of_rank);
  EXPECT_EQ(a.scenario.platform.total_gpus(), b.scenario.platform.total_gpus());
}

// Events act on the hosts and links they name, whichever job runs there: a straggler on a host of one job, or a
// slower WAN between that job's regions, slows that job and leaves the other (sharing no link) at its time.
TEST(MultiJob, EventsSlowOnlyTheJobOnTheirHostsAndLinks) {
  const auto [quiet, pipe_at, ring_at] = disjoint_jobs();
  const hulk::Placement at = hulk::concat_placements({pipe_at, ring_at});
  const nlohmann::json base = run(quiet, at);
  hulk::EventSpec straggler;
  straggler.kind = hulk::EventSpec::Kind::host_speed;
  straggler.target.kind = hulk::EventTarget::Kind::host;
  straggler.target.host = 0;
  straggler.duration_s = std::numeric_limits<double>::infinity();
  straggler.speed_factor = 0.01;  // the jobs' compute is a small share of their time: a hundredfold slower
  straggler.origin = "events[0]";
  hulk::EventSpec wan;
  wan.target.region_a = 0;
  wan.target.region_b = 1;
  wan.duration_s = std::numeric_limits<double>::infinity();
  wan.bandwidth_factor = 0.1;
  wan.origin = "events[0]";
  for (const hulk::EventSpec& e : {straggler, wan}) {
    hulk::Scenario s = quiet;
    s.events = {e};
    const nlohmann::json slowed = run(s, at);
    EXPECT_GT(job_time(slowed, 0), 1.01 * job_time(base, 0)) << "pipe, " << static_cast<int>(e.kind);
    EXPECT_NEAR(job_time(slowed, 1) / job_time(base, 1), 1.0, 1e-9) << "ring, " << static_cast<int>(e.kind);
  }
}
