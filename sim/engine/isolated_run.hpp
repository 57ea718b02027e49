#pragma once
/** @file isolated_run.hpp
 *  @brief simulate() in a forked child process (SimGrid's engine cannot be reset, so every evaluation gets its
 *  own process). The parent never starts SimGrid. */
#include <string>

#include <nlohmann/json.hpp>

#include "sim/engine/simulator.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Runs simulate() in a child. If out_dir is non-empty the child also writes result.json there, and the
 *  traces the options record (comm.csv if record_events, trace.json if record_spans), each atomically. A DiLoCo job
 *  is simulated as its inner iteration and its outer all-reduce, combined into the outer round (sync_result.hpp);
 *  a scenario with events (and options.apply_events) as simulate_with_events(). Returns the run's result.json.
 *  @throws InputError as simulate() does (re-thrown from the child). */
nlohmann::json simulate_isolated(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                 const std::string& out_dir = "");

/** @brief Convenience: the simulated iteration time only (no events or spans recorded); with several jobs the
 *  objective (weighted mean of the jobs' iteration times, sim/core/jobs.hpp). */
double simulated_iteration_time_s(const Scenario& scenario, const Placement& placement);

}  // namespace hulk
