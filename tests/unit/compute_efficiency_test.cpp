// The shape-dependent compute model (sim/workload/compute_efficiency.hpp): GEMM efficiency at named shapes, the
// optimizer step at the GPU's memory bandwidth, the gradient all-reduce's precision, the transports' achieved
// bandwidth on a link, and the new keys' bad values (one line naming file, line and key).
#include <gtest/gtest.h>

#include "temp_file.hpp"

#include <cmath>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/workload/compute_efficiency.hpp"
#include "sim/workload/cost_model.hpp"

using namespace hulk;

namespace {

GpuSpec v100() {
  const GpuSpec* g = GpuCatalog::builtin().find("V100-16GB");
  EXPECT_NE(g, nullptr);
  return *g;
}

JobSpec gpt_job(int tp) {
  JobSpec j;
  j.model = {"gpt", 4, 2048, 16, 2048, 50257};
  j.precision = "fp16";
  j.micro_batch = 1;
  j.global_batch = 8;
  j.par = {1, tp, 1};
  return j;
}

std::string write_temp(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hulk_compute_efficiency_tests", name, text);
}

/** One region of one 8-GPU host; line 5 is the host link, line 12 an extra job key. */
std::string scenario_text(const std::string& host_link, const std::string& job_key) {
  return "name: eff\n"                                                 // 1
         "platform:\n"                                                 // 2
         "  regions:\n"                                                // 3
         "    - name: dc\n"                                            // 4
         "      host_link: " + host_link + "\n"                        // 5
         "      hosts: 2\n"                                            // 6
         "      gpus_per_host: 1\n"                                    // 7
         "      gpu: V100-16GB\n"                                      // 8
         "job:\n"                                                      // 9
         "  model: {layers: 2, hidden: 1024, heads: 16, seq_len: 512, vocab: 1000}\n"  // 10
         "  global_batch: 2\n"                                         // 11
         + (job_key.empty() ? std::string() : "  " + job_key + "\n");  // 12
}

std::string error_of(const std::string& text) {
  try {
    load_scenario(write_temp("bad.yaml", text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  const std::string e = error_of(text);
  EXPECT_NE(e.find("bad.yaml:" + where + ": "), std::string::npos) << e;
  EXPECT_NE(e.find(what), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

}  // namespace

TEST(ComputeEfficiency, LargeSquareGemmIsWaveQuantizedOnly) {
  // 4096^3 on a V100 (80 SMs): 32 x 32 = 1024 tiles of 128 x 128 in 13 waves of 80 -> 1024 / 1040 of peak; the
  // math time (1.1 ms) is ten times the memory time (0.11 ms), so the bandwidth does not bind.
  EXPECT_NEAR(gemm_efficiency(v100(), "fp16", 4096, 4096, 4096, 2) / (1024.0 / 1040.0), 1.0, 1e-12);
}

TEST(ComputeEfficiency, ThinGemmIsMemoryBound) {
  // 4096 x 4096 x 64 (an attention-score shape): 2 M N K flop against (MK + KN + MN) x 2 bytes at 900 GB/s.
  const GpuSpec g = v100();
  const double m = 4096, n = 4096, k = 64;
  const double memory_s = (m * k + k * n + m * n) * 2 / 900e9;
  const double expected = 2 * m * n * k / 125e12 / memory_s;
  EXPECT_NEAR(gemm_efficiency(g, "fp16", m, n, k, 2) / expected, 1.0, 1e-12);
  EXPECT_LT(expected, 0.5);
}

TEST(ComputeEfficiency, SmallGemmLosesToWaveQuantization) {
  // 2048 x 768 (a tensor-parallel split over 8 of hidden 2048's QKV): 16 x 6 = 96 tiles -> 2 waves of 80: 96 / 160.
  EXPECT_NEAR(gemm_efficiency(v100(), "fp16", 2048, 768, 2048, 2) / (96.0 / 160.0), 1.0, 1e-12);
}

TEST(ComputeEfficiency, BatchedGemmQuantizesItsWavesOverTheWholeBatch) {
  // 4096 x 256 x 4096 on a V100 (80 SMs), math-bound (68.7 us of math against 41.9 us of memory): alone its 32 x 2 =
  // 64 tiles fill one wave to 64 / 80; five in one strided-batched kernel are 320 tiles in exactly 4 waves; six
  // are 384 tiles in 5 waves (384 / 400).
  EXPECT_NEAR(gemm_efficiency(v100(), "fp16", 4096, 256, 4096, 2), 0.8, 1e-12);
  EXPECT_NEAR(gemm_efficiency(v100(), "fp16", 4096, 256, 4096, 2, 5), 1.0, 1e-12);
  EXPECT_NEAR(gemm_efficiency(v100(), "fp16", 4096, 256, 4096, 2, 6), 0.96, 1e-12);
  EXPECT_NEAR(gemm_equivalent_flops(v100(), "fp16", 4096, 256, 4096, 2, 6) / (2.0 * 4096 * 256 * 4096 / 0.96), 1.0,
              1e-12);
}

TEST(ComputeEfficiency, GpuWithoutFiguresRunsAtPeak) {
  GpuSpec g;
  g.fp16_flops = 1e14;
  EXPECT_EQ(gemm_efficiency(g, "fp16", 100, 100, 100, 2), 1.0);
  EXPECT_EQ(memory_equivalent_flops(g, "fp16", 1e9), 0.0);
}

TEST(ComputeEfficiency, OptimizerStepIsBytesOverMemoryBandwidth) {
  const JobSpec job = gpt_job(1);
  const JobCost nominal = compute_job_cost(job);
  const GpuSpec g = v100();
  const std::vector<StageCost> st = stages_on_gpu(job, nominal, g);
  // Mixed-precision Adam: 30 bytes per parameter moved by the step, 4 read by the gradient norm.
  const double seconds = st[0].optimizer_flops / g.peak_flops("fp16");
  EXPECT_NEAR(seconds / (nominal.stages[0].params * 34.0 / 900e9), 1.0, 1e-12);
  JobSpec off = job;
  off.step_costs = false;
  EXPECT_EQ(stages_on_gpu(off, nominal, g)[0].optimizer_flops, 0.0);
}

TEST(ComputeEfficiency, ShapeModelIsSlowerThanPeakAndFlatIsUnchanged) {
  const JobSpec job = gpt_job(8);
  const JobCost nominal = compute_job_cost(job);
  const std::vector<StageCost> shape = stages_on_gpu(job, nominal, v100());
  EXPECT_GT(shape[0].layer_fwd_flops, nominal.stages[0].layer_fwd_flops);
  JobSpec flat = job;
  flat.compute_model = "flat";
  EXPECT_EQ(stages_on_gpu(flat, nominal, v100())[0].layer_fwd_flops, nominal.stages[0].layer_fwd_flops);
}

TEST(ComputeEfficiency, TensorParallelismReplicatesLayerNormsAndShrinksGemms) {
  // The per-rank work of tp 8 is more than an eighth of tp 1's: the layer norms and residual adds are not split, and
  // the split GEMMs quantize worse.
  const LayerWork one = layer_work(gpt_job(1), v100()), eight = layer_work(gpt_job(8), v100());
  EXPECT_GT(8.0 * (eight.forward + eight.backward), 1.1 * (one.forward + one.backward));
}

TEST(ComputeEfficiency, GradientReducePrecisionFollowsMegatron) {
  JobSpec j = gpt_job(1);
  EXPECT_EQ(grad_reduce_bytes_per_value(j), 2.0);  // fp16 reduces fp16
  j.precision = "bf16";
  EXPECT_EQ(grad_reduce_bytes_per_value(j), 4.0);  // bf16: --accumulate-allreduce-grads-in-fp32
  j.grad_reduce_precision = "bf16";
  EXPECT_EQ(grad_reduce_bytes_per_value(j), 2.0);
  j.grad_reduce_precision = "fp32";
  j.precision = "fp16";
  EXPECT_EQ(compute_job_cost(j).stages[0].dp_grad_bytes, compute_job_cost(j).stages[0].params * 4.0);
}

TEST(ComputeEfficiency, TransportScalesTheLinkBandwidth) {
  const Scenario plain = load_scenario(write_temp("a.yaml", scenario_text("{bandwidth: 25Gbps, latency: 50us}", "")));
  const Scenario tcp =
      load_scenario(write_temp("b.yaml", scenario_text("{bandwidth: 25Gbps, latency: 50us, transport: tcp}", "")));
  const Scenario own = load_scenario(
      write_temp("c.yaml", scenario_text("{bandwidth: 25Gbps, latency: 50us, transport: tcp, achieved: 0.5}", "")));
  const double tcp_fraction = TransportCatalog::builtin().find("tcp")->achieved;
  EXPECT_NEAR(plain.platform.hosts[0].host_link.bandwidth_Bps, 25e9 / 8, 1e-3);
  EXPECT_NEAR(tcp.platform.hosts[0].host_link.bandwidth_Bps, 25e9 / 8 * tcp_fraction, 1e-3);
  EXPECT_NEAR(own.platform.hosts[0].host_link.bandwidth_Bps, 25e9 / 8 * 0.5, 1e-3);
}

TEST(ComputeEfficiency, ReadsTheJobKeys) {
  const Scenario defaults = load_scenario(write_temp("d.yaml", scenario_text("{bandwidth: 25Gbps}", "")));
  EXPECT_EQ(defaults.only_job().compute_model, "shape");
  EXPECT_TRUE(defaults.only_job().step_costs);
  EXPECT_EQ(defaults.only_job().framework_overhead_s, 0.0);
  const Scenario s = load_scenario(write_temp(
      "k.yaml", scenario_text("{bandwidth: 25Gbps}", "compute_model: flat\n  grad_reduce_precision: fp32\n"
                                                     "  framework_overhead: 2s\n  step_costs: false")));
  EXPECT_EQ(s.only_job().compute_model, "flat");
  EXPECT_EQ(s.only_job().grad_reduce_precision, "fp32");
  EXPECT_EQ(s.only_job().framework_overhead_s, 2.0);
  EXPECT_FALSE(s.only_job().step_costs);
}

TEST(ComputeEfficiency, BadValuesAreOneLineWithFileLineAndKey) {
  expect_error(scenario_text("{bandwidth: 25Gbps, transport: tpc}", ""), "5", "unknown transport 'tpc'");
  expect_error(scenario_text("{bandwidth: 25Gbps, achieved: 1.5}", ""), "5", "(0, 1]");
  expect_error(scenario_text("{bandwidth: 25Gbps}", "compute_model: fast"), "12", "job.compute_model");
  expect_error(scenario_text("{bandwidth: 25Gbps}", "grad_reduce_precision: fp8"), "12", "job.grad_reduce_precision");
  expect_error(scenario_text("{bandwidth: 25Gbps}", "framework_overhead: -1s"), "12", "job.framework_overhead");
  expect_error(scenario_text("{bandwidth: 25Gbps}", "step_costs: maybe"), "12", "job.step_costs");
}
