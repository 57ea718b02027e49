#pragma once
/** @file known_simulations.hpp
 *  @brief Quiet SimGrid results already computed in this command, so that the same placement of the same scenario
 *  is simulated once: compare simulates greedy's and round-robin's placements, the search's SimGrid check then
 *  times the same two, and compare simulates the placement the check chose. SimGrid is deterministic (the same
 *  scenario, placement and options give the same result.json), so a known result is the run's answer by
 *  construction. The caller keeps one list per scenario: a list says nothing about which scenario it holds. */
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief A placement and its quiet result.json (quiet_simulation's answer). */
struct KnownSimulation {
  Placement placement;
  nlohmann::json result;
};

/** @brief Quiet results of placements of one scenario, in the order they were added. */
using KnownSimulations = std::vector<KnownSimulation>;

/** @brief The known result of `placement` (same GPU for every rank), or nullptr. */
const nlohmann::json* find_known(const KnownSimulations& known, const Placement& placement);

/** @brief simulate_isolated(scenario, placement) with no events or spans recorded (the options of compare's rows and
 *  of the search's check), unless `known` holds the placement's result already; a new result is added to `known`
 *  (if not null). @throws InputError as simulate_isolated does. */
nlohmann::json quiet_simulation(const Scenario& scenario, const Placement& placement, KnownSimulations* known);

}  // namespace hulk
