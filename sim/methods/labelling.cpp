#include "sim/methods/labelling.hpp"

#include <algorithm>
#include <cmath>

#include "sim/engine/isolated_run.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/methods/reference_traffic.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/place/placer.hpp"
#include "sim/scenario/catalog.hpp"

namespace hulk {

LabelledSample make_labelled_sample(std::uint64_t scenario_seed, const LabelOptions& options) {
  SamplerOptions sampler;
  sampler.gpu_types = GpuCatalog::builtin().all();
  sampler.max_total_gpus = options.max_gpus;
  LabelledSample sample;
  sample.scenario = sample_scenario(scenario_seed, sampler);
  const ReferenceTrace ref = reference_trace(sample.scenario);
  sample.traffic = ref.traffic;
  sample.times_s["greedy"] = ref.iteration_time_s;
  VerifiedSearchOptions search_options;
  search_options.total_evaluations = options.budget;
  VerifiedSearchPlacer search(search_options);
  sample.label = search.place(sample.scenario);
  double best = INFINITY;  // the label's SimGrid time was measured while choosing it
  for (const auto& c : search.candidates()) best = std::min(best, c.simgrid_s);
  sample.times_s["search"] = best;
  const Placement rr = round_robin_placement(sample.scenario);
  if (placement_problem(sample.scenario, rr, true).empty())
    sample.times_s["round-robin"] = simulated_iteration_time_s(sample.scenario, rr);
  return sample;
}

}  // namespace hulk
