// Workload features against their closed forms: Megatron's interleaved 1F1B order and bubble (Narayanan et al.
// SC'21: (p-1) / (v m) of the ideal time), ZeRO memory per GPU per stage and ZeRO-3 traffic, sequence-parallel
// activation memory, FP8 peaks, and their bad values (key, line, expectation).
#include <gtest/gtest.h>

#include "temp_file.hpp"

#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/evaluate/interleaved.hpp"
#include "sim/evaluate/pipeline_critical_path.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/pipeline_schedule.hpp"
#include "sim/workload/workload_features.hpp"

using namespace hulk;

namespace {

std::string order(const std::vector<PipeOp>& ops) {
  std::string out;
  for (const PipeOp& o : ops)
    out += (o.forward ? "F" : "B") + std::to_string(o.micro_batch) + "c" + std::to_string(o.chunk) + " ";
  return out;
}

JobSpec gpt_job(int dp, int tp, int pp) {
  JobSpec j;
  j.model = {"t", 24, 2048, 16, 1024, 50000};
  j.micro_batch = 2;
  j.par = {dp, tp, pp};
  j.global_batch = 16 * dp * j.micro_batch;
  return j;
}

}  // namespace

TEST(Interleaved, MegatronOrderOfTheFirstStage) {
  // p = 2, v = 2, m = 4, stage 0: warm-up (p-1) x 2 + (v-1) x p = 4 chunk forwards in groups of p micro-batches per
  // chunk, then one forward one backward (backwards from the last chunk down), then the cool-down.
  EXPECT_EQ(order(pipeline_schedule("1f1b", 2, 0, 4, 2)),
            "F0c0 F1c0 F0c1 F1c1 F2c0 B0c1 F3c0 B1c1 F2c1 B0c0 F3c1 B1c0 B2c1 B3c1 B2c0 B3c0 ");
  // m = p: every forward first (Megatron's all-warmup case).
  EXPECT_EQ(order(pipeline_schedule("1f1b", 2, 1, 2, 2)), "F0c0 F1c0 F0c1 F1c1 B0c1 B1c1 B0c0 B1c0 ");
}

TEST(Interleaved, EveryChunkPassOnceForwardBeforeBackward) {
  for (int p : {3, 4})
    for (int v : {2, 3})
      for (int m : {p, 2 * p, 4 * p})
        for (int s = 0; s < p; ++s) {
          const std::vector<PipeOp> ops = pipeline_schedule("1f1b", p, s, m, v);
          ASSERT_EQ(ops.size(), static_cast<size_t>(2 * m * v));
          std::vector<int> fwd(m * v, -1), bwd(m * v, -1);
          for (size_t i = 0; i < ops.size(); ++i) {
            int& at = (ops[i].forward ? fwd : bwd)[ops[i].chunk * m + ops[i].micro_batch];
            EXPECT_EQ(at, -1);
            at = static_cast<int>(i);
          }
          for (int k = 0; k < m * v; ++k) EXPECT_LT(fwd[k], bwd[k]);
        }
}

TEST(Interleaved, BubbleIsTheClosedForm) {
  // Uniform stages of forward tf and backward 2 tf (all their layers), free hand-offs: each chunk pass takes 1/v of
  // that, and the iteration is m (tf + tb) + (p-1) (tf + tb) / v: a bubble of (p-1) / (v m) of the ideal time.
  const double tf = 1.0, tb = 2.0;
  for (int p : {3, 4, 8})
    for (int v : {1, 2, 4})
      for (int m : {2 * p, 4 * p}) {
        SCOPED_TRACE("p " + std::to_string(p) + " v " + std::to_string(v) + " m " + std::to_string(m));
        std::vector<double> f(p * v), b(p * v);
        for (int s = 0; s < p; ++s) chunk_op_times(tf, tb, 0.0, v, &f[s * v], &b[s * v]);
        const std::vector<double> zero(p, 0.0);
        PipelineLinks links{zero.data(), zero.data(), zero.data(), zero.data()};
        links.chunks = v;
        PipelineScratch scratch;
        const double span = pipeline_makespan_s(stage_op_orders("1f1b", p, m, v), f.data(), b.data(), links, nullptr,
                                                scratch);
        const double ideal = m * (tf + tb);
        EXPECT_NEAR((span - ideal) / ideal / ((p - 1.0) / (v * m)), 1.0, 1e-9) << span;
      }
}

