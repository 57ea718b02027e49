#include "sim/lab/labelling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sim/core/statistics.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/seeding.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/lab/reference_traffic.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer.hpp"
#include "sim/place/search_placer.hpp"
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

/** The job of a shared cluster a sample holds (see make_labelled_sample), from the cluster's joint label. */
LabelledSample job_sample(const Scenario& cluster, const Placement& joint, std::uint64_t scenario_seed) {
  std::vector<int> order;
  best_greedy_jobs_placement(cluster, JobsEvaluator(cluster), &order);
  const int position = static_cast<int>(component_seed(scenario_seed, "labelling#job") % order.size());
  return job_on_share_sample(cluster, joint, order, position);
}

/** --label evaluator: the annealing search over the analytic evaluator (no SimGrid anywhere), estimates only. */
LabelledSample evaluator_labelled_sample(std::uint64_t scenario_seed, const LabelOptions& options,
                                         const SamplerOptions& sampler) {
  SearchOptions search;
  search.max_evaluations = options.budget;
  LabelledSample sample;
  if (options.jobs >= 2) {
    const Scenario cluster = sample_jobs_scenario(scenario_seed, options.jobs, sampler);
    sample = job_sample(cluster, SearchPlacer(search).place(cluster), scenario_seed);
  } else {
    sample.scenario = sample_scenario(scenario_seed, sampler);
    sample.label = SearchPlacer(search).place(sample.scenario);
  }
  const Placement greedy = GreedyPlacer().place(sample.scenario);
  const Evaluator ev(sample.scenario);
  const double greedy_s = ev.iteration_time_s(greedy);
  double label_s = ev.iteration_time_s(sample.label);
  if (greedy_s < label_s) {  // the one-job search starts from greedy; a job's share of a joint search need not
    sample.label = greedy;
    label_s = greedy_s;
  }
  sample.traffic = estimate_traffic(sample.scenario, greedy);
  sample.times_s["greedy_est"] = greedy_s;
  sample.times_s["search_est"] = label_s;
  return sample;
}

}  // namespace

LabelledSample make_labelled_sample(std::uint64_t scenario_seed, const LabelOptions& options) {
  SamplerOptions sampler;
  sampler.gpu_types = GpuCatalog::builtin().all();
  sampler.max_total_gpus = options.max_gpus;
  const bool host_wan = options.wan == "host" ||
                        (options.wan == "mixed" && component_seed(scenario_seed, "labelling#wan") % 2 == 1);
  sampler.wan_capacity = host_wan ? WanCapacity::host : WanCapacity::pair;
  if (!options.simgrid) return evaluator_labelled_sample(scenario_seed, options, sampler);
  VerifiedSearchOptions search_options;
  search_options.total_evaluations = options.budget;
  VerifiedSearchPlacer search(search_options);
  LabelledSample sample;
  if (options.jobs >= 2) {
    const Scenario cluster = sample_jobs_scenario(scenario_seed, options.jobs, sampler);
    sample = job_sample(cluster, search.place(cluster), scenario_seed);
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

std::string gap_distribution_text(const std::vector<std::map<std::string, double>>& times) {
  std::vector<double> gaps;
  for (const auto& t : times) {
    const bool sim = t.count("greedy") && t.count("search"), est = t.count("greedy_est") && t.count("search_est");
    if (sim) gaps.push_back(relative_gap(t.at("greedy"), t.at("search")));
    else if (est) gaps.push_back(relative_gap(t.at("greedy_est"), t.at("search_est")));
  }
  if (gaps.empty()) return "greedy's gap to search: no sample with both times\n";
  std::sort(gaps.begin(), gaps.end());
  double sum = 0;
  for (double g : gaps) sum += g;
  const double edges[] = {0.001, 0.01, 0.05, 0.10, 0.25};
  int bucket[6] = {0, 0, 0, 0, 0, 0};
  for (double g : gaps) {
    int b = 0;
    while (b < 5 && g > edges[b]) ++b;
    ++bucket[b];
  }
  const double n = static_cast<double>(gaps.size());
  char line[512];
  std::snprintf(line, sizeof line,
                "greedy's gap to search over %zu samples: median %.1f%%, mean %.1f%%, 90th percentile %.1f%%\n"
                "  <= 0.1%%: %.0f%%, 0.1-1%%: %.0f%%, 1-5%%: %.0f%%, 5-10%%: %.0f%%, 10-25%%: %.0f%%, > 25%%: %.0f%%\n",
                gaps.size(), 100 * median(gaps), 100 * sum / n, 100 * quantile(gaps, 0.9),
                100 * bucket[0] / n, 100 * bucket[1] / n, 100 * bucket[2] / n, 100 * bucket[3] / n,
                100 * bucket[4] / n, 100 * bucket[5] / n);
  return line;
}

}  // namespace hulk
