#include "sim/workload/compute_efficiency.hpp"

#include <algorithm>
#include <cmath>

#include "sim/workload/workload_features.hpp"

namespace hulk {

double gemm_efficiency(const GpuSpec& gpu, const std::string& precision, double m, double n, double k,
                       double element_bytes, double batch) {
  const double peak = gpu.peak_flops(precision);
  const double flops = 2.0 * m * n * k;
  if (flops <= 0 || peak <= 0) return 1.0;
  // Tile quantization: the kernel computes whole tiles, so a partial tile costs a full one (guide, sec. 3.1).
  // Wave quantization: the tiles run in waves of one per SM; the last wave runs part-full (guide, sec. 3.2). A
  // strided-batched kernel schedules the tiles of all its GEMMs together, so its waves count them all.
  double quantization = 1.0;
  if (gpu.sms > 0) {
    const double tiles_m = std::ceil(m / kGemmTileM), tiles_n = std::ceil(n / kGemmTileN);
    const double tiles = tiles_m * tiles_n * std::max(1.0, std::floor(batch));
    const double waves = std::ceil(tiles / gpu.sms);
    quantization = (m * n) / (tiles_m * kGemmTileM * tiles_n * kGemmTileN) * tiles / (waves * gpu.sms);
  }
  const double math_s = flops / (peak * quantization);
  // Math- or memory-bound (guide, ch. 2): A and B read and C written once.
  const double memory_s =
      gpu.memory_bandwidth_Bps > 0 ? (m * k + k * n + m * n) * element_bytes / gpu.memory_bandwidth_Bps : 0.0;
  return flops / peak / std::max(math_s, memory_s);
}

double gemm_equivalent_flops(const GpuSpec& gpu, const std::string& precision, double m, double n, double k,
                             double element_bytes, double batch) {
  return 2.0 * m * n * k / gemm_efficiency(gpu, precision, m, n, k, element_bytes, batch);
}

double memory_equivalent_flops(const GpuSpec& gpu, const std::string& precision, double bytes) {
  if (gpu.memory_bandwidth_Bps <= 0) return 0.0;
  return bytes / gpu.memory_bandwidth_Bps * gpu.peak_flops(precision);
}

namespace {

/** Forward and backward (data and weight gradients) of a linear layer y[M x N] = x[M x K] W[K x N]. */
struct Linear {
  double fwd = 0, bwd = 0;
};
Linear linear(const GpuSpec& g, const std::string& p, double m, double n, double k, double e, double batch = 1) {
  return {gemm_equivalent_flops(g, p, m, n, k, e, batch),
          gemm_equivalent_flops(g, p, m, k, n, e, batch) + gemm_equivalent_flops(g, p, k, n, m, e, batch)};
}

}  // namespace

LayerWork layer_work(const JobSpec& job, const GpuSpec& gpu) {
  const ModelSpec& md = job.model;
  const std::string& p = job.precision;
  // FP8 GEMMs run at the fp8 peak (peak_flops); their memory bound counts bf16 operands, as Transformer Engine
  // reads the bf16 tensors to cast them.
  const double e = job.precision == "fp32" ? 4.0 : 2.0;
  const double b = job.micro_batch, s = md.seq_len, h = md.hidden, t = job.par.tp;
  const double heads = md.heads / t, head_dim = h / md.heads;
  const double kv_width = h * md.kv_heads_or_heads() / md.heads;
  const double ffn = static_cast<double>(md.ffn_or_default());
  const double tokens = b * s;
  // Megatron's tensor-parallel split: QKV and the MLP's first matrix by columns, the output projection and the
  // MLP's second matrix by rows (Shoeybi et al. 2019), so every GEMM keeps M = b s tokens.
  const Linear qkv = linear(gpu, p, tokens, (h + 2.0 * kv_width) / t, h, e);
  const Linear proj = linear(gpu, p, tokens, h, h / t, e);
  const Linear fc1 = linear(gpu, p, tokens, (md.gated_mlp ? 2.0 : 1.0) * ffn / t, h, e);
  const Linear fc2 = linear(gpu, p, tokens, h, ffn / t, e);
  // Attention core, batched over b x heads / t: scores = Q K^T (s x s x head_dim), context = P V (s x head_dim x s),
  // each one strided-batched kernel over the batch (Megatron's baddbmm and bmm, forward and backward).
  const double batch = b * heads;
  const Linear scores = linear(gpu, p, s, s, head_dim, e, batch);
  const Linear context = linear(gpu, p, s, head_dim, s, e, batch);
  // Memory-bound ops of the forward, bytes (Megatron's fused kernels: one read and one write each). Replicated on
  // every TP rank, or split over it with sequence parallelism (non_tensor_parallel_divisor): two layer norms (read + write b s h), two bias-dropout-adds (read the
  // output and the residual, write the sum, a 1-byte mask). Split over TP: the fused scale-mask-softmax (read +
  // write the b heads s^2 scores), its dropout (read + write + mask), the bias-GeLU (read + write ffn per token;
  // SwiGLU reads 2 ffn).
  const double sbh = tokens * h;
  const double replicated =
      (2.0 * (2.0 * sbh * e) + 2.0 * (3.0 * sbh * e + sbh)) / non_tensor_parallel_divisor(job);
  const double scores_elems = batch * s * s;
  const double softmax = 2.0 * scores_elems * e + (2.0 * scores_elems * e + scores_elems);
  const double gelu = tokens * ffn / t * e * (md.gated_mlp ? 3.0 : 2.0);
  // Backward of an element-wise op reads the incoming gradient and what it saved and writes one gradient: twice the
  // forward's traffic.
  const double mem_fwd = replicated + softmax + gelu;
  LayerWork w;
  w.attention_core = batch * (scores.fwd + context.fwd) + memory_equivalent_flops(gpu, p, softmax);
  w.forward = qkv.fwd + proj.fwd + fc1.fwd + fc2.fwd + batch * (scores.fwd + context.fwd) +
              memory_equivalent_flops(gpu, p, mem_fwd);
  w.backward = qkv.bwd + proj.bwd + fc1.bwd + fc2.bwd + batch * (scores.bwd + context.bwd) +
               memory_equivalent_flops(gpu, p, 2.0 * mem_fwd);
  // Output layer: logits b s x V / t, then the cross-entropy in fp32 (read the logits, write the losses' softmax).
  const double vocab = md.vocab / t;
  const Linear logits = linear(gpu, p, tokens, vocab, h, e);
  const double xent = tokens * vocab * (e + 4.0);
  w.logits_forward = logits.fwd + memory_equivalent_flops(gpu, p, xent);
  w.logits_backward = logits.bwd + memory_equivalent_flops(gpu, p, xent);
  return w;
}

double optimizer_bytes_per_param(const JobSpec& job) {
  const bool mixed = job.precision != "fp32";
  const double step = job.optimizer == "sgd" ? (mixed ? 22.0 : 20.0) : (mixed ? 30.0 : 28.0);
  return step + 4.0;
}

std::vector<StageCost> stages_on_gpu(const JobSpec& job, const JobCost& nominal, const GpuSpec& gpu) {
  std::vector<StageCost> out = nominal.stages;
  // ZeRO (any stage) shards the optimizer state over dp: each rank steps its 1 / dp of the parameters.
  const double shards = job.zero >= 1 ? job.par.dp : 1.0;
  const double opt_flops_per_param =
      job.step_costs ? memory_equivalent_flops(gpu, job.precision, optimizer_bytes_per_param(job)) / shards : 0.0;
  for (StageCost& st : out) st.optimizer_flops = st.params * opt_flops_per_param;
  if (job.compute_model == "flat") return out;
  const LayerWork w = layer_work(job, gpu);
  for (StageCost& st : out) {
    // The engine runs forward = layer_fwd_flops and backward = 2 x layer_fwd_flops: each takes a third of the
    // modelled forward + backward, so a micro-batch's total is exact and the split stays the engine's.
    st.layer_fwd_flops = (w.forward + w.backward) / 3.0;
    if (st.extra_fwd_flops > 0) st.extra_fwd_flops = (w.logits_forward + w.logits_backward) / 3.0;
    if (st.recompute_layer_flops > 0)
      st.recompute_layer_flops = job.recompute == "full" ? w.forward : w.attention_core;
  }
  return out;
}

StagesByHost::StagesByHost(const JobSpec& job, const JobCost& nominal, const PlatformSpec& platform) {
  std::vector<const GpuSpec*> kinds;
  for (const HostSpec& host : platform.hosts) {
    const GpuSpec& g = host.gpu;
    int kind = -1;
    for (std::size_t i = 0; i < kinds.size() && kind < 0; ++i)
      if (kinds[i]->name == g.name && kinds[i]->fp16_flops == g.fp16_flops && kinds[i]->fp32_flops == g.fp32_flops &&
          kinds[i]->fp8_flops == g.fp8_flops &&
          kinds[i]->memory_bandwidth_Bps == g.memory_bandwidth_Bps && kinds[i]->sms == g.sms)
        kind = static_cast<int>(i);
    if (kind < 0) {
      kind = static_cast<int>(kinds.size());
      kinds.push_back(&g);
      kinds_.push_back(stages_on_gpu(job, nominal, g));
    }
    kind_of_host_.push_back(kind);
  }
}

}  // namespace hulk