TEST(Interleaved, ChunkOpTimesCarryTheLogitsOnTheLastChunk) {
  double f[3], b[3];
  chunk_op_times(7.0, 14.0, 1.0, 3, f, b);
  EXPECT_DOUBLE_EQ(f[0], 2.0);
  EXPECT_DOUBLE_EQ(f[2], 3.0);
  EXPECT_DOUBLE_EQ(b[1], 4.0);
  EXPECT_DOUBLE_EQ(b[2], 6.0);
}

TEST(Interleaved, MemoryHoldsTheScheduleInFlightChunkPasses) {
  JobSpec j = gpt_job(1, 1, 4);
  const JobCost plain = compute_job_cost(j);
  j.virtual_stages = 3;
  const JobCost chunks = compute_job_cost(j);
  for (int s = 0; s < 4; ++s) {
    EXPECT_NEAR(chunks.stages[s].activation_bytes_per_mb * 3 / plain.stages[s].activation_bytes_per_mb, 1.0, 1e-12);
    EXPECT_EQ(chunks.stages[s].in_flight_micro_batches, max_in_flight(pipeline_schedule("1f1b", 4, s, 16, 3)));
  }
  // Stage 0 holds (p-1) x 2 + (v-1) x p + 1 = 15 chunk passes of 1/3 of its layers: 5 micro-batches' worth, more
  // than the 4 of plain 1F1B (Narayanan et al. 2021: interleaving costs activation memory).
  EXPECT_EQ(chunks.stages[0].in_flight_micro_batches, 15);
  EXPECT_GT(chunks.stages[0].peak_memory_bytes, plain.stages[0].peak_memory_bytes);
}

TEST(Zero, MemoryPerGpuPerStage) {
  // Mixed-precision Adam: 2 (weights) + 4 (fp32 gradients) + 12 (fp32 master + two moments) bytes per parameter;
  // stage 1 divides the 12 by dp, stage 2 also the 4, stage 3 also the 2.
  const int dp = 8;
  JobSpec j = gpt_job(dp, 1, 1);
  const double params = compute_job_cost(j).stages[0].params;
  const double expected[4] = {18.0, 2 + 4 + 12.0 / dp, 2 + 16.0 / dp, 18.0 / dp};
  for (int z = 0; z <= 3; ++z) {
    j.zero = z;
    EXPECT_NEAR(compute_job_cost(j).stages[0].weight_state_bytes / (params * expected[z]), 1.0, 1e-12) << z;
  }
  j.zero = 3;
  j.precision = "fp32";
  EXPECT_NEAR(compute_job_cost(j).stages[0].weight_state_bytes / (params * 16.0 / dp), 1.0, 1e-12);
}

TEST(Zero, Stage3TrafficPerRankIsOneAndAHalfAllReduces) {
  JobSpec j = gpt_job(4, 1, 1);
  j.precision = "fp16";  // gradients and weights both 16-bit
  const double params = compute_job_cost(j).stages[0].params;
  const double grad = params * 2;
  // Ring all-reduce: 2 (n-1)/n S per rank; stage 3: two all-gathers and a reduce-scatter, 3 (n-1)/n S.
  EXPECT_NEAR(dp_ring_bytes_per_rank(j, params) / (2 * 0.75 * grad), 1.0, 1e-12);
  j.zero = 2;
  EXPECT_NEAR(dp_ring_bytes_per_rank(j, params) / (2 * 0.75 * grad), 1.0, 1e-12);
  EXPECT_NEAR(compute_job_cost(j).stages[0].dp_grad_bytes / grad, 1.0, 1e-12);
  j.zero = 3;
  EXPECT_NEAR(dp_ring_bytes_per_rank(j, params) / (3 * 0.75 * grad), 1.0, 1e-12);
  EXPECT_NEAR(compute_job_cost(j).stages[0].dp_grad_bytes / (1.5 * grad), 1.0, 1e-12);
}

