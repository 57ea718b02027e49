#include "sim/evaluate/estimate_trust.hpp"

#include "sim/core/jobs.hpp"

namespace hulk {

int tp_groups_across_regions(const Scenario& scenario, const Placement& placement) {
  int across = 0;
  for (int j = 0; j < job_count(scenario); ++j) {
    const int tp = job_at(scenario, j).par.tp, first = job_rank_offset(scenario, j);
    const int ranks = job_at(scenario, j).par.ranks();
    // A TP group is tp consecutive ranks (ParallelPlan::rank_of).
    for (int g = first; g + tp <= first + ranks && g + tp <= static_cast<int>(placement.gpu_of_rank.size()); g += tp) {
      const int region = scenario.platform.hosts[placement.gpu_of_rank[g].host].region;
      for (int t = 1; t < tp; ++t)
        if (scenario.platform.hosts[placement.gpu_of_rank[g + t].host].region != region) {
          ++across;
          break;
        }
    }
  }
  return across;
}

bool trusted_replacement(const Scenario& scenario, const Placement& candidate, double candidate_s,
                         const Placement& reference, double reference_s) {
  const int ranks = static_cast<int>(candidate.gpu_of_rank.size());
  if (!trusted_gain(candidate_s, reference_s, ranks)) return false;
  return ranks <= kLargeJobRanks ||
         tp_groups_across_regions(scenario, candidate) <= tp_groups_across_regions(scenario, reference);
}

}  // namespace hulk
