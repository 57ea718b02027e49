#include "sim/evaluate/estimate_trust.hpp"

#include <algorithm>

#include "sim/core/jobs.hpp"

namespace hulk {
namespace {

/** TP groups of `ranks` ranks from `first` (groups of tp consecutive ranks, ParallelPlan::rank_of) whose hosts
 *  (host_of(rank)) lie in more than one region. */
template <typename HostOf>
int across_regions(const Scenario& scenario, int tp, int first, int ranks, HostOf&& host_of) {
  int across = 0;
  for (int g = first; g + tp <= first + ranks; g += tp) {
    const int region = scenario.platform.hosts[host_of(g)].region;
    for (int t = 1; t < tp; ++t)
      if (scenario.platform.hosts[host_of(g + t)].region != region) {
        ++across;
        break;
      }
  }
  return across;
}

}  // namespace

int tp_groups_across_regions(const Scenario& scenario, const Placement& placement) {
  const int placed = static_cast<int>(placement.gpu_of_rank.size());
  int across = 0;
  for (int j = 0; j < job_count(scenario); ++j) {
    const int first = job_rank_offset(scenario, j);
    const int ranks = std::min(job_at(scenario, j).par.ranks(), placed - first);
    across += across_regions(scenario, job_at(scenario, j).par.tp, first, ranks,
                             [&](int r) { return placement.gpu_of_rank[r].host; });
  }
  return across;
}

int tp_groups_across_regions_of_hosts(const Scenario& scenario, const std::vector<int>& host_of_rank) {
  return across_regions(scenario, scenario.only_job().par.tp, 0, static_cast<int>(host_of_rank.size()),
                        [&](int r) { return host_of_rank[r]; });
}

bool estimates_checked(const Scenario& scenario) {
  const NetworkSpec& n = scenario.network;
  return !n.crosstraffic && !(n.tcp_window_bytes > 0 && n.channels_per_peer > 1);
}

bool trusted_replacement(const Scenario& scenario, const Placement& candidate, double candidate_s,
                         const Placement& reference, double reference_s) {
  const int ranks = static_cast<int>(candidate.gpu_of_rank.size());
  if (!trusted_gain(candidate_s, reference_s, ranks)) return false;
  return ranks <= kLargeJobRanks ||
         tp_groups_across_regions(scenario, candidate) <= tp_groups_across_regions(scenario, reference);
}

}  // namespace hulk
