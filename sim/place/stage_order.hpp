#pragma once
/** @file stage_order.hpp
 *  @brief Reordering a placement's pipeline stages over the same GPU blocks.
 *
 *  A placement gives pipeline stage s a block of dp x tp GPUs. Across regions, the order in which those blocks are
 *  chained matters as much as the blocks themselves: the same hosts visited in another order can avoid a slow WAN
 *  link that the pipeline's hand-offs otherwise cross every micro-batch (on a design-seed cluster, greedy's chain
 *  crossed a slow region pair that another order of its own blocks avoids). Local moves (swapping two ranks or two
 *  stages) find such orders only after many evaluations, since the first steps of a reordering are rarely faster.
 *
 *  This solves the ordering as a path problem on a proxy and leaves the choice to the caller's cost function:
 *  - hand-off cost of block x followed by block y: the slower direction (activations x -> y, gradients y -> x) of
 *    one message per rank pair (rank i of x to rank i of y, as the evaluator pairs them), each taking its route's
 *    latency plus the message bytes over its route's most loaded shared link (flows counted per link);
 *  - cost of an order: (m - 1) x its slowest hand-off + the sum of its hand-offs (m micro-batches: the slowest
 *    boundary paces the steady state, every boundary adds to the fill), and the plain sum as a second objective;
 *  - search: first-improvement swaps and segment reversals from the current order and from nearest-neighbour
 *    chains, a fixed budget of proxy evaluations (deterministic).
 *  The proxy ignores compute (a block's stage index changes its layer count only by one and the first and last
 *  stages' extras), memory and DP traffic: candidates come in both orientations and the caller evaluates them. */
#include <functional>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/place/fastest_candidate.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief Placements that give the pipeline stages' GPU blocks of `placement` to other stages (each block's rank
 *  order kept), best first by the proxy (file comment), each order followed by its reversal; at most `limit`, none
 *  equal to `placement`, duplicates removed. Memory is not checked (placement_violation() is the caller's). Empty
 *  for jobs with fewer than 2 stages or placements of another size than the job's ranks. Deterministic.
 *  network: the platform's route model if the caller has one (nullptr: built here, O(hosts^2)). */
std::vector<Placement> stage_order_candidates(const Scenario& scenario, const Placement& placement, int limit,
                                              const RouteModel* network = nullptr);

/** @brief A placement and its time by the caller's cost function. */
struct TimedPlacement {
  Placement placement;
  double time_s = 0;
};

/** @brief The fastest by `time_s` of `start` (whose time is start_time_s) and its stage_order_candidates() (at most
 *  `limit`, network as there) that are valid placements (placement_problem() == "", memory as the job says);
 *  `start` on ties. */
TimedPlacement fastest_stage_order(const Scenario& scenario, const Placement& start, double start_time_s, int limit,
                                   const std::function<double(const Placement&)>& time_s,
                                   const RouteModel* network = nullptr, const PlacementBound& bound = {});

/** @brief The proxy's cost (seconds, file comment: (m - 1) x slowest hand-off + their sum) of the placement's own
 *  stage order; 0 for jobs with fewer than 2 stages. stage_order_candidates() come by this cost, lowest first. */
double stage_order_cost(const Scenario& scenario, const Placement& placement);

}  // namespace hulk
