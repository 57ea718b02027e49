// Workload features in SimGrid's rank actors, against their closed forms and the analytic evaluator: the interleaved
// 1F1B bubble (p-1) / (v m) of the ideal time, ZeRO-3's DP traffic per rank (1.5 all-reduces), sequence
// parallelism's TP bytes (the all-reduce's on a ring), FP8 compute at the GPU's fp8 peak.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sim/core/subprocess.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/core/traffic_matrix.hpp"
#include "sim/place/placer.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/work_estimate.hpp"
#include "sim/workload/workload_features.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {

/** A compute-only pipeline: 1 Tflop/s GPUs, one per host, a network so fast it does not count. */
hulk::Scenario compute_only(int p, int v, int m) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = 1e12;
  gpu.fp32_flops = 1e12;
  hulk::Scenario s = scenario(grid_platform(1, p, 1, 1e18, 0.0, 1e18, 0.0, gpu), small_job(1, 1, p, p * v, m));
  s.only_job().virtual_stages = v;
  return s;
}

/** One simulation in a child process (SimGrid runs once per process): its times, rank 0's peak memory and the
 *  bytes each rank sent per message kind ("dp", "tp", "pp"). */
struct SimRun {
  double iteration_time_s = 0, comm_dp_s = 0, compute_s = 0, memory0 = 0;
  std::vector<std::map<std::string, double>> sent;
};

SimRun run_sim(const hulk::Scenario& s, const hulk::Placement& pl) {
  const nlohmann::json j = hulk::run_in_child([&]() {
    const hulk::SimResult r = hulk::simulate(s, pl);
    nlohmann::json out{{"t", r.iteration_time_s}, {"dp", r.comm_dp_s}, {"compute", r.compute_s},
                       {"mem0", r.peak_memory_bytes.at(0)}};
    std::vector<std::map<std::string, double>> sent(s.only_job().par.ranks());
    for (const hulk::CommEvent& e : r.events) sent.at(e.src_rank)[e.kind] += e.bytes;
    out["sent"] = sent;
    return out;
  });
  SimRun r;
  r.iteration_time_s = j["t"].get<double>();
  r.comm_dp_s = j["dp"].get<double>();
  r.compute_s = j["compute"].get<double>();
  r.memory0 = j["mem0"].get<double>();
  r.sent = j["sent"].get<std::vector<std::map<std::string, double>>>();
  return r;
}

double bytes_sent_by(const SimRun& r, int rank, const std::string& kind) {
  const auto& m = r.sent.at(rank);
  return m.count(kind) ? m.at(kind) : 0.0;
}

}  // namespace

TEST(InterleavedSim, BubbleIsTheClosedFormAndTheEvaluatorFollows) {
  const int p = 4, m = 8;
  for (int v : {1, 2, 4}) {
    SCOPED_TRACE("v " + std::to_string(v));
    const hulk::Scenario s = compute_only(p, v, m);
    const hulk::JobCost cost = hulk::compute_job_cost(s.only_job());
    const double tf = cost.stages[0].fwd_flops_per_mb() / 1e12;  // a stage's forward over all its chunks
    const hulk::Placement pl = hulk::round_robin_placement(s);
    const SimRun r = run_sim(s, pl);
    const double ideal = m * 3 * tf;
    // Narayanan et al. 2021, sec. 2.2.2: the bubble shrinks by v.
    EXPECT_NEAR((r.iteration_time_s - ideal) / ideal / ((p - 1.0) / (v * m)), 1.0, 0.02) << r.iteration_time_s;
    EXPECT_NEAR(hulk::Evaluator(s).iteration_time_s(pl) / r.iteration_time_s, 1.0, 0.01);
  }
}

TEST(InterleavedSim, HandOffsCrossTheNetworkPerChunkAndTheEvaluatorFollows) {
  // A real network (1 GB/s NICs, 50 us): v chunks cross each boundary, v - 1 go back from the last stage to the first.
  hulk::Scenario s = scenario(grid_platform(1, 3, 1, 1.25e9, 50e-6, 1e9, 0.0), small_job(1, 1, 3, 6, 6));
  s.only_job().virtual_stages = 2;
  const hulk::Placement pl = hulk::round_robin_placement(s);
  const SimRun r = run_sim(s, pl);
  const double S = hulk::compute_job_cost(s.only_job()).pp_message_bytes;
  EXPECT_DOUBLE_EQ(bytes_sent_by(r, 0, "pp"), (2 * 6 + 1 * 6) * S);  // activations of 2 chunks, gradients of 1
  EXPECT_DOUBLE_EQ(bytes_sent_by(r, 2, "pp"), (1 * 6 + 2 * 6) * S);
  EXPECT_NEAR(hulk::Evaluator(s).iteration_time_s(pl) / r.iteration_time_s, 1.0, 0.05);
}

