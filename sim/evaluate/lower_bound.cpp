#include "sim/evaluate/lower_bound.hpp"

#include <algorithm>
#include <vector>

#include "sim/core/jobs.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/evaluate/interleaved.hpp"
#include "sim/evaluate/pipeline_critical_path.hpp"

namespace hulk {

double fastest_gpu_flops(const Scenario& scenario) {
  double v = 0.0;
  for (const auto& h : scenario.platform.hosts)
    if (h.gpus > 0) v = std::max(v, h.gpu.peak_flops(scenario.only_job().precision) * scenario.only_job().utilisation);
  return v;
}

namespace {

void stage_times(const Scenario& scenario, const JobCost& cost, std::vector<double>& f, std::vector<double>& b) {
  const double v = fastest_gpu_flops(scenario);
  for (const auto& st : cost.stages) {
    f.push_back(st.fwd_flops_per_mb() / v);
    b.push_back(2.0 * st.fwd_flops_per_mb() / v);
  }
}

/** The bound of a one-job scenario. */
double one_job_lower_bound_s(const Scenario& scenario) {
  const JobCost cost = compute_job_cost(scenario.only_job());
  std::vector<double> f, b;
  stage_times(scenario, cost, f, b);
  const int p = static_cast<int>(f.size()), v = scenario.only_job().virtual_stages;
  if (v > 1) {  // per model chunk: layers / v each, the logits with the last chunk (PipelineLinks::chunks)
    std::vector<double> fc(f.size() * v), bc(b.size() * v);
    for (int s = 0; s < p; ++s) {
      const double logits = cost.stages[s].extra_fwd_flops / fastest_gpu_flops(scenario);
      chunk_op_times(f[s], b[s], logits, v, &fc[s * v], &bc[s * v]);
    }
    f.swap(fc);
    b.swap(bc);
  }
  const std::vector<double> zero(std::max(1, p), 0.0);
  const auto schedule = stage_op_orders(scenario.only_job().schedule, p, std::max(1, cost.micro_batches), v);
  PipelineScratch scratch;
  PipelineLinks free_links{zero.data(), zero.data(), zero.data(), zero.data()};
  free_links.chunks = v;
  return pipeline_makespan_s(schedule, f.data(), b.data(), free_links, nullptr, scratch);
}

}  // namespace

double lower_bound_s(const Scenario& scenario) {
  // Each job's own bound holds whatever the other jobs do (sharing only slows a job), so their weighted mean
  // bounds the weighted mean; one job's is its own bound (weight w: w t / w).
  std::vector<double> bounds;
  for (int j = 0; j < job_count(scenario); ++j) bounds.push_back(one_job_lower_bound_s(job_view(scenario, j)));
  return weighted_objective(scenario, bounds);
}

double closed_form_bound_s(const Scenario& scenario) {
  const JobCost cost = compute_job_cost(scenario.only_job());
  std::vector<double> f, b;
  stage_times(scenario, cost, f, b);
  double sum = 0.0, mx = 0.0;
  for (size_t i = 0; i < f.size(); ++i) {
    sum += f[i] + b[i];
    mx = std::max(mx, f[i] + b[i]);
  }
  const int m = std::max(1, cost.micro_batches);
  // Interleaved 1F1B fills and drains by model chunks: only the busiest stage's own work is sure.
  if (scenario.only_job().virtual_stages > 1) return m * mx;
  return sum + (m - 1) * mx;
}

}  // namespace hulk
