// Analytic evaluator and lower bound against closed forms (contention-free and simple contended cases).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/lower_bound.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/evaluate/pipeline_critical_path.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;
using testing::small_model;

constexpr double kNicBw = 1.25e9, kNicLat = 50e-6;

double speed_of(const Scenario& s) {
  return s.platform.hosts[0].gpu.peak_flops(s.only_job().precision) * s.only_job().utilisation;
}

TEST(RouteModel, RoutesFollowThePlatformModel) {
  PlatformSpec p = make_platform({2, 1}, 2, a100(), {1e9, 1e-4}, {1e8, 0.02}, {100e9, 2e-6});
  p.host_pair_latency_s[{0, 2}] = 0.123;
  RouteModel net(p);
  // Same region: NIC up + NIC down.
  EXPECT_EQ(net.route(0, 1).n_links, 2);
  EXPECT_DOUBLE_EQ(net.route(0, 1).latency_s, 2e-4);
  EXPECT_DOUBLE_EQ(net.route(0, 1).bandwidth_Bps, 1e9);
  // Other region: + WAN; measured latency replaces the sum, bandwidth unchanged.
  EXPECT_EQ(net.route(0, 2).n_links, 3);
  EXPECT_DOUBLE_EQ(net.route(0, 2).latency_s, 0.123);
  EXPECT_DOUBLE_EQ(net.route(2, 0).latency_s, 0.123);
  EXPECT_DOUBLE_EQ(net.route(1, 2).latency_s, 2e-4 + 0.02);
  EXPECT_DOUBLE_EQ(net.route(1, 2).bandwidth_Bps, 1e8);
  // The two directions of a WAN are different links; a host to itself is its shared intra-host link.
  EXPECT_NE(net.route(0, 2).links[1], net.route(2, 0).links[1]);
  EXPECT_EQ(net.route(1, 1).n_links, 1);
  // Its aggregate link carries gpus x intra bandwidth, but one flow is capped by its GPU's port (intra bandwidth).
  EXPECT_DOUBLE_EQ(net.link_bandwidth_Bps(net.route(1, 1).links[0]), 200e9);
  EXPECT_DOUBLE_EQ(net.route(1, 1).flow_cap_Bps, 100e9);
  EXPECT_DOUBLE_EQ(net.route(1, 1).bandwidth_Bps, 100e9);
}

TEST(Evaluator, RecomputationAddsFlopAndAllReducesToBackward) {
  // As above with recompute: selective adds the attention core's flop to each layer's backward, full the whole
  // forward and its 2 TP all-reduces (6 per layer and micro-batch instead of 4).
  double none_s = 0;
  for (const char* mode : {"none", "selective", "full"}) {
    SCOPED_TRACE(mode);
    JobSpec j = make_job(1, 4, 1, 2);
    j.recompute = mode;
    Scenario s = make_scenario(make_platform({4}, 1, a100(), {kNicBw, kNicLat}), j);
    Evaluator ev(s);
    const JobCost& c = ev.cost();
    const double S = c.tp_allreduce_bytes, L = c.stages[0].layers, m = 2;
    const double ar = 2 * 3 * (2 * kNicLat + S / 4 / kNicBw);
    const double recompute_s = L * c.stages[0].recompute_layer_flops / speed_of(s);
    const double expected =
        m * (3 * c.stages[0].fwd_flops_per_mb() / speed_of(s) + recompute_s + (4 + c.recompute_tp_allreduces) * L * ar);
    EXPECT_EQ(c.recompute_tp_allreduces, std::string(mode) == "full" ? 2 : 0);
    EXPECT_EQ(recompute_s > 0, std::string(mode) != "none");
    const double t = ev.time_of_hosts({0, 1, 2, 3});
    EXPECT_NEAR(t, expected, 0.01 * expected);
    // The added time alone, 1% of itself (pp 1: each backward is on the critical path once per micro-batch), so
    // that an added term smaller than 1% of the iteration is still checked.
    if (std::string(mode) == "none") none_s = t;
    const double added = m * (recompute_s + c.recompute_tp_allreduces * L * ar);
    EXPECT_NEAR(t - none_s, added, 0.01 * added + 1e-9 * expected);
  }
}