TEST(ZeroSim, Stage3SendsOneAndAHalfAllReducesPerRank) {
  hulk::Scenario s = scenario(grid_platform(1, 4, 1, 1.25e9, 50e-6, 1e9, 0.0), small_job(4, 1, 1, 2, 2));
  const hulk::Placement pl = hulk::round_robin_placement(s);
  const double params = hulk::compute_job_cost(s.only_job()).stages[0].params;
  const double grad = params * hulk::grad_reduce_bytes_per_value(s.only_job());
  const SimRun plain = run_sim(s, pl);
  s.only_job().zero = 3;
  const SimRun zero3 = run_sim(s, pl);
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_NEAR(bytes_sent_by(plain, rank, "dp") / (2 * 0.75 * grad), 1.0, 1e-9);
    EXPECT_NEAR(bytes_sent_by(zero3, rank, "dp") / (3 * 0.75 * grad), 1.0, 1e-9);
    EXPECT_NEAR(bytes_sent_by(zero3, rank, "dp") / hulk::dp_ring_bytes_per_rank(s.only_job(), params), 1.0, 1e-9);
  }
  EXPECT_GT(zero3.comm_dp_s, 1.4 * plain.comm_dp_s);
  EXPECT_NEAR(hulk::Evaluator(s).iteration_time_s(pl) / zero3.iteration_time_s, 1.0, 0.05);
}

TEST(SequenceParallelSim, TpBytesAreTheAllReducesOnARing) {
  const int t = 4, layers = 2, m = 2;
  hulk::Scenario s = scenario(grid_platform(1, 4, 1, 1.25e9, 50e-6, 1e9, 0.0), small_job(1, t, 1, layers, m));
  const hulk::Placement pl = hulk::round_robin_placement(s);
  const double S = hulk::compute_job_cost(s.only_job()).tp_allreduce_bytes;
  const SimRun plain = run_sim(s, pl);
  s.only_job().sequence_parallel = true;
  const SimRun sp = run_sim(s, pl);
  // Per layer and micro-batch 2 collectives forward, 2 backward, each 2 (t-1)/t S per rank on a ring.
  const double expected = 4.0 * layers * m * 2 * (t - 1.0) / t * S;
  for (int rank = 0; rank < t; ++rank) {
    EXPECT_NEAR(bytes_sent_by(sp, rank, "tp") / expected, 1.0, 1e-9);
    EXPECT_EQ(bytes_sent_by(sp, rank, "tp"), bytes_sent_by(plain, rank, "tp"));
  }
  EXPECT_DOUBLE_EQ(sp.iteration_time_s, plain.iteration_time_s);
  EXPECT_LT(sp.memory0, plain.memory0);
}

TEST(Fp8Sim, ComputeRunsAtTheFp8Peak) {
  hulk::GpuSpec gpu = infinite_gpu();
  gpu.fp16_flops = 1e12;
  gpu.fp32_flops = 1e11;
  gpu.fp8_flops = 2e12;
  hulk::Scenario s = scenario(grid_platform(1, 2, 1, 1e18, 0.0, 1e18, 0.0, gpu), small_job(1, 1, 2, 2, 4));
  const hulk::Placement pl = hulk::round_robin_placement(s);
  const SimRun bf16 = run_sim(s, pl);
  s.only_job().precision = "fp8";
  const SimRun fp8 = run_sim(s, pl);
  EXPECT_NEAR(fp8.compute_s / bf16.compute_s, 0.5, 1e-6);
  EXPECT_NEAR(hulk::Evaluator(s).iteration_time_s(pl) / fp8.iteration_time_s, 1.0, 0.01);
}

TEST(InterleavedSim, WorkEstimateCountsTheEngineMessages) {
  hulk::Scenario s = scenario(grid_platform(2, 3, 2, 10e9, 10e-6, 1e9, 1e-3), small_job(2, 2, 3, 6, 6));
  s.only_job().virtual_stages = 2;
  const hulk::Placement pl = hulk::round_robin_placement(s);
  const hulk::WorkEstimate w = hulk::estimate_work(s.only_job(), s.platform, pl);
  const nlohmann::json result = hulk::simulate_isolated(s, pl, hulk::SimOptions{});
  EXPECT_EQ(w.messages, result.at("messages").get<double>()) << "pp " << w.pp_messages;
}

TEST(InterleavedSim, TrafficEstimateMatchesSimGridBytes) {
  // The GNN's edge features: every host pair's bytes per kind as the engine moves them, the hand-offs of every chunk
  // and those from the last stage back to the first included.
  hulk::Scenario s = scenario(grid_platform(1, 3, 2, 1.25e9, 50e-6, 1e9, 0.0), small_job(2, 1, 3, 6, 6));
  s.only_job().virtual_stages = 2;
  const hulk::Placement pl = hulk::round_robin_placement(s);
  const hulk::SimResult r = hulk::simulate(s, pl);
  const hulk::TrafficMatrix traced = hulk::traffic_from_events(s.platform, r.events);
  const hulk::TrafficMatrix estimated = hulk::estimate_traffic(s, pl);
  double total = 0;
  for (int k = 0; k < hulk::kCommKinds; ++k)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        const auto kind = static_cast<hulk::CommKind>(k);
        const double want = traced.bytes_between(kind, a, b);
        total += want;
        EXPECT_NEAR(estimated.bytes_between(kind, a, b), want, 1e-6 * want + 1.0) << k << " " << a << "-" << b;
      }
  EXPECT_GT(total, 0);
}
