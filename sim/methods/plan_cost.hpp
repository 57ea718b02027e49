#pragma once
/** @file plan_cost.hpp
 *  @brief What a placed layout costs under the scenario's `prices:` (PriceSpec), as Sailor prices a plan: the GPUs
 *  it holds for an iteration (each used GPU at its kind's price per GPU-hour) plus the bytes its traffic moves
 *  between regions (the traffic estimate's bytes per region pair, traffic_estimate.hpp, at the pair's price per GB),
 *  per 1M tokens trained. GPUs the layout leaves idle are not paid for: they are free for another job. */
#include <limits>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The two parts of a placement's cost; NaN when the scenario has no prices. */
struct PlacementCost {
  double gpu_usd_per_s = std::numeric_limits<double>::quiet_NaN();           ///< the used GPUs' price per second
  double egress_usd_per_iteration = std::numeric_limits<double>::quiet_NaN();  ///< inter-region bytes' price
  double egress_gb_per_iteration = std::numeric_limits<double>::quiet_NaN();   ///< those bytes, in GB
  /** @brief $ per 1M tokens at `time_s` per iteration of `tokens` tokens (NaN without prices). */
  double usd_per_mtokens(double time_s, double tokens) const {
    return (gpu_usd_per_s * time_s + egress_usd_per_iteration) / tokens * 1e6;
  }
};

/** @brief True if the scenario's prices price every GPU kind of its platform and every region pair (what
 *  placement_cost needs; the loader requires it with `objective: cost`). */
bool prices_complete(const Scenario& scenario);

/** @brief The cost parts of a placement of the scenario's job (NaN parts when !prices_complete). */
PlacementCost placement_cost(const Scenario& scenario, const Placement& placement);

/** @brief The cheapest price per GPU-second of the platform's GPUs (NaN when !prices_complete): with a time lower
 *  bound, a lower bound of any placement's cost. */
double cheapest_gpu_usd_per_s(const Scenario& scenario);

}  // namespace hulk