TEST(Evaluator, TensorParallelRingAcrossHostsMatchesClosedForm) {
  // tp 4 over 4 single-GPU hosts of one region: no link carries two flows.
  Scenario s = make_scenario(make_platform({4}, 1, a100(), {kNicBw, kNicLat}), make_job(1, 4, 1, 2));
  Evaluator ev(s);
  const JobCost& c = ev.cost();
  const double S = c.tp_allreduce_bytes, L = c.stages[0].layers, m = 2;
  const double ar = 2 * 3 * (2 * kNicLat + S / 4 / kNicBw);
  const double expected = m * (3 * c.stages[0].fwd_flops_per_mb() / speed_of(s) + 4 * L * ar);
  EXPECT_NEAR(ev.time_of_hosts({0, 1, 2, 3}), expected, 0.01 * expected);
}

TEST(Evaluator, TensorParallelRingInsideOneHostSharesTheIntraLink) {
  // 4 flows on one intra-host link of 4 x 150 GB/s: each gets 150 GB/s.
  Scenario s = make_scenario(make_platform({1}, 4, a100()), make_job(1, 4, 1, 3));
  Evaluator ev(s);
  const JobCost& c = ev.cost();
  const double ar = 2 * 3 * (2e-6 + c.tp_allreduce_bytes / 4 / 150e9);
  const double expected = 3 * (3 * c.stages[0].fwd_flops_per_mb() / speed_of(s) + 4 * c.stages[0].layers * ar);
  EXPECT_NEAR(ev.time_of_hosts({0, 0, 0, 0}), expected, 0.01 * expected);
}

TEST(Evaluator, PointToPointAcrossRegionsMatchesClosedForm) {
  const LinkSpec wan{1e8, 0.03};
  Scenario s = make_scenario(make_platform({1, 1}, 1, a100(), {kNicBw, kNicLat}, wan), make_job(1, 1, 2, 1, "gpipe"));
  Evaluator ev(s);
  const JobCost& c = ev.cost();
  const double f = c.stages[0].fwd_flops_per_mb() / speed_of(s);
  ASSERT_DOUBLE_EQ(c.stages[0].fwd_flops_per_mb(), c.stages[1].fwd_flops_per_mb());  // vocab 0: equal stages
  const double hop = 2 * kNicLat + wan.latency_s + c.pp_message_bytes / wan.bandwidth_Bps;
  const double expected = f + hop + f + 2 * f + hop + 2 * f;
  EXPECT_NEAR(ev.time_of_hosts({0, 1}), expected, 0.01 * expected);
  EXPECT_NEAR(ev.evaluate_hosts({0, 1}).pp_hop_s, hop, 1e-12);
}

class BubbleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BubbleTest, PipelineBubbleMatchesClosedForm) {
  // Equal stages, (almost) free links: T = (m + p - 1)(f + b), bubble fraction (p-1)/(m+p-1).
  const int p = 4, m = 8;
  Scenario s = make_scenario(make_platform({4}, 1, a100(), {1e15, 0}), make_job(1, 1, p, m, GetParam()));
  Evaluator ev(s);
  const double f = ev.cost().stages[0].fwd_flops_per_mb() / speed_of(s);
  const double expected = (m + p - 1) * 3 * f;
  const EvalBreakdown b = ev.evaluate_hosts({0, 1, 2, 3});
  EXPECT_NEAR(b.iteration_time_s, expected, 0.01 * expected);
  EXPECT_NEAR(b.bubble_s / b.iteration_time_s, double(p - 1) / (m + p - 1), 0.01);
  // The compute-only lower bound is this same time here, and equals the closed form for equal stages.
  EXPECT_NEAR(lower_bound_s(s), expected, 1e-9 * expected);
  EXPECT_NEAR(closed_form_bound_s(s), expected, 1e-9 * expected);
}

INSTANTIATE_TEST_SUITE_P(Schedules, BubbleTest, ::testing::Values("gpipe", "1f1b"));

TEST(Evaluator, DataParallelRingAcrossRegionsMatchesClosedForm) {
  const LinkSpec wan{2e8, 0.05};
  Scenario s = make_scenario(make_platform({1, 1, 1, 1}, 1, a100(), {kNicBw, kNicLat}, wan), make_job(4, 1, 1, 2));
  Evaluator ev(s);
  const JobCost& c = ev.cost();
  const double f = c.stages[0].fwd_flops_per_mb() / speed_of(s);
  const double S = c.stages[0].dp_grad_bytes;
  const double dp = 2 * 3 * (2 * kNicLat + wan.latency_s + S / 4 / wan.bandwidth_Bps);
  const EvalBreakdown b = ev.evaluate_hosts({0, 1, 2, 3});
  EXPECT_NEAR(b.dp_comm_s, dp, 0.01 * dp);
  EXPECT_NEAR(b.iteration_time_s, 2 * 3 * f + dp, 0.01 * (2 * 3 * f + dp));
}

