#include "sim/methods/labelling.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/core/jobs.hpp"
#include "sim/core/seeding.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/methods/reference_traffic.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/place/placer.hpp"
#include "sim/scenario/catalog.hpp"

namespace hulk {

namespace {

/** One job of a shared cluster as a one-job sample: job order[position] on the GPUs the joint label left after the
 *  jobs before it, its label the joint label's placement of that job there. */
LabelledSample job_on_share_sample(const Scenario& cluster, const Placement& joint, const std::vector<int>& order,
                                   int position) {
  std::vector<GpuSlot> used;
  for (int k = 0; k < position; ++k) {
    const Placement earlier = job_slice(cluster, joint, order[k]);
    used.insert(used.end(), earlier.gpu_of_rank.begin(), earlier.gpu_of_rank.end());
  }
  const int j = order[position];
  const GpuShare share = make_gpu_share(cluster, j, free_gpus(cluster.platform, used));
  std::map<GpuSlot, GpuSlot> to_share;
  for (int h = 0; h < static_cast<int>(share.original.size()); ++h)
    for (int slot = 0; slot < static_cast<int>(share.original[h].size()); ++slot)
      to_share[share.original[h][slot]] = GpuSlot{h, slot};
  LabelledSample sample;
  sample.scenario = share.scenario;
  sample.scenario.name = cluster.name + "/" + job_at(cluster, j).name;
  for (const GpuSlot& g : job_slice(cluster, joint, j).gpu_of_rank) sample.label.gpu_of_rank.push_back(to_share.at(g));
  return sample;
}

}  // namespace

LabelledSample make_labelled_sample(std::uint64_t scenario_seed, const LabelOptions& options) {
  SamplerOptions sampler;
  sampler.gpu_types = GpuCatalog::builtin().all();
  sampler.max_total_gpus = options.max_gpus;
  VerifiedSearchOptions search_options;
  search_options.total_evaluations = options.budget;
  VerifiedSearchPlacer search(search_options);
  LabelledSample sample;
  if (options.jobs >= 2) {
    const Scenario cluster = sample_jobs_scenario(scenario_seed, options.jobs, sampler);
    const Placement joint = search.place(cluster);
    std::vector<int> order;
    best_greedy_jobs_placement(cluster, JobsEvaluator(cluster), &order);
    const int position = static_cast<int>(component_seed(scenario_seed, "labelling#job") % order.size());
    sample = job_on_share_sample(cluster, joint, order, position);
    sample.times_s["search"] = simulated_iteration_time_s(sample.scenario, sample.label);
  } else {
    sample.scenario = sample_scenario(scenario_seed, sampler);
    sample.label = search.place(sample.scenario);
    double best = INFINITY;  // the label's SimGrid time was measured while choosing it
    for (const auto& c : search.candidates()) best = std::min(best, c.simgrid_s);
    sample.times_s["search"] = best;
  }
  const ReferenceTrace ref = reference_trace(sample.scenario);
  sample.traffic = ref.traffic;
  sample.times_s["greedy"] = ref.iteration_time_s;
  const Placement rr = round_robin_placement(sample.scenario);
  if (placement_problem(sample.scenario, rr, true).empty())
    sample.times_s["round-robin"] = simulated_iteration_time_s(sample.scenario, rr);
  return sample;
}

}  // namespace hulk
