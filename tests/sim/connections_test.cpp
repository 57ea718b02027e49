// In-order connections: closed forms for queued pipeline messages, a ring with a late member and
// Megatron's blocking 1F1B exchanges. Each TEST runs in its own process (gtest_discover_tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sim/workload/cost_model.hpp"
#include "sim/place/placer.hpp"
#include "sim/engine/simulator.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {
constexpr double kNicBps = 1.25e8;  // 1 Gbps
constexpr double kNicLat = 5e-3;    // route latency inside a region = 2 x NIC latency = 10 ms
constexpr double kRouteLat = 2 * kNicLat;

hulk::GpuSpec gpu_of(double flops) {
  hulk::GpuSpec g = infinite_gpu();
  g.fp16_flops = g.fp32_flops = flops;
  return g;
}
}  // namespace

TEST(Connections, QueuedMicroBatchesLeaveOneAfterAnother) {
  // Two stages, GPipe (overlapped p2p): stage 0 produces an activation every c seconds, faster than the link
  // carries one (S/B > c). In order over one connection, micro-batch k starts when k-1 has left: it arrives at
  // c + L + (k+1) S/B. (Processor sharing of the queued messages would deliver them all together at the end.)
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0, gpu_of(1e13)), small_job(1, 1, 2, 2, 6));
  s.only_job().schedule = "gpipe";
  ASSERT_FALSE(s.only_job().pipeline_p2p_blocking());
  const hulk::JobCost cost = hulk::compute_job_cost(s.only_job());
  const double c = cost.stages[0].fwd_flops_per_mb() / 1e13;
  const double x = cost.pp_message_bytes / kNicBps;
  ASSERT_GT(x, 2 * c);  // the link is the bottleneck: messages queue
  hulk::SimOptions o;
  o.record_events = true;
  const hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s), o);
  std::vector<double> arrivals(6, -1);
  for (const auto& e : r.events)
    if (e.kind == "pp" && e.src_rank == 0) arrivals.at(std::stoi(e.collective.substr(e.collective.find("/mb") + 3))) = e.end_s;
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(arrivals[k] / (c + kRouteLat + (k + 1) * x), 1.0, 1e-9) << "micro-batch " << k;
}

TEST(Connections, RingWithALateMemberKeepsItsPipelining) {
  // DP ring over 4 hosts; host 3's GPU is 4x slower, so its all-reduce starts D later and its predecessor's chunks
  // wait for it. Forwarded in order, they keep the ring pipelined: the iteration ends at the slow member's compute
  // + the lock-step ring time 2(n-1)(L + S/(nB)).
  hulk::PlatformSpec p = grid_platform(1, 4, 1, kNicBps, kNicLat, 1e9, 0.0, gpu_of(1e12));
  p.hosts[3].gpu = gpu_of(0.02e12);
  const hulk::Scenario s = scenario(p, small_job(4, 1, 1, 2, 1));
  const hulk::JobCost cost = hulk::compute_job_cost(s.only_job());
  const double f = cost.stages[0].fwd_flops_per_mb();
  const double fast = 3 * f / 1e12, slow = 3 * f / 0.02e12;
  const int n = 4;
  const double hop = kRouteLat + cost.stages[0].dp_grad_bytes / n / kNicBps;
  ASSERT_GT(slow - fast, 3 * hop);  // the others are blocked on the late member with chunks queued for it
  const hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.iteration_time_s / (slow + 2 * (n - 1) * hop), 1.0, 1e-9);
}

TEST(Connections, MegatronBlockingOneFOneBClosedForm) {
  // 1F1B over two stages, two micro-batches, blocking p2p (Megatron's default): the schedule's exchanges put the
  // transfers on the critical path. With forward time tf (backward 2 tf), transfer time x = S/B and route latency L,
  // walking Megatron's schedule gives 9 tf + 3 x + 3 L: stage 0's F0 and B1 (3 tf), stage 1's four passes (6 tf,
  // its tf includes the logits), a0, the g0/a1 exchange and g1 (x + L each). Stage 0's F1 and B0 overlap them.
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0, gpu_of(1e12)), small_job(1, 1, 2, 2, 2));
  ASSERT_EQ(s.only_job().schedule, "1f1b");
  ASSERT_TRUE(s.only_job().pipeline_p2p_blocking());
  const hulk::JobCost cost = hulk::compute_job_cost(s.only_job());
  const double tf0 = cost.stages[0].fwd_flops_per_mb() / 1e12, tf1 = cost.stages[1].fwd_flops_per_mb() / 1e12;
  const double x = cost.pp_message_bytes / kNicBps;
  const hulk::SimResult blocking = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(blocking.iteration_time_s / (3 * tf0 + 6 * tf1 + 3 * x + 3 * kRouteLat), 1.0, 1e-9);
}

TEST(Connections, OverlappedOneFOneBDoesNotWaitForItsSends) {
  // The same job with overlapped p2p: stage 0 sends a0 and goes on with F1 at once, so the iteration is shorter
  // than with Megatron's blocking exchanges, and still at least the compute plus one hop each way.
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0, gpu_of(1e12)), small_job(1, 1, 2, 2, 2));
  const hulk::JobCost cost = hulk::compute_job_cost(s.only_job());
  const double tf = cost.stages[0].fwd_flops_per_mb() / 1e12;
  const double x = cost.pp_message_bytes / kNicBps;
  s.only_job().pipeline_p2p = "overlapped";
  const hulk::SimResult overlapped = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_LT(overlapped.iteration_time_s, 9 * tf + 3 * x + 3 * kRouteLat - tf);
  EXPECT_GE(overlapped.iteration_time_s, 9 * tf + 2 * (x + kRouteLat) - 1e-9);
}

TEST(Connections, TcpWindowCapsEachFlowAtWindowOverRoundTrip) {
  // Under CM02 hulk applies the window itself (SimGrid's links carry no latency): one activation of S bytes over a
  // route of latency L takes S / min(B, W / 2L) + L, the bound SimGrid's TCP-gamma sets.
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0), small_job(1, 1, 2, 2, 1));
  s.only_job().schedule = "gpipe";
  s.network.tcp_window_bytes = 1 << 20;
  const double cap = s.network.tcp_window_bytes / (2 * kRouteLat);
  ASSERT_LT(cap, kNicBps);
  const double bytes = hulk::compute_job_cost(s.only_job()).pp_message_bytes;
  hulk::SimOptions o;
  o.record_events = true;
  const hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s), o);
  int seen = 0;
  for (const auto& e : r.events) {
    if (e.kind != "pp") continue;
    ++seen;
    EXPECT_NEAR((e.end_s - e.start_s) / (bytes / cap + kRouteLat), 1.0, 1e-9) << e.collective;
  }
  EXPECT_EQ(seen, 2);  // the activation and the gradient
}