TEST(Evaluator, ConcurrentDataParallelGroupsShareTheNic) {
  // dp 2 x tp 2, TP inside each host: both DP rings (tp 0 and tp 1) cross the same NICs: 2 flows per NIC.
  Scenario s = make_scenario(make_platform({2}, 2, a100(), {kNicBw, kNicLat}), make_job(2, 2, 1, 1));
  Evaluator ev(s);
  const JobCost& c = ev.cost();
  const double S = c.stages[0].dp_grad_bytes;
  const double dp = 2 * 1 * (2 * kNicLat + (S / 2) / (kNicBw / 2));
  const double tp = 2 * 1 * (2e-6 + c.tp_allreduce_bytes / 2 / 150e9);  // 2 flows on 2 x 150 GB/s
  const double f = c.stages[0].fwd_flops_per_mb() / speed_of(s);
  const double expected = 3 * f + 4 * c.stages[0].layers * tp + dp;
  const EvalBreakdown b = ev.evaluate_hosts({0, 0, 1, 1});
  EXPECT_NEAR(b.dp_comm_s, dp, 0.01 * dp);
  EXPECT_NEAR(b.iteration_time_s, expected, 0.01 * expected);
  // Transposed: TP across the hosts (2 flows per NIC), the DP rings inside each host (2 flows per intra link).
  const double tp_x = 2 * 1 * (2 * kNicLat + (c.tp_allreduce_bytes / 2) / (kNicBw / 2));
  const double dp_x = 2 * 1 * (2e-6 + (S / 2) / 150e9);
  const double expected_x = 3 * f + 4 * c.stages[0].layers * tp_x + dp_x;
  EXPECT_NEAR(ev.time_of_hosts({0, 1, 0, 1}), expected_x, 0.01 * expected_x);
}

TEST(Evaluator, TreeAllReduceMatchesClosedForm) {
  Scenario s = make_scenario(make_platform({4}, 1, a100(), {kNicBw, kNicLat}), make_job(4, 1, 1, 1));
  s.only_job().collective = "tree";
  Evaluator ev(s);
  const double S = ev.cost().stages[0].dp_grad_bytes, a = 2 * kNicLat;
  // Tree 0 <- {1, 2}, 1 <- 3. Reduce: leaves 3->1 and 2->0 start together on disjoint links, then 1->0 alone.
  // Broadcast: 0->1 and 0->2 start together and share host 0's NIC up, then 1->3 alone.
  const double expected = 2 * (a + S / kNicBw) + (a + S / (kNicBw / 2)) + (a + S / kNicBw);
  EXPECT_NEAR(ev.evaluate_hosts({0, 1, 2, 3}).dp_comm_s, expected, 0.01 * expected);
}

TEST(Evaluator, HierarchicalAllReduceClosedFormAndRingFallback) {
  const LinkSpec wan{1e8, 0.04};
  Scenario s = make_scenario(make_platform({2, 2}, 1, a100(), {kNicBw, kNicLat}, wan), make_job(4, 1, 1, 1));
  s.only_job().collective = "hierarchical";
  Evaluator ev(s);
  const double S = ev.cost().stages[0].dp_grad_bytes;
  // Regions {0,1} and {2,3}: reduce-scatter 1 step of S/2 inside each region (LAN), then 2 rings of S/2 over
  // the 2 regions (2 steps of S/4, both rings on the same WAN link each way: 2 flows), then all-gather.
  const double lan = 2 * kNicLat + (S / 2) / kNicBw;
  const double wan_step = 2 * kNicLat + wan.latency_s + (S / 4) / (wan.bandwidth_Bps / 2);
  const double expected = 2 * lan + 2 * wan_step;
  EXPECT_NEAR(ev.evaluate_hosts({0, 1, 2, 3}).dp_comm_s, expected, 0.01 * expected);
  // One region: hierarchical == ring.
  Scenario one = make_scenario(make_platform({4}, 1, a100(), {kNicBw, kNicLat}), make_job(4, 1, 1, 1));
  Scenario one_ring = one;
  one.only_job().collective = "hierarchical";
  EXPECT_DOUBLE_EQ(Evaluator(one).time_of_hosts({0, 1, 2, 3}), Evaluator(one_ring).time_of_hosts({0, 1, 2, 3}));
}

