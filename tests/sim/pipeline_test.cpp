// Pipeline, point-to-point, contention, intra-host TP, accounting and determinism against closed forms.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"
#include "sim/place/placer.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/core/subprocess.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {
constexpr double kNicBps = 1.25e9;
constexpr double kNicLat = 50e-6;

/** A compute-only pipeline: 1 Tflop/s GPUs, a network so fast it does not count. */
hulk::Scenario compute_only_pipeline(const std::string& schedule, int p, int m) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = 1e12;
  gpu.fp32_flops = 1e12;  // peak_flops() takes the larger of the two
  hulk::Scenario s = scenario(grid_platform(1, p, 1, 1e18, 0.0, 1e18, 0.0, gpu), small_job(1, 1, p, p, m));
  s.only_job().schedule = schedule;
  return s;
}

double forward_time(const hulk::Scenario& s) {
  return hulk::compute_job_cost(s.only_job()).stages[0].fwd_flops_per_mb() / 1e12;
}
}  // namespace

TEST(Pipeline, GPipeBubbleFraction) {
  const int p = 4, m = 8;
  hulk::Scenario s = compute_only_pipeline("gpipe", p, m);
  const double tf = forward_time(s);
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  const double expected_time = (m + p - 1) * 3 * tf;  // backward = 2 x forward
  EXPECT_NEAR(r.iteration_time_s / expected_time, 1.0, 0.01) << r.iteration_time_s << " vs " << expected_time;
  const double fraction = r.bubble_s / r.iteration_time_s;
  EXPECT_NEAR(fraction / (double(p - 1) / (m + p - 1)), 1.0, 0.01) << fraction;
  EXPECT_NEAR(r.compute_s / (m * 3 * tf), 1.0, 0.01);
}

TEST(Pipeline, OneFOneBSameTimeAsGPipeAndLessMemory) {
  const int p = 4, m = 8;
  auto run = [&](const std::string& schedule) {
    const hulk::Scenario s = compute_only_pipeline(schedule, p, m);
    return hulk::simulate_isolated(s, hulk::round_robin_placement(s), hulk::SimOptions{});  // result.json
  };
  nlohmann::json g = run("gpipe"), o = run("1f1b");
  auto mem0 = [](const nlohmann::json& r) { return r.at("peak_memory_bytes").at(0).at("bytes").get<double>(); };
  EXPECT_NEAR(o["iteration_time_s"].get<double>() / g["iteration_time_s"].get<double>(), 1.0, 0.01);
  EXPECT_NEAR(o["bubble_s"].get<double>() / g["bubble_s"].get<double>(), 1.0, 0.01);
  EXPECT_LT(mem0(o), mem0(g));
}

TEST(Pipeline, PointToPointLatencyPlusSizeOverBandwidth) {
  // Two stages on two hosts, one micro-batch, no compute: activation forward then gradient back.
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0), small_job(1, 1, 2, 2, 1));
  const double S = hulk::compute_job_cost(s.only_job()).pp_message_bytes;
  const double one = 2 * kNicLat + S / kNicBps;
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.iteration_time_s / (2 * one), 1.0, 0.01) << r.iteration_time_s << " vs " << 2 * one;
  ASSERT_EQ(r.events.size(), 2u);
  for (const auto& e : r.events) {
    EXPECT_EQ(e.kind, "pp");
    EXPECT_NEAR((e.end_s - e.start_s) / one, 1.0, 0.01);
  }
  EXPECT_EQ(r.events[0].src_rank, 0);
  EXPECT_EQ(r.events[1].src_rank, 1);
}

TEST(Pipeline, MeasuredPairLatencyReplacesRouteLatency) {
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0), small_job(1, 1, 2, 2, 1));
  s.platform.host_pair_latency_s[{0, 1}] = 7e-3;
  const double S = hulk::compute_job_cost(s.only_job()).pp_message_bytes;
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_NEAR((r.events[0].end_s - r.events[0].start_s) / (7e-3 + S / kNicBps), 1.0, 0.01);
}

