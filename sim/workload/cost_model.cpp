#include "sim/workload/cost_model.hpp"

#include <algorithm>

namespace hulk {

std::vector<int> layers_per_stage(int layers, int pp) {
  std::vector<int> out(pp, layers / pp);
  for (int i = 0; i < layers % pp; ++i) out[i] += 1;
  return out;
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
  // Weights + grads + optimizer: mixed precision Adam = 16 bytes/param + 2 for fp16 weights (DESIGN.md);
  // fp32 Adam = 4 (weights) + 4 (grads) + 8 (two moments).
  const double state_bytes_per_param = elem == 2.0 ? 18.0 : 16.0;

  const std::vector<int> split = layers_per_stage(m.layers, p);
  int first = 0;
  for (int i = 0; i < p; ++i) {
    StageCost st;
    st.first_layer = first;
    st.layers = split[i];
    first += split[i];
    // Forward flop per layer: 24*b*s*h^2 + 4*b*s^2*h (Narayanan 2021, eq. 2 / 3 per pass), split over TP.
    st.layer_fwd_flops = (24.0 * b * s * h * h + 4.0 * b * s * s * h) / t;
    if (i == p - 1) st.extra_fwd_flops = 2.0 * b * s * h * V / t;  // logits
    // Parameters: 12*h^2 per layer; word embedding V*h on the first stage and (tied copy) on the last.
    double params = 12.0 * h * h * st.layers;
    if (i == 0) params += V * h + s * h;
    if (i == p - 1 && p > 1) params += V * h;
    st.params = params / t;
    st.weight_state_bytes = st.params * state_bytes_per_param;
    // Activations per layer without recompute, with TP but no sequence parallelism (Korthikanti 2022, eq. 2):
    // s*b*h*(10 + 24/t + 5*a*s/(h*t)) bytes (fp16); scaled by elem/2 for fp32.
    st.activation_bytes_per_mb = s * b * h * (10.0 + 24.0 / t + 5.0 * a * s / (h * t)) * st.layers * (elem / 2.0);
    st.in_flight_micro_batches = job.schedule == "gpipe" ? cost.micro_batches : std::min(cost.micro_batches, p - i);
    st.peak_memory_bytes = st.weight_state_bytes + st.activation_bytes_per_mb * st.in_flight_micro_batches;
    st.dp_grad_bytes = st.params * elem;
    cost.stages.push_back(st);
  }
  return cost;
}

}  // namespace hulk
