#pragma once
/** @file failure_run.hpp
 *  @brief A run under the scenario's events, host failures included: the run is cut into attempts, each
 *  one SimGrid run in its own child process. An attempt runs from a (re)start until the job's last iteration or the
 *  first failure of a host it uses; the job then restarts from its last checkpoint written before the failure
 *  (JobSpec::checkpoint; none: from iteration 0) on spare GPUs if the platform has enough idle ones, else on the
 *  same GPUs once the host is back (EventSpec::duration_s), `restart` seconds after the GPUs are available. Link
 *  changes and stragglers apply in every attempt at their times on the scenario's clock.
 *
 *  Results: result.json is the last attempt's, with times over the whole run (total_time_s = wall time to the last
 *  iteration, iteration_time_s = objective_s = wall / iterations) and an `events` object (attempts, redone
 *  iterations, restart and checkpoint time, goodput); iterations.csv has one row per iteration of every attempt. */
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"
#include "sim/engine/simulator.hpp"

namespace hulk {

/** @brief Simulates the scenario under its events (see the file comment). With out_dir: result.json and
 *  iterations.csv there, the first attempt's comm.csv and trace.json (events on their own track) there and every
 *  later attempt's in out_dir/attempt-K/ (K from 2; times from that attempt's start, events.attempts[K-1].start_s).
 *  @throws InputError if a failed host's job can never run again (no spare GPUs and the host never comes back), or
 *  host failures with several jobs (not supported). */
nlohmann::json simulate_with_events(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                    const std::string& out_dir = "");

/** @brief What one event (or one trace file's rows) costs: wall time of the run with every event minus that of the
 *  run without it. */
struct EventCost {
  std::string origin;  ///< "events[3]", or the trace file for all its rows
  double lost_s = 0;
};

/** @brief Each event's cost (leave-one-out: one more run per event or trace file) and, first, the total
 *  (origin "all": with every event minus a quiet network). */
std::vector<EventCost> event_costs(const Scenario& scenario, const Placement& placement, const SimOptions& options);

}  // namespace hulk
