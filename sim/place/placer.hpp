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
 *  iteration times (one job: its iteration time). Round-robin, random, greedy, exhaustive and search are one rule
 *  each for any number of jobs. */
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

/** @brief round-robin (docs/placement.md): rank r -> host (r mod H), slot (r div H), skipping hosts that are full.
 *  r counts the ranks of every job in Placement order (job after job; one job is the list of one), so the jobs take
 *  turns of one rule: job 1's first rank takes the GPU after job 0's last. Memory is not considered.
 *  @throws InputError if the ranks outnumber the GPUs. */
Placement round_robin_placement(const Scenario& scenario);

}  // namespace hulk
