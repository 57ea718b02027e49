#include "sim/workload/workload_features.hpp"

#include "sim/workload/cost_model.hpp"

namespace hulk {

ParamStateBytes param_state_bytes(const JobSpec& job) {
  ParamStateBytes b;
  const double moments = job.optimizer == "sgd" ? 4.0 : 8.0;
  if (job.precision == "fp32") {
    b.weights = 4.0;
    b.gradients = 4.0;
    b.optimizer = moments;
    return b;
  }
  // Mixed precision: 16-bit weights, fp32 gradient buffer, fp32 master weights + moments. FP8 keeps the same bf16
  // weights and adds the fp8 copy Transformer Engine caches for the iteration's micro-batches.
  b.weights = job.precision == "fp8" ? 2.0 + 1.0 : 2.0;
  b.gradients = 4.0;
  b.optimizer = 4.0 + moments;
  return b;
}

double sharded_state_bytes_per_param(const JobSpec& job) {
  const ParamStateBytes b = param_state_bytes(job);
  const double dp = job.par.dp;
  return (job.zero >= 3 ? b.weights / dp : b.weights) + (job.zero >= 2 ? b.gradients / dp : b.gradients) +
         (job.zero >= 1 ? b.optimizer / dp : b.optimizer);
}

double dp_collective_bytes(const JobSpec& job, double params) {
  const double grad = grad_reduce_bytes_per_value(job);
  const double weight = job.precision == "fp32" ? 4.0 : 2.0;  // the 16-bit copies the GEMMs read (fp8: bf16)
  // As halves of an all-reduce: stages 1-2 reduce-scatter the gradients and all-gather the updated weights; stage
  // 3 also all-gathers the weights before each backward.
  if (job.zero >= 3) return params * (grad + 2.0 * weight) / 2.0;
  if (job.zero >= 1) return params * (grad + weight) / 2.0;
  return params * grad;
}

double dp_ring_bytes_per_rank(const JobSpec& job, double params) {
  const double n = job.par.dp;
  if (n < 2) return 0.0;
  return 2.0 * (n - 1) / n * dp_collective_bytes(job, params);  // the ring all-reduce of that size
}

double non_tensor_parallel_divisor(const JobSpec& job) {
  return job.sequence_parallel ? static_cast<double>(job.par.tp) : 1.0;
}

}  // namespace hulk
