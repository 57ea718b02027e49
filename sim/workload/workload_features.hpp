#pragma once
/** @file workload_features.hpp
 *  @brief Memory and traffic of the optional workload features of a job: ZeRO / FSDP sharding over the data-parallel
 *  group, sequence parallelism and FP8 compute. Pure code; compute_job_cost (cost_model.cpp) applies them.
 *
 *  - ZeRO (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models"):
 *    stage 1 shards the optimizer state (fp32 master weights and moments) over dp, stage 2 also the gradients,
 *    stage 3 also the parameters (PyTorch FSDP's FULL_SHARD is stage 3). Stages 1 and 2 replace the gradient
 *    all-reduce by a reduce-scatter of gradients and an all-gather of the updated parameters: on a ring the same
 *    2 (n-1)/n x S bytes per rank when gradients and weights have one precision (the gather moves the 16-bit
 *    weights when the gradients reduce in fp32: dp_collective_bytes). Stage 3 all-gathers the parameters before each layer's forward and again before
 *    its backward and reduce-scatters the gradients: 3 (n-1)/n x S, 1.5x the all-reduce.
 *  - Sequence parallelism (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
 *    Models", sec. 4.2.2): each TP all-reduce becomes a reduce-scatter and an all-gather (the same bytes on a ring)
 *    and the activations of the parts outside the tensor-parallel regions (layer norms, dropouts) are split over tp.
 *  - FP8 (NVIDIA Transformer Engine): the GEMMs run at the GPU's fp8 peak; activations, pipeline hand-offs and TP
 *    collectives stay bf16 (Transformer Engine casts to fp8 inside its GEMMs only), and the weights' fp8 copies are
 *    cached across the micro-batches of an iteration (1 byte per parameter more). */
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Bytes per parameter of each part of the training state, before any sharding. */
struct ParamStateBytes {
  double weights = 0;    ///< the weights the GEMMs read (2 mixed precision, 4 fp32; + 1 fp8 copy with fp8)
  double gradients = 0;  ///< the gradient buffer (fp32: Megatron's main_grad, or the fp32 gradients)
  double optimizer = 0;  ///< fp32 master weights (mixed precision) and the optimizer's moments
};

/** @brief Unsharded state per parameter of the job's precision and optimizer (docs/model.md "Memory"): mixed
 *  precision 2 + 4 + (4 + moments), fp32 4 + 4 + moments; Adam has two fp32 moments (8 bytes), momentum SGD one. */
ParamStateBytes param_state_bytes(const JobSpec& job);

/** @brief State bytes per parameter held by one GPU after ZeRO sharding over dp: each part the job's stage shards is
 *  divided by dp (stage 1: optimizer; 2: + gradients; 3: + weights). zero 0 or dp 1: the sum of the parts. */
double sharded_state_bytes_per_param(const JobSpec& job);

/** @brief Bytes each rank sends per iteration in the DP collectives, on a ring of dp members, for a stage of
 *  `params` parameters: 2 (n-1)/n x dp_collective_bytes(). With equal gradient and weight precisions that is
 *  2 (n-1)/n S without ZeRO and with stages 1-2 (reduce-scatter + all-gather), 3 (n-1)/n S with stage 3 (two
 *  weight all-gathers + the gradient reduce-scatter), S the gradient bytes. */
double dp_ring_bytes_per_rank(const JobSpec& job, double params);

/** @brief The all-reduce-equivalent size of a stage's DP communication (StageCost::dp_grad_bytes) for `params`
 *  parameters: the reduce-scatter of gradients moves grad_reduce_bytes_per_value() per parameter (fp32 for bf16
 *  and fp8 jobs by default), each all-gather of weights their 16-bit (fp32 job: 32-bit) copies. Without ZeRO
 *  params x g; stages 1-2 params x (g + w) / 2; stage 3 params x (g + 2 w) / 2. The engine and the evaluator run
 *  one all-reduce of this size after the pipeline, whose ring moves exactly dp_ring_bytes_per_rank(). */
double dp_collective_bytes(const JobSpec& job, double params);

/** @brief Divisor of the activations outside the tensor-parallel regions (Korthikanti 2022's 10 sbh per layer, and
 *  the 2 sbh input a full-recomputation layer keeps): tp with sequence parallelism, else 1. */
double non_tensor_parallel_divisor(const JobSpec& job);

}  // namespace hulk