TEST(Pipeline, TwoFlowsOverOneLinkTakeTwiceAsLong) {
  // pp = 2; stage 0 of every pipeline on host 0, stage 1 on host 1: the activations of dp pipelines share
  // host 0's NIC uplink. Latency made negligible so the transfer time is pure bandwidth.
  auto pp_transfer = [](int dp) {
    return hulk::run_in_child([dp]() {
      hulk::Scenario s = scenario(grid_platform(1, 2, 2, kNicBps, 0.0, 1e9, 0.0), small_job(dp, 1, 2, 2, 1));
      hulk::Placement pl;
      for (int r = 0; r < s.only_job().par.ranks(); ++r) pl.gpu_of_rank.push_back({r < dp ? 0 : 1, r % dp});
      hulk::SimResult res = hulk::simulate(s, pl);
      for (const auto& e : res.events)
        if (e.kind == "pp" && e.src_rank == 0) return nlohmann::json(e.end_s - e.start_s);
      return nlohmann::json(-1.0);
    });
  };
  const double one = pp_transfer(1).get<double>(), two = pp_transfer(2).get<double>();
  ASSERT_GT(one, 0);
  EXPECT_NEAR(two / one, 2.0, 0.02);
}

TEST(Pipeline, TensorParallelInsideHostUsesIntraHostLink) {
  // One host, 4 GPUs, tp = 4, one layer, one micro-batch: 4 ring all-reduces (2 forward, 2 backward), every flow
  // at one GPU port's bandwidth (intra_link) through the host's loopback route.
  const int t = 4;
  hulk::Scenario s = scenario(grid_platform(1, 1, t, kNicBps, kNicLat, 1e9, 0.0), small_job(1, t, 1, 1, 1));
  s.platform.hosts[0].intra_link = {2e9, 3e-6};  // far from SimGrid's default loopback (10 GB/s, 0 s)
  const double S = hulk::compute_job_cost(s.only_job()).tp_allreduce_bytes;
  const double one_allreduce = 2 * (t - 1) * 3e-6 + 2.0 * (t - 1) / t * S / 2e9;
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(r.comm_tp_s / (4 * one_allreduce), 1.0, 0.01) << r.comm_tp_s << " vs " << 4 * one_allreduce;
  EXPECT_GT(r.bytes.intra_host, 0);
  EXPECT_EQ(r.bytes.intra_region, 0);
  EXPECT_EQ(r.bytes.inter_region, 0);
  EXPECT_NEAR(r.bytes.intra_host, 4 * t * 2.0 * (t - 1) * S / t, 1.0);
}

TEST(Pipeline, TimeAccountingAddsUpAndIsPositive) {
  // A 3D job over two regions: for every rank compute + tp + dp + pp + bubble = iteration time, so the means too.
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 50e12;
  hulk::Scenario s = scenario(grid_platform(2, 2, 2, kNicBps, kNicLat, 1.25e8, 10e-3, gpu), small_job(2, 2, 2, 4, 4));
  s.only_job().iterations = 2;
  s.only_job().collective = "hierarchical";
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  const double sum = r.compute_s + r.comm_tp_s + r.comm_dp_s + r.comm_pp_s + r.bubble_s;
  EXPECT_NEAR(sum / r.iteration_time_s, 1.0, 1e-6);
  EXPECT_GT(r.compute_s, 0);
  EXPECT_GT(r.comm_tp_s, 0);
  EXPECT_GT(r.comm_dp_s, 0);
  EXPECT_GT(r.comm_pp_s, 0);
  EXPECT_NEAR(r.total_time_s, 2 * r.iteration_time_s, 1e-12);
  // Events: sorted, causal, and every message counted once.
  EXPECT_EQ(static_cast<long long>(r.events.size()), r.messages);
  for (size_t i = 0; i < r.events.size(); ++i) {
    EXPECT_LE(r.events[i].start_s, r.events[i].end_s);
    if (i > 0 && r.events[i].iteration == r.events[i - 1].iteration)
      EXPECT_LE(r.events[i - 1].start_s, r.events[i].start_s);
  }
  EXPECT_FALSE(r.spans.empty());
}