TEST(Zero, GradientsReduceInTheirPrecisionAndWeightsGatherInTheirs) {
  // bf16 (and fp8) jobs reduce fp32 gradients (4 bytes) and gather bf16 weights (2 bytes): without ZeRO one
  // all-reduce of 4 bytes per parameter, stages 1-2 a half of 4 + a half of 2, stage 3 a half of 4 + two of 2.
  JobSpec j = gpt_job(4, 1, 1);
  const double params = compute_job_cost(j).stages[0].params;
  const double expected[4] = {4.0, 3.0, 3.0, 4.0};
  for (const char* precision : {"bf16", "fp8"}) {
    j.precision = precision;
    for (int z = 0; z <= 3; ++z) {
      j.zero = z;
      EXPECT_NEAR(compute_job_cost(j).stages[0].dp_grad_bytes / (params * expected[z]), 1.0, 1e-12)
          << precision << " zero " << z;
    }
  }
  j.grad_reduce_precision = "bf16";  // reduced in 16 bits: stage 3 is 1.5 all-reduces again
  EXPECT_NEAR(compute_job_cost(j).stages[0].dp_grad_bytes / (params * 3.0), 1.0, 1e-12);
}

TEST(SequenceParallel, ActivationsOutsideTheTensorParallelRegionsSplitOverTp) {
  // Korthikanti et al. 2022: per layer s b h (10 + 24/t + 5 a s / (h t)) without, s b h (34/t + 5 a s / (h t)) with
  // sequence parallelism; full recomputation keeps 2 s b h, / t with it.
  const int t = 4;
  JobSpec j = gpt_job(1, t, 1);
  j.model.vocab = 1;
  const double s = j.model.seq_len, b = j.micro_batch, h = j.model.hidden, a = j.model.heads;
  const double layers = j.model.layers;
  j.sequence_parallel = true;
  const double with = compute_job_cost(j).stages[0].activation_bytes_per_mb;
  EXPECT_NEAR(with / (layers * s * b * h * (34.0 / t + 5 * a * s / (h * t))), 1.0, 1e-12);
  j.sequence_parallel = false;
  const double without = compute_job_cost(j).stages[0].activation_bytes_per_mb;
  EXPECT_NEAR(without / (layers * s * b * h * (10 + 24.0 / t + 5 * a * s / (h * t))), 1.0, 1e-12);
  j.recompute = "full";
  const double full = compute_job_cost(j).stages[0].activation_bytes_per_mb;
  j.sequence_parallel = true;
  EXPECT_NEAR(compute_job_cost(j).stages[0].activation_bytes_per_mb * t / full, 1.0, 1e-12);
  // The TP collectives carry the same activation either way (reduce-scatter + all-gather = the ring all-reduce).
  EXPECT_EQ(compute_job_cost(j).tp_allreduce_bytes, b * s * h * 2);
}

TEST(Fp8, CatalogPeakAndBf16Activations) {
  const GpuSpec* h100 = GpuCatalog::builtin().find("H100-80GB");
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(h100->fp8_flops, 1979e12);
  EXPECT_EQ(h100->peak_flops("fp8"), 1979e12);
  EXPECT_EQ(h100->peak_flops("bf16"), 989e12);
  EXPECT_EQ(GpuCatalog::builtin().find("A100-80GB")->fp8_flops, 0.0);
  JobSpec j = gpt_job(1, 2, 2);
  const JobCost bf16 = compute_job_cost(j);
  j.precision = "fp8";
  const JobCost fp8 = compute_job_cost(j);
  // Transformer Engine: bf16 activations, hand-offs and TP collectives; an fp8 copy of the weights (1 byte more).
  EXPECT_EQ(fp8.pp_message_bytes, bf16.pp_message_bytes);
  EXPECT_EQ(fp8.tp_allreduce_bytes, bf16.tp_allreduce_bytes);
  EXPECT_EQ(fp8.stages[0].activation_bytes_per_mb, bf16.stages[0].activation_bytes_per_mb);
  EXPECT_NEAR(fp8.stages[0].weight_state_bytes / (fp8.stages[0].params * 19.0), 1.0, 1e-12);
}

