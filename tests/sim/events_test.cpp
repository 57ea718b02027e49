// Scenario events in SimGrid: a link change for the whole run against the same scenario with the changed
// link, a straggler on a pipeline-bound job against the pipeline closed form, and a host failure with checkpoints
// against the iterations it must redo plus the restart time. Every run is a child process (simulate_with_events).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "sim/core/errors.hpp"
#include "sim/engine/failure_run.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double wall_s(const hulk::Scenario& s, const hulk::Placement& p) {
  return hulk::simulate_with_events(s, p, quiet_options()).at("events").at("wall_s").get<double>();
}

hulk::EventSpec wan_event(int a, int b, double factor, double at, double duration) {
  hulk::EventSpec e;
  e.kind = hulk::EventSpec::Kind::link_change;
  e.target.kind = hulk::EventTarget::Kind::wan_pair;
  e.target.region_a = a;
  e.target.region_b = b;
  e.bandwidth_factor = factor;
  e.at_s = at;
  e.duration_s = duration;
  e.origin = "events[0]";
  return e;
}

/** dp 4 across two regions (two hosts each, one GPU per host): the all-reduce crosses the WAN. */
hulk::Scenario dp_across_wan(double wan_Bps, hulk::WanCapacity capacity) {
  hulk::PlatformSpec p = grid_platform(2, 2, 1, 1.25e9, 50e-6, wan_Bps, 20e-3);
  p.wan_capacity = capacity;
  hulk::JobSpec j = small_job(4, 1, 1, 4, 1);
  j.iterations = 3;
  return scenario(p, j);
}

hulk::Placement one_per_host(int hosts) {
  hulk::Placement pl;
  for (int h = 0; h < hosts; ++h) pl.gpu_of_rank.push_back({h, 0});
  return pl;
}

void expect_half_wan_equals_half_bandwidth(hulk::WanCapacity capacity) {
  const hulk::Placement pl = one_per_host(4);
  hulk::Scenario with_event = dp_across_wan(1.25e8, capacity);
  with_event.events = {wan_event(0, 1, 0.5, 0, kInf)};
  const double halved = wall_s(dp_across_wan(0.625e8, capacity), pl);
  const double evented = wall_s(with_event, pl);
  EXPECT_NEAR(evented / halved, 1.0, 1e-3) << evented << " vs " << halved;
  EXPECT_GT(halved, wall_s(dp_across_wan(1.25e8, capacity), pl) * 1.2);  // the WAN matters in this job
}

TEST(Events, HalfWanForTheWholeRunEqualsHalfBandwidthPairCapacity) {
  expect_half_wan_equals_half_bandwidth(hulk::WanCapacity::pair);
}

TEST(Events, HalfWanForTheWholeRunEqualsHalfBandwidthHostCapacity) {
  expect_half_wan_equals_half_bandwidth(hulk::WanCapacity::host);
}

TEST(Events, HostNicEventEqualsSlowerNic) {
  const hulk::Placement pl = one_per_host(4);
  hulk::Scenario base = dp_across_wan(1.25e10, hulk::WanCapacity::pair);  // NICs are the bottleneck
  hulk::Scenario slow = base;
  slow.platform.hosts[2].host_link.bandwidth_Bps = 1e8;
  hulk::Scenario evented = base;
  hulk::EventSpec e;
  e.kind = hulk::EventSpec::Kind::link_change;
  e.target.kind = hulk::EventTarget::Kind::host_link;
  e.target.host = 2;
  e.bandwidth_Bps = 1e8;
  e.duration_s = kInf;
  evented.events = {e};
  EXPECT_NEAR(wall_s(evented, pl) / wall_s(slow, pl), 1.0, 1e-3);
}

TEST(Events, LinkDownDelaysTrafficByItsDuration) {
  // The WAN goes down at 0 for D seconds: nothing crosses it until D, then the run goes on as if started at D
  // (the first iteration's compute is negligible, so all of it waits).
  const hulk::Placement pl = one_per_host(4);
  const hulk::Scenario base = dp_across_wan(1.25e8, hulk::WanCapacity::pair);
  hulk::Scenario down = base;
  hulk::EventSpec e = wan_event(0, 1, 0, 0, 5.0);
  e.kind = hulk::EventSpec::Kind::link_down;
  e.bandwidth_factor = 0;
  down.events = {e};
  const double quiet = wall_s(base, pl);
  EXPECT_NEAR(wall_s(down, pl) - quiet, 5.0, 1e-3 * quiet + 1e-3);
}

