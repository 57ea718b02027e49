#pragma once
/** @file reference_traffic.hpp
 *  @brief The traced traffic the GNN sees as edge features: a SimGrid run (in a child process) of the greedy
 *  placement, aggregated per host pair and kind. gen-data and inference use the same reference, so the model
 *  sees at inference the distribution it was trained on. */
#include <optional>

#include "sim/cluster_graph.hpp"
#include "sim/spec.hpp"

namespace hulk::cli {

/** @brief Reference traffic and the simulated time of the reference placement. */
struct ReferenceTrace {
  Placement placement;           ///< the greedy placement
  TrafficMatrix traffic;         ///< per host pair and kind, per iteration
  double iteration_time_s = 0;   ///< SimGrid time of the reference placement
};

/** @brief Places with greedy and simulates it with SimGrid in a child, recording events.
 *  @throws InputError if the job does not fit. */
ReferenceTrace reference_trace(const Scenario& scenario);

}  // namespace hulk::cli
