#pragma once
/** @file compute_efficiency.hpp
 *  @brief Time of a stage's GPU work by operation shape: matrix multiplies at an efficiency that depends on their
 *  (M, N, K) and the GPU (NVIDIA's "Matrix Multiplication Background" user guide: arithmetic intensity against the
 *  GPU's ops:byte ratio, tile and wave quantization over its SMs), memory-bound operations (layer norms, softmax,
 *  dropouts, GeLU, residual adds, cross-entropy) at the GPU's memory bandwidth, and the fixed per-iteration work
 *  (optimizer step, gradient-norm read). Pure code.
 *
 *  Every time is returned as "peak-equivalent flop": seconds x the GPU's peak flop/s at the job's precision, so the
 *  engine and the evaluator run it as flop at the host's speed (peak x utilisation): the job's utilisation stays
 *  the one scale factor on top of the shape model, for matrix multiplies and memory-bound work alike. */
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/workload/cost_model.hpp"

namespace hulk {

/** @brief Output tile of the GEMM kernel assumed for quantization (the guide's 128x128 cuBLAS tile). */
constexpr int kGemmTileM = 128;
constexpr int kGemmTileN = 128;

/** @brief Efficiency of one GEMM (C[M x N] = A[M x K] B[K x N], elements of `element_bytes`) on `gpu` at the
 *  job's precision, as a fraction of peak in (0, 1]: 2MNK / peak over max(math time / (tile x wave quantization),
 *  bytes / memory bandwidth). `batch` > 1: the GEMM is one of `batch` equal ones run by one strided-batched kernel
 *  (the attention core's bmm), whose tiles fill the SMs' waves together. A GPU without memory bandwidth or SM
 *  count in its spec leaves out that part (1). */
double gemm_efficiency(const GpuSpec& gpu, const std::string& precision, double m, double n, double k,
                       double element_bytes, double batch = 1);

/** @brief Peak-equivalent flop of one GEMM (of a batch of `batch` in one kernel): 2MNK / gemm_efficiency. */
double gemm_equivalent_flops(const GpuSpec& gpu, const std::string& precision, double m, double n, double k,
                             double element_bytes, double batch = 1);

/** @brief Peak-equivalent flop of moving `bytes` through the GPU's memory: bytes / bandwidth x peak (0 without a
 *  memory bandwidth in the spec). */
double memory_equivalent_flops(const GpuSpec& gpu, const std::string& precision, double bytes);

/** @brief The per-layer work of one TP rank per micro-batch, in peak-equivalent flop. */
struct LayerWork {
  double forward = 0;         ///< the layer's forward: its GEMMs and memory-bound ops
  double backward = 0;        ///< its backward (data and weight gradients of every GEMM, memory-bound ops x 2)
  double attention_core = 0;  ///< forward of the attention core alone (what selective recomputation re-runs)
  double logits_forward = 0;  ///< the output layer's GEMM and cross-entropy, forward (last stage)
  double logits_backward = 0; ///< and backward
};

/** @brief Per-layer work of `job` on `gpu` (shape model: GEMMs after the TP split and memory-bound ops). */
LayerWork layer_work(const JobSpec& job, const GpuSpec& gpu);

/** @brief Bytes one rank reads and writes per parameter in the optimizer step (mixed-precision Adam: fp32 master
 *  weight, fp32 gradient and two fp32 moments read, master and moments and the 16-bit copy written: 30; fp32
 *  Adam 28; momentum SGD 22 / 20), plus the fp32 gradient read of the gradient-norm computation (4). */
double optimizer_bytes_per_param(const JobSpec& job);

/** @brief The job's stage costs as run on `gpu`: layer_fwd_flops, extra_fwd_flops and recompute_layer_flops
 *  replaced by peak-equivalent flop (forward + backward keep the engine's 1 : 2 split: each is a third of the
 *  modelled forward + backward); optimizer_flops set unless job.step_costs is off. With job.compute_model "flat" the
 *  flop are left as computed (every flop at peak x utilisation). With ZeRO the optimizer step covers the rank's
 *  1 / dp shard of the stage's parameters. */
std::vector<StageCost> stages_on_gpu(const JobSpec& job, const JobCost& nominal, const GpuSpec& gpu);

/** @brief Stage costs per host of a platform, shared between the hosts whose GPUs are equal. */
class StagesByHost {
 public:
  StagesByHost() = default;
  StagesByHost(const JobSpec& job, const JobCost& nominal, const PlatformSpec& platform);
  /** @brief Stage `s` as run on host `h`'s GPUs. */
  const StageCost& stage(int h, int s) const { return kinds_[kind_of_host_[h]][s]; }
  /** @brief True when hosts a and b have equal GPUs (the same stage costs). */
  bool same_kind(int a, int b) const { return kind_of_host_[a] == kind_of_host_[b]; }

 private:
  std::vector<std::vector<StageCost>> kinds_;
  std::vector<int> kind_of_host_;
};

}  // namespace hulk