TEST(Events, ALinkDownAtAnyMomentOfAPipelineCostsAtMostItsDuration) {
  // pp 2 over the WAN (1F1B, Megatron's blocking p2p: a hand-off starts when the receiver posts its receive), compute
  // and hand-offs of similar length, so that at some moments a sender waits for its receiver. A WAN down of D
  // starting at any of those moments delays the run by at most D: traffic waits, nothing is lost. A hand-off whose
  // receiver posted during the down once started on the down link and kept its 1 B/s for good (4e6 s per 4 MB).
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 1e12;
  const hulk::PlatformSpec p = grid_platform(2, 1, 1, 1.25e9, 50e-6, 1.25e8, 20e-3, gpu);
  const hulk::Scenario base = scenario(p, small_job(1, 1, 2, 4, 8));
  const hulk::Placement pl = one_per_host(2);
  const double quiet = wall_s(base, pl), down_for = 2 * quiet;
  for (int k = 1; k < 16; ++k) {
    hulk::Scenario down = base;
    hulk::EventSpec e = wan_event(0, 1, 0, quiet * k / 16, down_for);
    e.kind = hulk::EventSpec::Kind::link_down;
    down.events = {e};
    const double added = wall_s(down, pl) - quiet;
    EXPECT_LE(added, down_for + 1e-6 * quiet) << "down from " << quiet * k / 16 << " s";
    EXPECT_GE(added, -1e-6 * quiet) << "down from " << quiet * k / 16 << " s";
  }
}

TEST(Events, GoodputOfSeveralJobsIsEachJobsShareAveraged) {
  // Two jobs, each in a region of its own (pp 2 for 2 iterations, dp 2 for 3), and a WAN down neither crosses: every
  // iteration counts, so the goodput is 100%. Summed over the jobs, whose iterations overlap, it was above 100%.
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 1e12;
  const hulk::PlatformSpec p = grid_platform(2, 2, 1, 1.25e9, 50e-6, 1.25e8, 20e-3, gpu);
  hulk::JobSpec a = small_job(1, 1, 2, 4, 4), b = small_job(2, 1, 1, 4, 2);
  a.name = "a";
  a.iterations = 2;
  b.name = "b";
  b.iterations = 3;
  hulk::Scenario s = scenario(p, a);
  s.jobs = {a, b};
  hulk::EventSpec e = wan_event(0, 1, 0, 0, 1.0);
  e.kind = hulk::EventSpec::Kind::link_down;
  s.events = {e};
  const hulk::Placement pl = one_per_host(4);  // a on region 0's hosts, b on region 1's
  const double goodput = hulk::simulate_with_events(s, pl, quiet_options()).at("events").at("goodput").get<double>();
  EXPECT_NEAR(goodput, 1.0, 1e-9);
}

/** pp 2 on two hosts of one region, network effectively free, GPUs slow enough that compute dominates. */
hulk::Scenario pipeline_bound(int micro_batches) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 1e12;
  const hulk::PlatformSpec p = grid_platform(1, 2, 1, 1e15, 0, 1e15, 0, gpu);
  hulk::JobSpec j = small_job(1, 1, 2, 4, micro_batches);
  return scenario(p, j);
}

TEST(Events, StragglerOnOneStageFollowsThePipelineClosedForm) {
  // 1F1B, p = 2, uniform stages f + b, network free: T = (f + b)(M + 1). Stage 1 at speed s for the whole run
  // becomes the bottleneck, busy from its first forward to its last backward: T' = (f + b) + M (f + b) / s.
  const int m = 8;
  const double s = 0.5;
  const hulk::Placement pl = one_per_host(2);
  const hulk::Scenario base = pipeline_bound(m);
  hulk::Scenario straggling = base;
  hulk::EventSpec e;
  e.kind = hulk::EventSpec::Kind::host_speed;
  e.target.kind = hulk::EventTarget::Kind::host;
  e.target.host = 1;
  e.speed_factor = s;
  e.duration_s = kInf;
  straggling.events = {e};
  const double quiet = wall_s(base, pl);
  const double stage = quiet / (m + 1);  // f + b
  EXPECT_NEAR(wall_s(straggling, pl) / (stage * (1 + m / s)), 1.0, 2e-3);
}

/** tp 2 on host 0 (two GPUs) of a one-region platform with `hosts` hosts; 10 iterations. */
hulk::Scenario failing_job(int hosts, double checkpoint_cost) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 1e13;
  const hulk::PlatformSpec p = grid_platform(1, hosts, 2, 1.25e9, 50e-6, 1.25e9, 0, gpu);
  hulk::JobSpec j = small_job(1, 2, 1, 4, 4);
  j.iterations = 10;
  j.checkpoint = {3, checkpoint_cost};
  return scenario(p, j);
}

hulk::EventSpec failure(double at, double restart, double down_for) { return host_failure(0, at, restart, down_for); }

