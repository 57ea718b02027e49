#pragma once
/** @file isolated_run.hpp
 *  @brief simulate() in a forked child process (SimGrid's engine cannot be reset, so every evaluation gets its
 *  own process). The parent never starts SimGrid. */
#include <string>

#include <nlohmann/json.hpp>

#include "sim/engine/simulator.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Runs simulate() in a child. If out_dir is non-empty the child also writes result.json, comm.csv and
 *  trace.json there (atomically). Returns result_to_json() of the run.
 *  @throws InputError as simulate() does (re-thrown from the child). */
nlohmann::json simulate_isolated(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                 const std::string& out_dir = "");

/** @brief Convenience: the simulated iteration time only (no events or spans recorded); with several jobs the
 *  objective (weighted mean of the jobs' iteration times, sim/core/jobs.hpp). */
double simulated_iteration_time_s(const Scenario& scenario, const Placement& placement);

}  // namespace hulk
