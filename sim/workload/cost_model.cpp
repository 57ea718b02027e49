#include "sim/workload/cost_model.hpp"

#include <algorithm>

#include "sim/workload/pipeline_schedule.hpp"
#include "sim/workload/workload_features.hpp"

namespace hulk {

std::vector<int> layers_per_stage(int layers, int pp) {
  std::vector<int> out(pp, layers / pp);
  for (int i = 0; i < layers % pp; ++i) out[i] += 1;
  return out;
}

int recompute_tp_allreduces(const JobSpec& job) {
  // Full: each layer's forward is re-run at the start of its backward, with its 2 TP all-reduces (Megatron's
  // CheckpointFunction re-runs the whole layer forward, f and g operators included). Selective recomputes only the
  // attention core, which lies between the two all-reduces and has none of its own.
  return job.recompute == "full" ? 2 : 0;
}

namespace {
/** Elements per token of the MLP's stored activations, per hidden element: the two tensors of ffn width before and
 *  after GeLU (4 ffn_hidden / hidden bytes at 16 bits, Korthikanti 2022's 16 sbh for a 4h MLP), or for a gated MLP
 *  Megatron's fused SwiGLU, which keeps its 2 x ffn input and ffn output (6 ffn_hidden / hidden bytes). */
double mlp_activation_coef(const ModelSpec& m) {
  return (m.gated_mlp ? 6.0 : 4.0) * static_cast<double>(m.ffn_or_default()) / m.hidden;
}
/** Interleaved 1F1B: a stage holds passes of one model chunk (layers / v each), as many as its schedule has in
 *  flight at its peak. */
void interleave_activations(const JobSpec& job, int p, int stage, int micro_batches, StageCost& st) {
  st.activation_bytes_per_mb /= job.virtual_stages;
  st.in_flight_micro_batches =
      max_in_flight(pipeline_schedule(job.schedule, p, stage, micro_batches, job.virtual_stages));
}
}  // namespace

double layer_matrix_params(const ModelSpec& m) {
  const double h = m.hidden;
  // K and V project onto kv_heads heads of hidden / heads each (grouped-query attention; = hidden without it).
  const double kv_width = h * m.kv_heads_or_heads() / m.heads;
  const double mlp = (m.gated_mlp ? 3.0 : 2.0) * h * static_cast<double>(m.ffn_or_default());
  return 2.0 * h * h + 2.0 * h * kv_width + mlp;
}

double model_parameters(const ModelSpec& m) {
  const double h = m.hidden, V = m.vocab;
  return layer_matrix_params(m) * m.layers + V * h * (m.tied_embeddings ? 1.0 : 2.0) +
         static_cast<double>(m.position_rows_or_default()) * h;
}

double grad_reduce_bytes_per_value(const JobSpec& job) {
  // Megatron-LM forces --accumulate-allreduce-grads-in-fp32 for bf16 (arguments.py), and fp8 training runs on a
  // bf16 base (Transformer Engine casts inside its GEMMs only); fp16 reduces in fp16.
  const bool bf16_base = job.precision == "bf16" || job.precision == "fp8";
  const std::string& p = job.grad_reduce_precision.empty() ? (bf16_base ? "fp32" : job.precision)
                                                           : job.grad_reduce_precision;
  return p == "fp32" ? 4.0 : 2.0;
}

JobCost compute_job_cost(const JobSpec& job) {
  const ModelSpec& m = job.model;
  const double b = job.micro_batch, s = m.seq_len, h = m.hidden, a = m.heads, V = m.vocab;
  const double t = job.par.tp;
  const int p = job.par.pp;
  JobCost cost;
  cost.micro_batches = job.micro_batches();
  cost.bytes_per_element = job.precision == "fp32" ? 4.0 : 2.0;
  const double elem = cost.bytes_per_element;
  // Megatron: each layer does 2 all-reduces of the full activation (b*s*h elements) in forward, 2 in backward.
  cost.tp_allreduce_bytes = b * s * h * elem;
  // Scatter/gather optimisation (Narayanan 2021, sec. 4.1): each TP rank sends 1/t of the activation.
  cost.pp_message_bytes = b * s * h * elem / t;
  // Weights + grads + optimizer state per parameter (docs/model.md; Rajbhandari et al. 2020, ZeRO, counts the same
  // parts for mixed-precision Adam; the Megatron Core distributed-optimizer guide lists the same 18 and 16 bytes
  // for its non-distributed optimizer):
  //   mixed precision (fp16/bf16): 2 (fp16 weights) + 4 (fp32 gradient buffer, Megatron's main_grad) + 4 (fp32
  //     master weights) + optimizer moments;
  //   fp32: 4 (weights) + 4 (gradients) + optimizer moments.
  // Adam keeps two fp32 moments (momentum and variance, 8 bytes): 18 and 16 bytes per parameter. Momentum SGD keeps
  // one (4 bytes): 14 and 12.
  // These parts, and their ZeRO sharding over dp, are in workload_features.cpp.
  const double state_bytes_per_param = sharded_state_bytes_per_param(job);
  // Activation recomputation (Korthikanti et al. 2022; Megatron-LM --recompute-granularity full|selective, with
  // --recompute-method uniform and one layer per checkpoint for full). Sequence parallelism splits the activations
  // outside the tensor-parallel regions over tp too (sp below; Korthikanti 2022 eq. 4-5).
  const bool full = job.recompute == "full", selective = job.recompute == "selective";
  cost.recompute_tp_allreduces = recompute_tp_allreduces(job);

  // Per-layer shape in units of h^2 (weights) and s*b*h (activations split over TP): 12 and 24 for a GPT layer.
  const double matrix_coef = layer_matrix_params(m) / (h * h);
  const double kv_ratio = static_cast<double>(m.kv_heads_or_heads()) / m.heads;
  const double split_coef = 2.0 + 4.0 * kv_ratio + 2.0 + mlp_activation_coef(m);
  const double positions = static_cast<double>(m.position_rows_or_default());
  const std::vector<int> split = layers_per_stage(m.layers, p);
  int first = 0;
  for (int i = 0; i < p; ++i) {
    StageCost st;
    st.first_layer = first;
    st.layers = split[i];
    first += split[i];
    // Forward flop per layer: 2 flop per weight per token, 2*b*s*(12*h^2) for a GPT layer, plus the attention
    // core 4*b*s^2*h (Narayanan 2021, eq. 2 / 3 per pass), split over TP. GQA and a gated MLP change only the weights.
    st.layer_fwd_flops = (2.0 * matrix_coef * b * s * h * h + 4.0 * b * s * s * h) / t;
    if (i == p - 1) st.extra_fwd_flops = 2.0 * b * s * h * V / t;  // logits
    // Parameters: the layers' matrices; word embedding V*h and a learned position table on the first stage; the
    // output matrix on the last: its own when untied (on the one stage too when p = 1), a tied copy when p > 1.
    double params = matrix_coef * h * h * st.layers;
    if (i == 0) params += V * h + positions * h;
    if (i == p - 1 && (p > 1 || !m.tied_embeddings)) params += V * h;
    st.params = params / t;
    st.weight_state_bytes = st.params * state_bytes_per_param;
    // Activations per layer, with TP but no sequence parallelism (Korthikanti 2022), in bytes for 16-bit elements,
    // scaled by elem/2 for fp32:
    //   none (eq. 2, tensor parallelism): s*b*h*(10 + 24/t + 5*a*s/(h*t));
    //   selective ("selective activation recomputation"): the attention core (softmax, its dropout, the inputs of
    //     QK^T and of attention over V: the 5*a*s/(h*t) term) is not stored but recomputed: s*b*h*(10 + 24/t);
    //   full (the paper's full-recomputation baseline): only each layer's input is stored, 2*s*b*h (not divided by
    //     t without sequence parallelism).
    //   The 24/t term is Q, K, V (2 each), the output projection's input (2) and the MLP's 16 (mlp_activation_coef);
    //   K and V shrink to kv_heads / heads with GQA.
    const double sp = non_tensor_parallel_divisor(job);
    const double act_per_layer = full        ? 2.0 * s * b * h / sp
                                 : selective ? s * b * h * (10.0 / sp + split_coef / t)
                                             : s * b * h * (10.0 / sp + split_coef / t + 5.0 * a * s / (h * t));
    st.activation_bytes_per_mb = act_per_layer * st.layers * (elem / 2.0);
    // Recomputed flop per layer per micro-batch at the start of its backward: full re-runs the forward; selective
    // the attention core, whose forward is the 4*b*s^2*h term of the layer's flop (QK^T and attention over V).
    st.recompute_layer_flops = full ? st.layer_fwd_flops : selective ? 4.0 * b * s * s * h / t : 0.0;
    st.in_flight_micro_batches = job.schedule == "gpipe" ? cost.micro_batches : std::min(cost.micro_batches, p - i);
    if (job.virtual_stages > 1) interleave_activations(job, p, i, cost.micro_batches, st);
    st.peak_memory_bytes = st.weight_state_bytes + st.activation_bytes_per_mb * st.in_flight_micro_batches;
    st.dp_grad_bytes = dp_collective_bytes(job, st.params);
    // Tied embeddings on several stages: the first stage's word embedding and the last stage's output copy sum
    // their gradients (Megatron's embedding group).
    if (p > 1 && m.tied_embeddings && (i == 0 || i == p - 1))
      st.embedding_grad_bytes = V * h / t * grad_reduce_bytes_per_value(job);
    cost.stages.push_back(st);
  }
  return cost;
}

}  // namespace hulk