TEST(Evaluator, OneFlowInsideAHostIsCappedByItsGpuPort) {
  // tp 2 on a 4-GPU host: 2 flows on an aggregate of 4 x 150 GB/s, but each flow is capped at 150 GB/s.
  Scenario s = make_scenario(make_platform({1}, 4, a100()), make_job(1, 2, 1, 1));
  Evaluator ev(s);
  const JobCost& c = ev.cost();
  const double ar = 2 * 1 * (2e-6 + c.tp_allreduce_bytes / 2 / 150e9);
  const double expected = 3 * c.stages[0].fwd_flops_per_mb() / speed_of(s) + 4 * c.stages[0].layers * ar;
  EXPECT_NEAR(ev.time_of_hosts({0, 0}), expected, 1e-9 * expected);
}

TEST(Evaluator, UnbalancedHierarchicalFallsBackToARegionOrderedRing) {
  // Members in regions (0, 1, 0, 1, 1): unbalanced -> ring re-ordered region by region: h0 h2 | h1 h3 h4.
  const LinkSpec wan{1e8, 0.04};
  Scenario s = make_scenario(make_platform({2, 3}, 1, a100(), {kNicBw, kNicLat}, wan), make_job(5, 1, 1, 1));
  s.only_job().collective = "hierarchical";
  Evaluator ev(s);
  const double S = ev.cost().stages[0].dp_grad_bytes;
  // Ring h0 h1 | h2 h3 h4 crosses the WAN once each way (hops h1->h2, h4->h0), 3 LAN hops. No step barrier:
  // 8 steps = the largest sum of 8 consecutive hops = all 5 + (h4->h0, h0->h1, h1->h2) = 4 WAN + 4 LAN hops.
  const double wan_hop = 2 * kNicLat + wan.latency_s + (S / 5) / wan.bandwidth_Bps;
  const double lan_hop = 2 * kNicLat + (S / 5) / kNicBw;
  const double expected = std::max(4 * wan_hop + 4 * lan_hop, 2 * kNicLat + wan.latency_s + 8 * (S / 5) / wan.bandwidth_Bps);
  EXPECT_NEAR(ev.evaluate_hosts({0, 2, 1, 3, 4}).dp_comm_s, expected, 1e-6 * expected);
}

TEST(Evaluator, RingWithoutStepBarrierPipelinesAcrossSlowHops) {
  // tp 4 as 2 + 2 GPUs on two servers in two regions: hops intra, WAN, intra, WAN (WAN latency > one transfer).
  // No step barrier, in-order connections, latency at the receiver (the engine's ring_steps): walking the 6 steps,
  // a WAN sender's every other chunk waits for the previous one to leave its connection, so the last chunk is done
  // after 3 WAN hops, 2 intra hops and one extra WAN transfer (not 6 WAN hops as a step-synchronous ring would).
  // SimGrid gives the same (tests/sim/search_vs_exhaustive_test.cpp, tp_ring_alternating_wan).
  const LinkSpec wan{1.25e8, 0.03};
  Scenario s = make_scenario(make_platform({1, 1}, 2, a100(), {kNicBw, kNicLat}, wan), make_job(1, 4, 1, 1));
  Evaluator ev(s);
  const JobCost& c = ev.cost();
  const double chunk = c.tp_allreduce_bytes / 4;
  const double xw = chunk / wan.bandwidth_Bps;                 // one flow per WAN direction
  const double w = 2 * kNicLat + wan.latency_s + xw;
  const double in = 2e-6 + chunk / 150e9;                      // one flow per intra link
  ASSERT_GT(wan.latency_s, xw);
  const double ar = 3 * w + 2 * in + xw;
  const double expected = 3 * c.stages[0].fwd_flops_per_mb() / speed_of(s) + 4 * c.stages[0].layers * ar;
  EXPECT_NEAR(ev.time_of_hosts({0, 0, 1, 1}), expected, 1e-9 * expected);
}

TEST(Evaluator, SlowestGpuOfTheStageSetsItsSpeed) {
  PlatformSpec p = make_platform({2}, 1, a100(), {1e15, 0});
  p.hosts[1].gpu = testing::t4();
  Scenario s = make_scenario(p, make_job(1, 2, 1, 1));
  Evaluator ev(s);
  const double slow = p.hosts[1].gpu.peak_flops("fp16") * s.only_job().utilisation;
  const double compute = 3 * ev.cost().stages[0].fwd_flops_per_mb() / slow;
  const EvalBreakdown b = ev.evaluate_hosts({0, 1});
  EXPECT_NEAR(b.compute_s, compute, 1e-9 * compute);
}