TEST(Pipeline, MemoryCheckRejectsJobThatDoesNotFit) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.memory_bytes = 1e6;
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0, gpu), small_job(1, 1, 2, 2, 1));
  s.only_job().check_memory = true;
  s.file = "job.yaml";
  try {
    hulk::simulate(s, hulk::round_robin_placement(s));
    FAIL() << "expected InputError";
  } catch (const hulk::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r0h0"), std::string::npos) << e.what();
  }
}

TEST(Pipeline, DeterministicAcrossProcesses) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 50e12;
  hulk::Scenario s = scenario(grid_platform(2, 2, 2, kNicBps, kNicLat, 1.25e8, 10e-3, gpu), small_job(2, 2, 2, 4, 4));
  s.only_job().iterations = 2;
  const std::filesystem::path base =
      std::filesystem::temp_directory_path() / ("hulk_pipeline_det_" + std::to_string(::getpid()));
  std::filesystem::remove_all(base);
  // Two child processes, each writing result.json, comm.csv and trace.json: the bytes must be equal.
  for (const char* run : {"a", "b"})
    hulk::simulate_isolated(s, hulk::round_robin_placement(s), hulk::SimOptions{}, (base / run).string());
  auto bytes = [&](const char* run, const char* file) {
    std::ifstream in(base / run / file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  for (const char* file : {"result.json", "comm.csv", "trace.json"}) EXPECT_EQ(bytes("a", file), bytes("b", file)) << file;
  EXPECT_GT(bytes("a", "comm.csv").size(), 1000u);
  std::filesystem::remove_all(base);
}

TEST(Pipeline, EagerActivationsKeepTheirTransferTimes) {
  // Stage 0 sends activations while stage 1 is still computing: they arrive before stage 1 asks for them. Their
  // recorded end_s must still be the transfer's completion (a + S/B after posting), not when stage 1 picked them up.
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = gpu.fp32_flops = 1e12;
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, kNicBps, kNicLat, 1e9, 0.0, gpu), small_job(1, 1, 2, 2, 4));
  s.only_job().schedule = "gpipe";
  const hulk::JobCost cost = hulk::compute_job_cost(s.only_job());
  const double one = 2 * kNicLat + cost.pp_message_bytes / kNicBps;
  ASSERT_LT(one, cost.stages[0].fwd_flops_per_mb() / 1e12);  // transfers do not overlap each other
  hulk::SimResult r = hulk::simulate(s, hulk::round_robin_placement(s));
  int activations = 0;
  for (const auto& e : r.events) {
    if (e.kind != "pp") continue;
    EXPECT_NEAR((e.end_s - e.start_s) / one, 1.0, 0.01) << e.collective;
    activations += e.src_rank == 0;
  }
  EXPECT_EQ(activations, 4);
  // GPipe closed form with the transfers on the critical path: F0 + a, then 4 F + 4 B on stage 1, gradient back,
  // B3 on stage 0 ... : time = (m + p - 1) * 3 tf + 2 * one (one forward hop and one backward hop exposed).
  const double tf = cost.stages[0].fwd_flops_per_mb() / 1e12;
  EXPECT_NEAR(r.iteration_time_s / (5 * 3 * tf + 2 * one), 1.0, 0.01);
}

TEST(Pipeline, FullRecomputationAddsOneForwardPerLayer) {
  // One stage, compute only: full recomputation re-runs every layer's forward in backward (not the logits), so an
  // iteration takes m (4 layer passes + 3 logits passes); selective adds only the attention core's 4bs^2h flops.
  hulk::Scenario s = compute_only_pipeline("1f1b", 1, 3);
  const hulk::JobCost none = hulk::compute_job_cost(s.only_job());
  const double layer_f = s.only_job().model.layers * none.stages[0].layer_fwd_flops / 1e12;
  const double extra_f = none.stages[0].extra_fwd_flops / 1e12;
  s.only_job().recompute = "full";
  const hulk::SimResult full = hulk::simulate(s, hulk::round_robin_placement(s));
  EXPECT_NEAR(full.iteration_time_s / (3 * (4 * layer_f + 3 * extra_f)), 1.0, 1e-9);
}
