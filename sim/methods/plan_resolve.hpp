#pragma once
/** @file plan_resolve.hpp
 *  @brief `compare` and `sweep` on a scenario whose job is partly `auto`: the plan is the first step (the layout
 *  chosen by `hulk plan` with greedy placements checked by SimGrid, plan.hpp), then every method places that
 *  layout. One plan per scenario (per sweep point), not per method: the methods are compared on the same layout,
 *  and the plan's own search step would repeat what the search method does next. */
#include <functional>
#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"

namespace hulk {

/** @brief A scenario ready for the placement methods, and the layout a plan chose for it. */
struct ResolvedScenario {
  Scenario scenario;
  std::string layout;  ///< the plan's layout ("dp4-tp1-pp2 mb1 1f1b none"); "" when nothing was auto
};

/** @brief Loads a scenario file (as load_scenario_file) where the job may be partly `auto`; then the auto parts
 *  are chosen by a plan (greedy finalists, SimGrid-checked) and the scenario gets that layout. `progress` gets the
 *  plan's progress lines (may be empty). @throws InputError as load_scenario_file, or when no layout fits. */
ResolvedScenario load_resolved_scenario_file(const std::string& path, const std::vector<Override>& overrides,
                                             bool require_memory_fit,
                                             const std::function<void(const std::string&)>& progress = {});

}  // namespace hulk