TEST(Evaluator, MemoryInfeasiblePlacementIsInfinite) {
  PlatformSpec p = make_platform({2}, 1, a100());
  p.hosts[1].gpu.memory_bytes = 1e6;  // 1 MB: nothing fits
  Scenario s = make_scenario(p, make_job(1, 1, 2, 2));
  Evaluator ev(s);
  const EvalBreakdown bad = ev.evaluate_hosts({0, 1});
  EXPECT_FALSE(bad.feasible);
  EXPECT_EQ(bad.infeasible_rank, 1);
  EXPECT_TRUE(std::isinf(bad.iteration_time_s));
  // Without memory checks it is a normal placement.
  s.only_job().check_memory = false;
  EXPECT_TRUE(Evaluator(s).evaluate_hosts({0, 1}).feasible);
  // Malformed input (wrong rank count / unknown host) is infeasible, not a crash.
  EXPECT_FALSE(ev.evaluate_hosts({0}).feasible);
  EXPECT_FALSE(ev.evaluate_hosts({0, 7}).feasible);
}

TEST(Evaluator, PlacementAndHostApiAgree) {
  Scenario s = testing::hulk_like_scenario();
  Evaluator ev(s);
  const Placement p = RandomPlacer(123).place(s);
  EXPECT_DOUBLE_EQ(ev.iteration_time_s(p), ev.time_of_hosts(hosts_of(p)));
  EXPECT_DOUBLE_EQ(ev.iteration_time_s(p), ev.iteration_time_s(p));  // scratch reuse has no memory
}

TEST(Evaluator, ThreadsWithTheirOwnScratchGiveTheBitsOfOneThread) {
  // One Evaluator per scenario shared by four threads, each with its own EvaluatorScratch and its own order of the
  // placements: every estimate and bound is the one a single thread computes in the Evaluator's own scratch.
  std::mt19937_64 rng(53);
  std::vector<Scenario> scenarios{testing::hulk_like_scenario()};
  for (int i = 0; i < 5; ++i) scenarios.push_back(testing::random_scenario(rng));
  for (const Scenario& s : scenarios) {
    const Evaluator ev(s);
    std::vector<std::vector<int>> hosts;
    for (int k = 0; k < 6; ++k) hosts.push_back(hosts_of(RandomPlacer(rng()).place(s)));
    std::vector<EvalBreakdown> want;
    std::vector<double> want_bound;
    for (const std::vector<int>& h : hosts) {
      want.push_back(ev.evaluate_hosts(h));
      want_bound.push_back(ev.time_lower_bound_of_hosts(h));
    }
    constexpr int kThreads = 4;
    std::vector<std::vector<EvalBreakdown>> got(kThreads, std::vector<EvalBreakdown>(hosts.size()));
    std::vector<std::vector<double>> got_bound(kThreads, std::vector<double>(hosts.size()));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        EvaluatorScratch scratch;
        for (int round = 0; round < 3; ++round)
          for (size_t k = 0; k < hosts.size(); ++k) {
            const size_t i = (k * (t + 1) + round) % hosts.size();
            got[t][i] = ev.evaluate_hosts(hosts[i], scratch);
            got_bound[t][i] = ev.time_lower_bound_of_hosts(hosts[i], scratch);
          }
      });
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t)
      for (size_t i = 0; i < hosts.size(); ++i) {
        EXPECT_EQ(got[t][i].iteration_time_s, want[i].iteration_time_s) << "thread " << t << " placement " << i;
        EXPECT_EQ(got[t][i].pipeline_s, want[i].pipeline_s);
        EXPECT_EQ(got[t][i].dp_comm_s, want[i].dp_comm_s);
        EXPECT_EQ(got_bound[t][i], want_bound[i]);
      }
  }
}

TEST(Evaluator, OneScratchServesEvaluatorsOfDifferentScenariosInTurn) {
  // A scratch sized for one job is resized for the next, and back: the same bits as each Evaluator's own scratch.
  std::mt19937_64 rng(54);
  const Scenario a = testing::hulk_like_scenario(), b = testing::random_scenario(rng);
  const Evaluator ea(a), eb(b);
  const std::vector<int> ha = hosts_of(RandomPlacer(1).place(a)), hb = hosts_of(RandomPlacer(2).place(b));
  EvaluatorScratch scratch;
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(ea.evaluate_hosts(ha, scratch).iteration_time_s, ea.time_of_hosts(ha));
    EXPECT_EQ(eb.evaluate_hosts(hb, scratch).iteration_time_s, eb.time_of_hosts(hb));
  }
}

