#include "sim/place/placer.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"

namespace hulk {

Placement round_robin_placement(const Scenario& scenario) {
  const auto& hosts = scenario.platform.hosts;
  // The jobs' ranks one after the other (Placement order): several jobs are one list of ranks here, so a `job:`
  // scenario and a `jobs:` list of one place alike.
  const int ranks = total_ranks(scenario);
  Placement p;
  // Rounds over the hosts in listed order, one GPU per host per round; hosts with fewer GPUs drop out of later
  // rounds. With equal hosts this is exactly rank r -> host r mod H, slot r div H.
  for (int round = 0; static_cast<int>(p.gpu_of_rank.size()) < ranks; ++round) {
    bool any = false;
    for (int h = 0; h < static_cast<int>(hosts.size()) && static_cast<int>(p.gpu_of_rank.size()) < ranks; ++h) {
      if (round < hosts[h].gpus) {
        p.gpu_of_rank.push_back({h, round});
        any = true;
      }
    }
    if (!any)
      throw InputError(scenario.file, 0, names_jobs(scenario) ? "jobs" : "job.parallelism",
                       std::string(names_jobs(scenario) ? "the jobs need " : "the job needs ") +
                           std::to_string(ranks) + " GPUs but the platform has " +
                           std::to_string(scenario.platform.total_gpus()));
  }
  return p;
}

}  // namespace hulk
