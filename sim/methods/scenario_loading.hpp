#pragma once
/** @file scenario_loading.hpp
 *  @brief Loads a scenario file with every platform source available, SimGrid XML included (its describer lives in
 *  the engine, which the scenario layer may not use). What the commands call. */
#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"

namespace hulk {

/** @brief load_scenario() with the engine's SimGrid XML describer; several jobs must also fit the GPUs' memory
 *  together (jobs_memory_fit.hpp). @throws InputError as load_scenario(). */
Scenario load_scenario_file(const std::string& path, const std::vector<Override>& overrides = {});

}  // namespace hulk
