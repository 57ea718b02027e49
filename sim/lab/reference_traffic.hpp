#pragma once
/** @file reference_traffic.hpp
 *  @brief gen-data's SimGrid run (in a child process) of the greedy placement: its iteration time (a data set's
 *  "greedy" time) and its traced traffic per host pair and kind, stored in the sample for analysis. The model does
 *  not read it: training and inference use sim/traffic_estimate.hpp's estimate, which needs no simulation. */
#include <optional>

#include "sim/features/cluster_graph.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Reference traffic and the simulated time of the reference placement. */
struct ReferenceTrace {
  Placement placement;           ///< the greedy placement
  TrafficMatrix traffic;         ///< per host pair and kind, per iteration
  double iteration_time_s = 0;   ///< SimGrid time of the reference placement
};

/** @brief Places with greedy and simulates it with SimGrid in a child, recording events.
 *  @throws InputError if the job does not fit. */
ReferenceTrace reference_trace(const Scenario& scenario);

}  // namespace hulk