namespace {

const std::string kBase =
    "name: base\n"                                      // 1
    "platform:\n"                                       // 2
    "  regions:\n"                                      // 3
    "    - name: east\n"                                // 4
    "      hosts: 4\n"                                  // 5
    "      gpus_per_host: 4\n"                          // 6
    "      gpu: H100-80GB\n"                            // 7
    "job:\n"                                            // 8
    "  model: {preset: gpt3-xl}\n"                      // 9
    "  global_batch: 24\n"                              // 10
    "  micro_batch: 1\n"                                // 11
    "  parallelism: {dp: 2, tp: 2, pp: 3}\n";           // 12

Scenario load(const std::string& name, const std::string& text) {
  return load_scenario_file(hulk_test::write_temp_file("hulk_workload_features", name, text));
}

}  // namespace

TEST(WorkloadFeatureKeys, AreRead) {
  const Scenario s = load("ok.yaml", kBase + "  virtual_stages: 2\n  zero: 1\n  sequence_parallel: true\n"
                                              "  precision: fp8\n");
  EXPECT_EQ(s.only_job().virtual_stages, 2);
  EXPECT_EQ(s.only_job().zero, 1);
  EXPECT_TRUE(s.only_job().sequence_parallel);
  EXPECT_EQ(s.only_job().precision, "fp8");
  EXPECT_FALSE(s.only_job().pipeline_p2p_blocking());  // interleaved: overlapped p2p
}

TEST(WorkloadFeatureKeys, BadValuesNameKeyLineAndExpectation) {
  std::string with_batch_8 = kBase;
  with_batch_8.replace(with_batch_8.find("global_batch: 24"), 16, "global_batch: 8");
  const struct {
    std::string text;
    const char* key;
    int line;
    const char* substring;
  } cases[] = {
      {kBase + "  virtual_stages: 0\n", "job.virtual_stages", 13, "expected an integer in [1, 1000], got 0"},
      {kBase + "  virtual_stages: 5\n", "job.virtual_stages", 13, "not divisible by pp x virtual_stages = 15"},
      {kBase + "  virtual_stages: 2\n  schedule: gpipe\n", "job.virtual_stages", 13, "needs schedule 1f1b"},
      {kBase + "  virtual_stages: 2\n  pipeline_p2p: blocking\n", "job.pipeline_p2p", 14, "expected overlapped"},
      {with_batch_8 + "  virtual_stages: 2\n", "job.virtual_stages", 13,
       "micro-batches per pipeline (4) divisible by pp 3"},
      {kBase + "  zero: 5\n", "job.zero", 13, "expected an integer in [0, 3], got 5"},
      {kBase + "  zero: 3\n", "job.zero", 13, "zero 3 with pp 3 is not modelled"},
      {kBase + "  sequence_parallel: 1x\n", "job.sequence_parallel", 13, "expected true or false"},
      {kBase + "  precision: fp4\n", "job.precision", 13, "expected one of fp16 | bf16 | fp32 | fp8"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      load("bad.yaml", c.text);
      ADD_FAILURE() << "expected an InputError";
    } catch (const InputError& e) {
      EXPECT_EQ(e.key(), c.key);
      EXPECT_EQ(e.line(), c.line);
      EXPECT_NE(std::string(e.what()).find(c.substring), std::string::npos) << e.what();
    }
  }
}

TEST(WorkloadFeatureKeys, Fp8OnAGpuWithoutItNamesTheGpu) {
  std::string text = kBase + "  precision: fp8\n";
  text.replace(text.find("H100-80GB"), 9, "A100-80GB");
  try {
    load("a100fp8.yaml", text);
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.precision");
    EXPECT_NE(std::string(e.what()).find("GPU 'A100-80GB'"), std::string::npos) << e.what();
  }
}
