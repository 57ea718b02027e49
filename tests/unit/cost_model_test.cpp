// Cost model (sim/workload/cost_model.cpp): activation recomputation (none | selective | full) and the optimizer
// state (adam | sgd) against numbers worked out by hand from the formulas cited there, and the memory check that
// follows them (placement_check.cpp).
#include <gtest/gtest.h>

#include "placement_test_platforms.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

// b 2, s 512, h 1024, a 16, t 2, 4 layers over pp 2 (2 per stage), no vocabulary: the numbers below are by hand.
JobSpec knob_job(const std::string& recompute, const std::string& optimizer = "adam",
                 const std::string& precision = "fp16") {
  JobSpec j = testing::make_job(1, 2, 2, 4, "1f1b", testing::small_model(4, 0));
  j.micro_batch = 2;
  j.global_batch = 8;  // 4 micro-batches
  j.recompute = recompute;
  j.optimizer = optimizer;
  j.precision = precision;
  return j;
}

// s*b*h = 512 * 2 * 1024 = 1,048,576 elements; a layer's forward: (24 b s h^2 + 4 b s^2 h) / t
//   = (25,769,803,776 + 2,147,483,648) / 2 = 13,958,643,712 flop; the attention core 4 b s^2 h / t = 1,073,741,824.
constexpr double kLayerFwdFlops = 13958643712.0;
constexpr double kAttentionCoreFlops = 1073741824.0;

TEST(CostModel, NoRecomputeKeepsEveryActivation) {
  const JobCost c = compute_job_cost(knob_job("none"));
  EXPECT_EQ(c.recompute_tp_allreduces, 0);
  for (const StageCost& st : c.stages) {
    EXPECT_EQ(st.recompute_layer_flops, 0.0);
    EXPECT_DOUBLE_EQ(st.layer_fwd_flops, kLayerFwdFlops);
    // s b h (10 + 24/t + 5 a s / (h t)) = 1,048,576 x (10 + 12 + 20) = 44,040,192 bytes per layer, 2 layers.
    EXPECT_DOUBLE_EQ(st.activation_bytes_per_mb, 88080384.0);
  }
}

TEST(CostModel, SelectiveRecomputeDropsTheAttentionCore) {
  const JobCost c = compute_job_cost(knob_job("selective"));
  EXPECT_EQ(c.recompute_tp_allreduces, 0);
  for (const StageCost& st : c.stages) {
    EXPECT_DOUBLE_EQ(st.recompute_layer_flops, kAttentionCoreFlops);
    // s b h (10 + 24/t) = 1,048,576 x 22 per layer, 2 layers.
    EXPECT_DOUBLE_EQ(st.activation_bytes_per_mb, 46137344.0);
  }
}

TEST(CostModel, FullRecomputeKeepsOnlyLayerInputs) {
  const JobCost c = compute_job_cost(knob_job("full"));
  EXPECT_EQ(c.recompute_tp_allreduces, 2);
  EXPECT_EQ(recompute_tp_allreduces(knob_job("full")), 2);
  EXPECT_EQ(recompute_tp_allreduces(knob_job("selective")), 0);
  for (const StageCost& st : c.stages) {
    EXPECT_DOUBLE_EQ(st.recompute_layer_flops, kLayerFwdFlops);
    // 2 s b h bytes per layer (not divided by t), 2 layers.
    EXPECT_DOUBLE_EQ(st.activation_bytes_per_mb, 4194304.0);
    EXPECT_DOUBLE_EQ(st.peak_memory_bytes,
                     st.weight_state_bytes + st.activation_bytes_per_mb * st.in_flight_micro_batches);
  }
}

TEST(CostModel, Fp32DoublesActivationsOfEveryRecomputeMode) {
  const double fp16[] = {88080384.0, 46137344.0, 4194304.0};
  const char* modes[] = {"none", "selective", "full"};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(modes[i]);
    const JobCost c = compute_job_cost(knob_job(modes[i], "adam", "fp32"));
    EXPECT_DOUBLE_EQ(c.stages[0].activation_bytes_per_mb, 2 * fp16[i]);
    // The recomputed flop do not depend on the precision.
    EXPECT_DOUBLE_EQ(c.stages[0].recompute_layer_flops, compute_job_cost(knob_job(modes[i])).stages[0].recompute_layer_flops);
  }
}

TEST(CostModel, OptimizerStateBytesPerParameter) {
  // Mixed precision: 2 weights + 4 fp32 grads + 4 fp32 master + moments (Adam 8, momentum SGD 4); fp32: 4 + 4 +
  // moments. Recompute changes no weight state.
  const struct {
    const char* optimizer;
    const char* precision;
    double bytes;
  } cases[] = {{"adam", "fp16", 18}, {"adam", "bf16", 18}, {"sgd", "fp16", 14},
               {"adam", "fp32", 16}, {"sgd", "fp32", 12}};
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.optimizer) + " " + c.precision);
    for (const char* recompute : {"none", "full"}) {
      const JobCost cost = compute_job_cost(knob_job(recompute, c.optimizer, c.precision));
      for (const StageCost& st : cost.stages) {
        ASSERT_GT(st.params, 0);
        EXPECT_DOUBLE_EQ(st.weight_state_bytes / st.params, c.bytes);
      }
    }
  }
  // 12 h^2 x 2 layers / t = 12,582,912 parameters per rank of the last stage (no vocabulary).
  EXPECT_DOUBLE_EQ(compute_job_cost(knob_job("none")).stages[1].params, 12582912.0);
}

TEST(CostModel, FullRecomputeMakesAStageFitThatDidNot) {
  // Stage 0 of 1f1b holds min(m, pp) = 2 micro-batches: none needs weights + 2 x 84 MiB, full weights + 2 x 4 MiB.
  JobSpec none = knob_job("none");
  none.check_memory = true;
  JobSpec full = none;
  full.recompute = "full";
  const StageCost a = compute_job_cost(none).stages[0], b = compute_job_cost(full).stages[0];
  EXPECT_DOUBLE_EQ(a.weight_state_bytes, b.weight_state_bytes);
  const double memory = (a.peak_memory_bytes + b.peak_memory_bytes) / 2;  // between the two needs
  ASSERT_LT(b.peak_memory_bytes, memory);
  ASSERT_GT(a.peak_memory_bytes, memory);
  const PlatformSpec p = testing::make_platform({4}, 1, testing::make_gpu("small", 100e12, memory));
  const Placement placement{{{0, 0}, {1, 0}, {2, 0}, {3, 0}}};
  const std::string refused = placement_problem(testing::make_scenario(p, none), placement, true);
  EXPECT_NE(refused.find("needs"), std::string::npos) << refused;
  EXPECT_EQ(placement_problem(testing::make_scenario(p, full), placement, true), "");
}

}  // namespace
}  // namespace hulk
