#pragma once
/** @file traffic_estimate.hpp
 *  @brief Per host pair traffic of a placement computed from the job's communication pattern, without running
 *  the simulator (alpha-beta, no contention). Pure code.
 *
 *  The learned placer reads a reference placement's traffic as edge features. A SimGrid trace of it costs
 *  seconds on large jobs (more than the placement budget of a learned policy); this estimate costs
 *  microseconds and is used for training and inference alike, so the model sees one distribution.
 *
 *  Per iteration and per (unordered) host pair:
 *  - TP: every TP group runs 4 all-reduces of tp_allreduce_bytes per layer per micro-batch (2 forward, 2
 *    backward); a ring all-reduce over n ranks sends 2(n-1) chunks of S/n along every ring edge.
 *  - PP: pp_message_bytes per micro-batch forward (rank -> next stage) and backward (next -> rank).
 *  - DP: one all-reduce of the stage's dp_grad_bytes per DP group, counted as a ring in dp order whatever the
 *    configured algorithm (hierarchical and tree move the same order of bytes; this is a feature, not a time).
 *  busy_s = messages x route latency + bytes / route bandwidth (route_between): the time the pair's traffic
 *  would keep its route busy alone. */
#include "sim/core/traffic_matrix.hpp"
#include "sim/topology/host_route.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Estimated traffic of `placement` (must be valid for the scenario's job and platform).
 *  @throws InputError if a rank's host is outside the platform. */
TrafficMatrix estimate_traffic(const Scenario& scenario, const Placement& placement);

}  // namespace hulk