TEST(Events, HostFailureRedoesTheIterationsSinceTheCheckpointPlusRestart) {
  // Checkpoints after iterations 3, 6, 9 (cost c each). A failure half-way through iteration 8 (iteration 7 done)
  // loses iteration 7 and half of 8; the job resumes from iteration 6 on the spare host after R.
  const double c = 0.25, restart = 3.0;
  hulk::Placement pl;
  pl.gpu_of_rank = {{0, 0}, {0, 1}};
  const hulk::Scenario base = failing_job(2, c);
  const nlohmann::json quiet = hulk::simulate_with_events(base, pl, quiet_options());
  const double tau = (quiet["events"]["wall_s"].get<double>() - 3 * c) / 10;  // one iteration
  const double at = 7.5 * tau + 2 * c;
  hulk::Scenario failing = base;
  failing.events = {failure(at, restart, kInf)};
  const nlohmann::json r = hulk::simulate_with_events(failing, pl, quiet_options());
  EXPECT_EQ(r["events"]["redone_iterations"].get<int>(), 1);
  EXPECT_EQ(r["events"]["attempts"].size(), 2u);
  EXPECT_EQ(r["events"]["attempts"][1]["first_iteration"].get<int>(), 6);
  // Lost: 1.5 iterations of work and the restart; everything else as in the quiet run.
  const double expected = quiet["events"]["wall_s"].get<double>() + 1.5 * tau + restart;
  EXPECT_NEAR(r["events"]["wall_s"].get<double>() / expected, 1.0, 1e-9);
  EXPECT_EQ(r["placement_after_failures"]["ranks"][0]["host"], "r0h1");
}

TEST(Events, HostFailureWithoutSparesWaitsForTheHost) {
  const double c = 0.25, restart = 2.0, down = 7.0;
  hulk::Placement pl;
  pl.gpu_of_rank = {{0, 0}, {0, 1}};
  const hulk::Scenario base = failing_job(1, c);
  const double quiet = wall_s(base, pl);
  const double tau = (quiet - 3 * c) / 10;
  hulk::Scenario failing = base;
  failing.events = {failure(4.5 * tau + c, restart, down)};  // in iteration 5, after the checkpoint at 3
  const nlohmann::json r = hulk::simulate_with_events(failing, pl, quiet_options());
  EXPECT_EQ(r["events"]["redone_iterations"].get<int>(), 1);
  EXPECT_NEAR(r["events"]["wall_s"].get<double>() / (quiet + 1.5 * tau + down + restart), 1.0, 1e-9);
}

TEST(Events, HostFailureForGoodWithoutSparesIsAnInputError) {
  hulk::Placement pl;
  pl.gpu_of_rank = {{0, 0}, {0, 1}};
  hulk::Scenario failing = failing_job(1, 0);
  failing.events = {failure(0.01, 1, kInf)};
  EXPECT_THROW(hulk::simulate_with_events(failing, pl, quiet_options()), hulk::InputError);
}

TEST(Events, ASpareThatDiedIsNoSpareAndAHostThatDiesDuringTheRestartFailsTheNextAttempt) {
  // Two hosts of 2 GPUs, the job on host 0. The job must not restart onto hosts that have already failed: the
  // spare's own failure (before the job's) and a failure during the restart both apply.
  hulk::Placement pl;
  pl.gpu_of_rank = {{0, 0}, {0, 1}};
  hulk::Scenario failing = failing_job(2, 0);
  hulk::EventSpec spare = failure(0.0, 1, kInf);
  spare.target.host = 1;
  failing.events = {spare, failure(0.01, 1, kInf)};
  EXPECT_THROW(hulk::simulate_with_events(failing, pl, quiet_options()), hulk::InputError);  // nowhere to go
  hulk::EventSpec during = failure(0.5, 1, kInf);
  during.target.host = 1;
  failing.events = {failure(0.01, 1, kInf), during};  // the spare dies 0.49 s into the job's 1 s restart
  EXPECT_THROW(hulk::simulate_with_events(failing, pl, quiet_options()), hulk::InputError);
  // Back 1 s later instead (at 1.5 s, after the restart): the next attempt fails as it starts, and the job resumes on
  // the spare once it is back (a host back before the restart ends, 0.2 s later say, is simply used).
  during.duration_s = 1.0;
  failing.events = {failure(0.01, 1, kInf), during};
  const nlohmann::json r = hulk::simulate_with_events(failing, pl, quiet_options());
  EXPECT_EQ(r["events"]["attempts"].size(), 3u);
  EXPECT_EQ(r["placement_after_failures"]["ranks"][0]["host"], "r0h1");
}

}  // namespace
