// The closed form of private tensor-parallel groups (sim/engine/private_ring.hpp: computes and ring all-reduces of a
// forward or backward) against the step-by-step path it replaces, one exec per compute and one SimGrid message per
// ring step: the same
// scenario simulated both ways (SimOptions::tp_closed_form), each in its own child process, must give the same
// iteration time (within 0.1%, the bound; the largest difference is printed), the same message count and
// bytes, and the same comm.csv rows. Each case also checks whether the closed form was taken at all, so a case that
// silently fell back to messages cannot pass as agreement; and where the intra-host link is shared it must not be.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/subprocess.hpp"
#include "sim/engine/private_ring.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/report/outputs.hpp"
#include "sim_fixtures.hpp"

namespace {

namespace fs = std::filesystem;

// Ranks in Megatron order onto hosts in order, `per_host` ranks per host (a TP group of tp <= per_host shares a host).
hulk::Placement packed(const hulk::Scenario& s, int per_host) {
  hulk::Placement p;
  for (int r = 0; r < s.only_job().par.ranks(); ++r) p.gpu_of_rank.push_back({r / per_host, r % per_host});
  return p;
}

struct Run {
  nlohmann::json result;
  long long closed_form = 0;
  std::string comm_csv;
  nlohmann::json spans;
  double span_s = 0;
};

Run run(const hulk::Scenario& s, const hulk::Placement& placement, bool closed_form) {
  const nlohmann::json out = hulk::run_in_child([&] {
    hulk::SimOptions o;
    o.tp_closed_form = closed_form;
    const hulk::SimResult r = hulk::simulate(s, placement, o);
    // Spans without their times (sorted), and their total duration (compared with a tolerance).
    std::vector<std::string> spans;
    double span_s = 0;
    for (const hulk::Span& x : r.spans) {
      spans.push_back(std::to_string(x.rank) + "|" + x.name + "|" + x.cat);
      span_s += x.end_s - x.start_s;
    }
    std::sort(spans.begin(), spans.end());
    return nlohmann::json{{"result", hulk::result_to_json(s, r)},
                          {"closed_form", r.tp_closed_form_collectives},
                          {"comm_csv", hulk::comm_csv(s, r)},
                          {"spans", spans},
                          {"span_s", span_s}};
  });
  return Run{out["result"], out["closed_form"].get<long long>(), out["comm_csv"].get<std::string>(), out["spans"],
             out["span_s"].get<double>()};
}

double rel(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

// Per-message and closed-form runs agree; returns the closed-form run's count of closed-form collectives.
long long expect_agreement(const hulk::Scenario& s, const hulk::Placement& placement) {
  const Run messages = run(s, placement, false), closed = run(s, placement, true);
  EXPECT_EQ(messages.closed_form, 0);
  const double t_msg = messages.result["iteration_time_s"].get<double>();
  const double t_cf = closed.result["iteration_time_s"].get<double>();
  std::printf("iteration time: per-message %.12g s, closed form %.12g s, relative difference %.3g (%lld collectives "
              "in closed form)\n", t_msg, t_cf, rel(t_cf, t_msg), closed.closed_form);
  EXPECT_LE(rel(t_cf, t_msg), 1e-3);
  for (const char* key : {"compute_s", "bubble_s"})
    EXPECT_LE(rel(closed.result[key].get<double>(), messages.result[key].get<double>()), 1e-3) << key;
  EXPECT_EQ(closed.result["messages"], messages.result["messages"]);
  EXPECT_EQ(closed.result["bytes"], messages.result["bytes"]);
  // Same rows (collective ids, endpoints, sizes) in comm.csv; their times are compared through the iteration time.
  const auto rows = [](const std::string& csv) {
    std::vector<std::string> out;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) out.push_back(line.substr(0, line.rfind(',', line.rfind(',') - 1)));
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(rows(closed.comm_csv), rows(messages.comm_csv));
  EXPECT_EQ(closed.spans, messages.spans);  // trace.json: the same spans, merged the same way
  EXPECT_LE(rel(closed.span_s, messages.span_s), 1e-3);
  return closed.closed_form;
}

hulk::Scenario base(int regions, int hosts, int gpus, int dp, int tp, int pp, int layers, int micro_batches) {
  hulk::PlatformSpec p = hulk_test::grid_platform(regions, hosts, gpus, 12.5e9, 5e-6, 1.25e9, 20e-3);
  hulk::GpuSpec gpu = hulk_test::infinite_gpu();
  gpu.fp16_flops = 50e12;  // compute comparable to the transfers, so timing overlaps matter
  for (auto& h : p.hosts) h.gpu = gpu;
  return hulk_test::scenario(p, hulk_test::small_job(dp, tp, pp, layers, micro_batches));
}

}  // namespace

TEST(PrivateRingTimeline, EqualEntriesTakeStepsTimesTransfer) {
  const std::vector<double> exit = hulk::ring_step_timeline({1.0, 1.0, 1.0, 1.0}, 6, 0.25, 1, nullptr);
  for (double e : exit) EXPECT_DOUBLE_EQ(e, 1.0 + 6 * 0.25);
}

TEST(PrivateRingTimeline, LateMemberDelaysEveryoneByItsLateness) {
  // The closed form of tests/sim/connections_test.cpp: a ring with one member late by D ends at D + steps x T.
  int transfers = 0;
  const std::vector<double> exit =
      hulk::ring_step_timeline({0.0, 0.0, 3.0, 0.0}, 6, 0.5, 1, [&](const hulk::RingStepTransfer&) { ++transfers; });
  EXPECT_EQ(transfers, 4 * 6);
  for (double e : exit) EXPECT_DOUBLE_EQ(e, 3.0 + 6 * 0.5);
}

TEST(PrivateRing, FullHostGroupsOneFOneB) {
  hulk::Scenario s = base(2, 2, 4, /*dp*/ 2, /*tp*/ 4, /*pp*/ 2, 4, 4);
  EXPECT_GT(expect_agreement(s, packed(s, 4)), 0);
}

TEST(PrivateRing, TwoGroupsPerHostGpipeOverlapped) {
  // Stages 0 and 2 share host 0, stages 1 and 3 host 1 (4 GPUs each of 8): 8 flows at most on 8 ports' capacity.
  hulk::Scenario s = base(1, 2, 8, /*dp*/ 1, /*tp*/ 4, /*pp*/ 4, 4, 3);
  s.only_job().schedule = "gpipe";
  s.only_job().iterations = 2;
  hulk::Placement p;
  for (int r = 0; r < s.only_job().par.ranks(); ++r) {
    const int stage = r / 4;
    p.gpu_of_rank.push_back({stage % 2, (stage / 2) * 4 + r % 4});
  }
  EXPECT_GT(expect_agreement(s, p), 0);
}

TEST(PrivateRing, NotTakenWhenDataParallelPeersShareTheHost) {
  // dp 2 x tp 4 packed 8 per host: each rank also has a DP peer on its host, 16 possible flows on 8 ports' capacity.
  hulk::Scenario s = base(2, 2, 8, /*dp*/ 2, /*tp*/ 4, /*pp*/ 4, 4, 3);
  EXPECT_EQ(expect_agreement(s, packed(s, 8)), 0);
}

TEST(PrivateRing, TwoChannelsPerPeerFullRecompute) {
  hulk::Scenario s = base(2, 2, 4, /*dp*/ 2, /*tp*/ 2, /*pp*/ 2, 3, 4);
  s.network.channels_per_peer = 2;  // 2 ranks x 2 channels on 4 ports: still cannot bind
  s.only_job().recompute = "full";
  s.only_job().collective = "tree";
  EXPECT_GT(expect_agreement(s, packed(s, 2)), 0);
}

TEST(PrivateRing, MembersEnterAtDifferentTimes) {
  // Stage 0's TP group is split over the two regions (not private), stage 1's sits on one host: its members get their
  // activations over different routes (local vs WAN) and enter their all-reduces at different times.
  hulk::Scenario s = base(2, 2, 2, /*dp*/ 1, /*tp*/ 2, /*pp*/ 2, 4, 4);
  hulk::Placement p;
  p.gpu_of_rank = {{0, 0}, {2, 0}, {1, 0}, {1, 1}};
  EXPECT_GT(expect_agreement(s, p), 0);
}

TEST(PrivateRing, MessagesArriveWhileAMemberWaitsForTheOthers) {
  // Stage 0's TP group spans regions 0 and 1 (not private), stage 1's sits on the host of region 2. Rank 3's
  // activations come over a WAN pipe 1,250x slower than rank 2's, so rank 2 waits at every forward for rank 3 while
  // its next activations arrive. Those eager messages start while it waits; if the waiting suspended the actor,
  // they would start suspended and never resume: SimGrid would declare a deadlock (as on sampled wan-host clusters
  // of the gnn-families run).
  hulk::Scenario s = base(3, 1, 2, /*dp*/ 1, /*tp*/ 2, /*pp*/ 2, 2, 8);
  s.only_job().schedule = "gpipe";
  s.platform.wan[1][2].bandwidth_Bps = s.platform.wan[2][1].bandwidth_Bps = 1e6;
  hulk::Placement p;
  p.gpu_of_rank = {{0, 0}, {1, 0}, {2, 0}, {2, 1}};
  EXPECT_GT(expect_agreement(s, p), 0);
}

TEST(PrivateRing, EightWayGroupsHierarchicalDp) {
  hulk::Scenario s = base(2, 2, 8, /*dp*/ 2, /*tp*/ 8, /*pp*/ 2, 2, 4);
  s.only_job().collective = "hierarchical";
  EXPECT_GT(expect_agreement(s, packed(s, 8)), 0);
}

TEST(PrivateRing, NotTakenWhenPipelineNeighboursShareTheIntraHostLink) {
  // Two stages' TP groups on one 4-GPU host, pipeline neighbours side by side: per rank a TP and a PP connection,
  // 8 possible flows on a link of 4 ports' capacity. The link can bind, so every step stays a message.
  hulk::Scenario s = base(1, 2, 4, /*dp*/ 2, /*tp*/ 2, /*pp*/ 2, 2, 2);
  hulk::Placement p;
  // stage 0 dp 0 -> host 0 slots 0,1; stage 1 dp 0 -> host 0 slots 2,3; dp 1 likewise on host 1.
  p.gpu_of_rank = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}};
  EXPECT_EQ(expect_agreement(s, p), 0);
}

TEST(PrivateRing, NotTakenWhenTheGroupSpansHosts) {
  hulk::Scenario s = base(1, 4, 2, /*dp*/ 1, /*tp*/ 4, /*pp*/ 1, 2, 2);
  EXPECT_EQ(expect_agreement(s, packed(s, 2)), 0);
}
