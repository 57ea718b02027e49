#pragma once
/** @file robust_check.hpp
 *  @brief What a placement costs in expectation under the scenario's `robust:` distribution, measured by SimGrid
 *  on network states drawn from a seed of their own (never the states the robust search optimised over). */
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Mean SimGrid iteration time of the placement over `states` network states of scenario.robust, drawn from
 *  component_seed(scenario.robust.seed, "robust-check") (one child process per state). @throws InputError if the
 *  scenario has no `robust:` key. */
double expected_time_under_robust_s(const Scenario& scenario, const Placement& placement, int states);

}  // namespace hulk
