#pragma once
/** @file placer.hpp
 *  @brief The Placer interface, the round-robin placement, and the time oracle through which placers may ask for
 *  a SimGrid time without depending on the engine. */
#include <functional>
#include <memory>
#include <string>

#include "sim/core/spec.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {

/** @brief A placement method: maps every rank of every job of the scenario (sim/core/jobs.hpp; one job is the list
 *  of one) to a distinct GPU of scenario.platform, the whole Placement, minimising the weighted mean of the jobs'
 *  iteration times (one job: its iteration time). Greedy and exhaustive are one rule for any number of jobs; the
 *  other methods have a rule of their own for more than one job (jobs_placement.hpp, jobs_search.hpp), which a
 *  `jobs:` list of one does not take. */
class Placer {
 public:
  virtual ~Placer() = default;
  /** @brief Method name as used on the command line ("round-robin", "greedy", ...). */
  virtual std::string name() const = 0;
  /** @brief Computes a valid placement (memory respected). @throws InputError if none exists. */
  virtual Placement place(const Scenario& scenario) = 0;
  /** @brief place() when the caller has greedy's placement of this scenario already (GreedyPlacer's, bit for bit):
   *  a placer that starts from it (the gnn's reference placement) does not compute it again. Default: place(). */
  virtual Placement place_given_greedy(const Scenario& scenario, const Placement& greedy) {
    (void)greedy;
    return place(scenario);
  }
};

/** @brief A placement's iteration time from a trusted source (SimGrid in a child process, given by the caller:
 *  sim/engine/isolated_run.hpp's simulated_iteration_time_s). Placers never start the engine themselves. With
 *  several jobs it gets the whole scenario and Placement and returns the cluster objective (weighted mean). */
using TimeOracle = std::function<double(const Scenario&, const Placement&)>;

/** @brief round-robin (docs/placement.md): rank r -> host (r mod H), slot (r div H), skipping hosts that are full. Several
 *  jobs (more than one): consecutive GPUs per job, round-robin inside each share (round_robin_jobs_placement). */
Placement round_robin_placement(const Scenario& scenario);

}  // namespace hulk
