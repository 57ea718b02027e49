#pragma once
/** @file scenario_loading.hpp
 *  @brief Loads a scenario file with every platform source available, SimGrid XML included (its describer lives in
 *  the engine, which the scenario layer may not use). What the commands call. */
#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"

namespace hulk {

/** @brief load_scenario() with the engine's SimGrid XML describer; with require_memory_fit, the job (or the jobs
 *  together) must also be able to get GPUs that hold their stages, whatever the placement (memory_fit.hpp: key
 *  job.parallelism or jobs[i]). A sweep loads its points without it: a point that fits no GPU is a row whose methods
 *  failed, not a bad input. @throws InputError as load_scenario(). */
Scenario load_scenario_file(const std::string& path, const std::vector<Override>& overrides = {},
                            bool require_memory_fit = true);

/** @brief load_scenario() with the engine's describer for `hulk plan`: parts of the job may be `auto`
 *  (Scenario::plan); the memory fit is then checked per layout by the plan. (load_scenario_file refuses `auto`:
 *  the other commands need the layout.) @throws InputError as load_scenario(). */
Scenario load_plan_scenario_file(const std::string& path, const std::vector<Override>& overrides = {});

}  // namespace hulk
