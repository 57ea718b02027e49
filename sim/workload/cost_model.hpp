#pragma once
/** @file cost_model.hpp
 *  @brief Compute, communication and memory demands of a transformer training job, per pipeline stage and rank.
 *  Pure code. Formulas: Narayanan et al. 2021 (Megatron-LM, "Efficient Large-Scale Language Model Training on
 *  GPU Clusters", SC'21) for FLOPs and traffic; Korthikanti et al. 2022 ("Reducing Activation Recomputation in
 *  Large Transformer Models") for activation memory. */
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Demands of one pipeline stage, for ONE rank of that stage (i.e. already divided by tp). */
struct StageCost {
  int first_layer = 0;                ///< index of the stage's first transformer layer
  int layers = 0;                     ///< transformer layers in the stage
  double layer_fwd_flops = 0;         ///< forward flop per layer per micro-batch, per TP rank
  double extra_fwd_flops = 0;         ///< logits (last stage) forward flop per micro-batch, per TP rank
  double params = 0;                  ///< parameters held by one rank of this stage
  double weight_state_bytes = 0;      ///< weights + gradients + optimizer state per rank
  /** @brief Activation memory per in-flight micro-batch per rank; with virtual_stages v > 1, per micro-batch pass
   *  of one model chunk (layers / v). */
  double activation_bytes_per_mb = 0;
  /** @brief Micro-batches whose activations are held at peak; with v > 1, model-chunk passes (the interleaved
   *  schedule's max_in_flight). */
  int in_flight_micro_batches = 0;
  double peak_memory_bytes = 0;       ///< weight_state + activations * in_flight
  /** @brief Bytes all-reduced across DP per rank per iteration: the gradients, x1.5 with ZeRO stage 3 (its
   *  parameter all-gathers and gradient reduce-scatter as one all-reduce of the same ring traffic,
   *  workload_features.hpp). */
  double dp_grad_bytes = 0;
  /** @brief Activation recomputation: flop per layer per micro-batch re-run at the start of that layer's backward,
   *  per TP rank (full: the layer's forward; selective: the attention core; none: 0). */
  double recompute_layer_flops = 0;
  /** @brief Optimizer step and gradient-norm read per iteration, peak-equivalent flop (0 in compute_job_cost; set by
   *  stages_on_gpu, sim/workload/compute_efficiency.hpp). */
  double optimizer_flops = 0;
  /** @brief Bytes of the tied word-embedding gradient all-reduced between the first and the last stage per rank
   *  (0 unless the embeddings are tied, pp > 1 and the stage is the first or the last). */
  double embedding_grad_bytes = 0;
  /** @brief Forward flop per micro-batch (all layers + extra). Backward = 2x forward. */
  double fwd_flops_per_mb() const { return layers * layer_fwd_flops + extra_fwd_flops; }
};

/** @brief Whole-job demands. */
struct JobCost {
  int micro_batches = 0;              ///< m: micro-batches per pipeline per iteration
  double tp_allreduce_bytes = 0;      ///< bytes of each TP all-reduce (2 per layer forward, 2 backward)
  double pp_message_bytes = 0;        ///< bytes one rank sends to the next stage per micro-batch (and back)
  double bytes_per_element = 2;       ///< 2 for fp16/bf16 (and fp8: bf16 activations), 4 for fp32
  /** @brief TP all-reduces per layer repeated in backward by recomputation (full: the forward's 2; else 0). */
  int recompute_tp_allreduces = 0;
  std::vector<StageCost> stages;      ///< one per pipeline stage
};

/** @brief Number of transformer layers in each stage: L / pp, the first L mod pp stages get one more. */
std::vector<int> layers_per_stage(int layers, int pp);

/** @brief TP all-reduces per layer per micro-batch that activation recomputation adds to the backward pass:
 *  2 for `full` (the re-run forward repeats its two), 0 for `none` and `selective`. JobCost::recompute_tp_allreduces
 *  holds the same number; this form serves callers that need no per-stage costs (work_estimate.cpp). */
int recompute_tp_allreduces(const JobSpec& job);

/** @brief Parameters of one transformer layer's weight matrices (biases and norms, O(hidden), are left out as in
 *  Narayanan 2021): attention Q and O (hidden^2 each) plus K and V (hidden x kv_heads x head size each), and the MLP's
 *  two matrices (or three, gated) of hidden x ffn_hidden. 12 hidden^2 for a GPT-style layer. */
double layer_matrix_params(const ModelSpec& model);

/** @brief Parameters of the whole model, each counted once: the layers' matrices, the word embedding (vocab x
 *  hidden), the output layer's own copy when untied, and a learned position table. A pipeline's last stage holds a
 *  tied model's output matrix once more (StageCost::params), which this total does not count. */
double model_parameters(const ModelSpec& model);

/** @brief Bytes per gradient value of the data-parallel all-reduce: JobSpec::grad_reduce_precision, or
 *  Megatron-LM's default (bf16 jobs reduce fp32 gradients, fp16 and fp32 jobs their own precision). */
double grad_reduce_bytes_per_value(const JobSpec& job);

/** @brief Computes the demands of a job. Assumes the job has been validated (divisibility etc.). */
JobCost compute_job_cost(const JobSpec& job);

}  // namespace hulk
