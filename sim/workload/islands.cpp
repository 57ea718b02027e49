#include "sim/workload/islands.hpp"

#include <algorithm>
#include <map>

#include "sim/core/errors.hpp"

namespace hulk {

namespace {

/** The island key of a host: its region, itself, or its island group (-1: none). */
int island_key(const Scenario& s, int host) {
  const SyncSpec& sync = s.only_job().sync;
  if (sync.islands == "region") return s.platform.hosts[host].region;
  if (sync.islands == "host") return host;
  for (std::size_t g = 0; g < sync.island_groups.size(); ++g)
    for (const std::string& name : sync.island_groups[g])
      if (name == s.platform.hosts[host].name) return static_cast<int>(g);
  return -1;
}

}  // namespace

IslandPlan island_plan(const Scenario& s, const Placement& placement) {
  const ParallelPlan plan(s.only_job().par);
  IslandPlan out;
  std::map<int, int> island_of_key;
  for (int d = 0; d < s.only_job().par.dp; ++d) {
    const int host = placement.gpu_of_rank.at(plan.rank_of(0, d, 0)).host;
    const int key = island_key(s, host);
    if (key < 0)
      throw InputError(s.file, 0, "job.sync.islands",
                       "replica " + std::to_string(d) + " runs on host " + s.platform.hosts[host].name +
                           ", which is in no island group (expected every replica's host in one of the groups)");
    const auto [it, added] = island_of_key.emplace(key, out.islands());
    if (added) out.replicas.emplace_back();
    out.island_of_replica.push_back(it->second);
    out.replicas[it->second].push_back(d);
  }
  out.slices = static_cast<int>(out.replicas.front().size());
  for (const auto& r : out.replicas) out.slices = std::min(out.slices, static_cast<int>(r.size()));
  return out;
}

std::vector<int> island_dp_group(const ParallelPlan& plan, const IslandPlan& islands, int rank) {
  const RankCoord c = plan.coord_of(rank);
  std::vector<int> group;
  for (int d : islands.replicas[islands.island_of_replica[c.dp]]) group.push_back(plan.rank_of(c.pp, d, c.tp));
  return group;
}

std::vector<int> outer_group(const ParallelPlan& plan, const IslandPlan& islands, int rank, int& slice) {
  const RankCoord c = plan.coord_of(rank);
  const std::vector<int>& mine = islands.replicas[islands.island_of_replica[c.dp]];
  slice = static_cast<int>(std::find(mine.begin(), mine.end(), c.dp) - mine.begin());
  std::vector<int> group;
  if (slice >= islands.slices || islands.islands() < 2) return group;
  for (const std::vector<int>& island : islands.replicas) group.push_back(plan.rank_of(c.pp, island[slice], c.tp));
  return group;
}

double outer_allreduce_bytes(const JobSpec& job, double stage_params, const IslandPlan& islands) {
  return stage_params * job.sync.bytes_per_value() / islands.slices;
}

}  // namespace hulk