TEST(LowerBound, NeverAboveTheEvaluatorOnRandomPlacements) {
  std::mt19937_64 rng(2024);
  int checked = 0;
  for (int i = 0; i < 150; ++i) {
    Scenario s = testing::random_scenario(rng);
    Evaluator ev(s);
    const double lb = lower_bound_s(s);
    ASSERT_GT(lb, 0);
    for (int k = 0; k < 5; ++k) {
      const Placement p = RandomPlacer(rng()).place(s);
      const double t = ev.iteration_time_s(p);
      ASSERT_LE(lb, t * (1 + 1e-12)) << "scenario " << i;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 750);
}

TEST(LowerBound, ClosedFormIsNotABoundForUnequalStages) {
  // Documented counterexample (lower_bound.hpp): heavy stage 0, light stage 1, 1F1B, many micro-batches.
  const int m = 50;
  const std::vector<double> f{1.0, 1e-3}, b{2.0, 1e-3}, zero{0.0, 0.0};
  const auto sched = stage_op_orders("1f1b", 2, m);
  PipelineScratch scratch;
  const PipelineLinks free_links{zero.data(), zero.data(), zero.data(), zero.data()};
  const double cp = pipeline_makespan_s(sched, f.data(), b.data(), free_links, nullptr, scratch);
  const double closed = (3.0 + 2e-3) + (m - 1) * 3.0;
  EXPECT_LT(cp, closed);
  EXPECT_NEAR(cp, 3.0 * m, 1e-9);  // stage 0 is never idle and finishes last
}

TEST(PipelineCriticalPath, OneFOneBOrderIsMegatrons) {
  const auto s = stage_op_orders("1f1b", 3, 4);
  // Stage 0: warm-up 2 forwards, then F2 B0 F3 B1, then B2 B3.
  const std::vector<std::pair<bool, int>> want{{false, 0}, {false, 1}, {false, 2}, {true, 0},
                                               {false, 3}, {true, 1},  {true, 2},  {true, 3}};
  ASSERT_EQ(s[0].size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(s[0][i].backward, want[i].first);
    EXPECT_EQ(s[0][i].mb, want[i].second);
  }
  // Last stage alternates from the start.
  EXPECT_FALSE(s[2][0].backward);
  EXPECT_TRUE(s[2][1].backward);
}

TEST(PipelineCriticalPath, BlockingOneFOneBClosedForm) {
  // Megatron's blocking p2p over 2 stages, 2 micro-batches (as tests/sim/connections_test.cpp): the exchanges put
  // the transfers on the critical path: 3 tf0 + 6 tf1 + 3 x + 3 L (backward = 2 x forward).
  const auto sched = stage_op_orders("1f1b", 2, 2);
  const double tf0 = 1.0, tf1 = 1.0, x = 0.5, L = 0.2;
  const std::vector<double> f{tf0, tf1}, b{2 * tf0, 2 * tf1}, lat{L}, xfer{x};
  PipelineLinks links{lat.data(), xfer.data(), lat.data(), xfer.data()};
  links.blocking = true;
  links.channels = 1;
  PipelineScratch scratch;
  EXPECT_NEAR(pipeline_makespan_s(sched, f.data(), b.data(), links, nullptr, scratch),
              3 * tf0 + 6 * tf1 + 3 * x + 3 * L, 1e-12);
  links.blocking = false;  // overlapped: stage 0 does not wait for its sends, the iteration is shorter
  EXPECT_LT(pipeline_makespan_s(sched, f.data(), b.data(), links, nullptr, scratch), 3 * tf0 + 6 * tf1 + 3 * x + 3 * L);
}

TEST(PipelineCriticalPath, QueuedMessagesLeaveOneAfterAnother) {
  // GPipe, overlapped p2p, one channel: stage 0 produces an activation every c < x; in order, activation k leaves
  // at c + (k+1) x and arrives L later (latency at the receiver). Stage 1 and the backwards take no time, so the 6
  // gradients queue the same way: makespan = c + 6x + L + 6x + L. Processor sharing of the queued messages, or the
  // latency before each transfer, would give other values.
  const int m = 6;
  const auto sched = stage_op_orders("gpipe", 2, m);
  const double c = 0.1, x = 0.5, L = 0.2;
  const std::vector<double> f{c, 0.0}, b{0.0, 0.0}, lat{L}, xfer{x};
  PipelineLinks links{lat.data(), xfer.data(), lat.data(), xfer.data()};
  links.channels = 1;
  PipelineScratch scratch;
  EXPECT_NEAR(pipeline_makespan_s(sched, f.data(), b.data(), links, nullptr, scratch), c + 2 * m * x + 2 * L, 1e-12);
  // Two channels (no link ids: they share nothing): activations 2j, 2j+1 leave at c + (j+1) x and 2c + (j+1) x,
  // the last arrives at 2c + 3x + L; the gradients, all posted then, leave two by two.
  links.channels = 2;
  EXPECT_NEAR(pipeline_makespan_s(sched, f.data(), b.data(), links, nullptr, scratch),
              (2 * c + 3 * x + L) + 3 * x + L, 1e-12);
}

// Two replicas computed together (PipelineLinks::replicas) on one shared link: each message counts its flows there.
// Lockstep copies give the single pipeline with its flows counted twice (flow_multiplicity), bit for bit; replicas on
// disjoint links give each its own run; and on a shared link two replicas take longer than one alone.
TEST(PipelineCriticalPath, ReplicasShareOnlyTheLinksTheyHaveInCommon) {
  const int m = 4;
  const auto sched = stage_op_orders("1f1b", 3, m);
  const std::vector<double> f1{0.1, 0.2, 0.1}, b1{0.2, 0.4, 0.2}, lat1{0.05, 0.05}, x1{0.3, 0.3};
  const std::vector<int> route_one{0, -1, -1, 1, -1, -1}, back_one{2, -1, -1, 3, -1, -1}, w_one(6, 2);
  PipelineScratch scratch;
  PipelineLinks one{lat1.data(), x1.data(), lat1.data(), x1.data(), route_one.data(), back_one.data(), 8};
  one.blocking = true;
  one.channels = 1;
  one.route_weights_fwd = w_one.data();
  one.route_weights_bwd = w_one.data();
  std::vector<double> end_one(3), end_two(6);
  const double alone = pipeline_makespan_s(sched, f1.data(), b1.data(), one, end_one.data(), scratch);

  auto twice = [](const std::vector<double>& v) {
    std::vector<double> out = v;
    out.insert(out.end(), v.begin(), v.end());
    return out;
  };
  const std::vector<double> f2 = twice(f1), b2 = twice(b1), lat2 = twice(lat1), x2 = twice(x1);
  const std::vector<int> w2(12, 2);
  // Same links: lockstep copies.
  const std::vector<int> same_f = {0, -1, -1, 1, -1, -1, 0, -1, -1, 1, -1, -1};
  const std::vector<int> same_b = {2, -1, -1, 3, -1, -1, 2, -1, -1, 3, -1, -1};
  PipelineLinks two = one;
  two.latency_fwd_s = two.latency_bwd_s = lat2.data();
  two.transfer_fwd_s = two.transfer_bwd_s = x2.data();
  two.route_links_fwd = same_f.data();
  two.route_links_bwd = same_b.data();
  two.route_weights_fwd = two.route_weights_bwd = w2.data();
  two.replicas = 2;
  const double joint = pipeline_makespan_s(sched, f2.data(), b2.data(), two, end_two.data(), scratch);
  PipelineLinks doubled = one;
  doubled.flow_multiplicity = 2;
  EXPECT_EQ(joint, pipeline_makespan_s(sched, f1.data(), b1.data(), doubled, end_one.data(), scratch));
  for (int g = 0; g < 6; ++g) EXPECT_EQ(end_two[g], end_one[g % 3]);
  EXPECT_GT(joint, alone + 0.3);  // the transfers on the critical path take twice as long

  // Disjoint links: two independent pipelines.
  const std::vector<int> apart_f = {0, -1, -1, 1, -1, -1, 4, -1, -1, 5, -1, -1};
  const std::vector<int> apart_b = {2, -1, -1, 3, -1, -1, 6, -1, -1, 7, -1, -1};
  two.route_links_fwd = apart_f.data();
  two.route_links_bwd = apart_b.data();
  EXPECT_EQ(pipeline_makespan_s(sched, f2.data(), b2.data(), two, end_two.data(), scratch), alone);

  // One link in common (both replicas' activations over boundary 0): slower than alone, faster than lockstep on
  // every link.
  const std::vector<int> one_f = {0, -1, -1, 1, -1, -1, 0, -1, -1, 5, -1, -1};
  two.route_links_fwd = one_f.data();
  const double partial = pipeline_makespan_s(sched, f2.data(), b2.data(), two, end_two.data(), scratch);
  EXPECT_GT(partial, alone);
  EXPECT_LT(partial, joint);
}

// Many replicas with every message in flight at once (eager sends, no connection order): hundreds of flights share
// the links, more than the flight-event tree's first size, so it grows mid-run. Lockstep copies must still give the
// single pipeline with its flows multiplied, bit for bit, and the scratch (its tree now larger) must serve a small
// run again with the same result as a fresh one.
TEST(PipelineCriticalPath, HundredsOfFlightsInFlightMatchTheirMultiplicity) {
  const int m = 8, p = 3, replicas = 48;
  const auto sched = stage_op_orders("gpipe", p, m);
  const std::vector<double> f1{0.01, 0.02, 0.01}, b1{0.02, 0.04, 0.02}, lat1{0.03, 0.04}, x1{0.5, 0.7};
  const std::vector<int> fwd1{0, 4, -1, 1, 4, -1}, bwd1{2, 5, -1, 3, 5, -1};
  PipelineLinks one{lat1.data(), x1.data(), lat1.data(), x1.data(), fwd1.data(), bwd1.data(), 6};
  std::vector<double> f, b, lat, x;
  std::vector<int> fwd, bwd;
  for (int r = 0; r < replicas; ++r) {
    f.insert(f.end(), f1.begin(), f1.end());
    b.insert(b.end(), b1.begin(), b1.end());
    lat.insert(lat.end(), lat1.begin(), lat1.end());
    x.insert(x.end(), x1.begin(), x1.end());
    fwd.insert(fwd.end(), fwd1.begin(), fwd1.end());
    bwd.insert(bwd.end(), bwd1.begin(), bwd1.end());
  }
  PipelineLinks all = one;
  all.latency_fwd_s = all.latency_bwd_s = lat.data();
  all.transfer_fwd_s = all.transfer_bwd_s = x.data();
  all.route_links_fwd = fwd.data();
  all.route_links_bwd = bwd.data();
  all.replicas = replicas;
  PipelineScratch scratch;
  std::vector<double> end_all(static_cast<size_t>(replicas) * p), end_one(p);
  const double joint = pipeline_makespan_s(sched, f.data(), b.data(), all, end_all.data(), scratch);
  ASSERT_GT(scratch.flights.size(), 64u);  // the tree grew: it starts with 64 leaves
  PipelineLinks multiplied = one;
  multiplied.flow_multiplicity = replicas;
  PipelineScratch fresh;
  EXPECT_EQ(joint, pipeline_makespan_s(sched, f1.data(), b1.data(), multiplied, end_one.data(), fresh));
  for (int g = 0; g < replicas * p; ++g) EXPECT_EQ(end_all[g], end_one[g % p]);
  // All 8 activations of 48 replicas share link 4 at once: each goes at 1/384 of its alone rate.
  EXPECT_GT(joint, replicas * m * x1[0]);
  PipelineScratch small;
  const double alone = pipeline_makespan_s(sched, f1.data(), b1.data(), one, nullptr, small);
  EXPECT_EQ(pipeline_makespan_s(sched, f1.data(), b1.data(), one, nullptr, scratch), alone);
}

// Replicas on links of their own, their one message each started one after the other and alone on its links: when
// the 65th starts the flight-event tree grows, and the pending events of the 64 before (which nothing re-times
// later) must be carried over. Each replica then ends as it does alone.
TEST(PipelineCriticalPath, FlightEventsSurviveTheTreeGrowing) {
  const int p = 2, m = 1, replicas = 100;
  const auto sched = stage_op_orders("gpipe", p, m);
  std::vector<double> f, b, lat(replicas, 0.01), x(replicas, 5.0);
  std::vector<int> fwd, bwd;
  for (int r = 0; r < replicas; ++r) {
    f.insert(f.end(), {0.001 * (r + 1), 0.01});
    b.insert(b.end(), {0.02, 0.02});
    fwd.insert(fwd.end(), {2 * r, -1, -1});
    bwd.insert(bwd.end(), {2 * r + 1, -1, -1});
  }
  PipelineLinks all{lat.data(), x.data(), lat.data(), x.data(), fwd.data(), bwd.data(), 2 * replicas};
  all.replicas = replicas;
  PipelineScratch scratch;
  std::vector<double> end_all(static_cast<size_t>(replicas) * p);
  pipeline_makespan_s(sched, f.data(), b.data(), all, end_all.data(), scratch);
  ASSERT_GT(scratch.flights.size(), 64u);  // the tree grew: it starts with 64 leaves
  for (int r = 0; r < replicas; ++r) {
    const std::vector<int> own_f{0, -1, -1}, own_b{1, -1, -1};
    PipelineLinks one{lat.data(), x.data(), lat.data(), x.data(), own_f.data(), own_b.data(), 2};
    std::vector<double> end_one(p);
    PipelineScratch alone;
    pipeline_makespan_s(sched, f.data() + p * r, b.data() + p * r, one, end_one.data(), alone);
    EXPECT_EQ(end_all[p * r], end_one[0]);
    EXPECT_EQ(end_all[p * r + 1], end_one[1]);
  }
}

}  // namespace
}  // namespace hulk
