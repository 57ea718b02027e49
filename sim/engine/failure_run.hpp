#pragma once
/** @file failure_run.hpp
 *  @brief A run under the scenario's events, host failures included: the run is cut into runs of SimGrid, each in
 *  its own child process, at the failures that hit a job (a host holding ranks of it fails while it runs). The jobs
 *  hit restart from their last checkpoint written before the failure (JobSpec::checkpoint; none: from where their
 *  attempt began) on spare GPUs (no rank of any job on them) if the platform has enough idle ones, else on the same
 *  GPUs once the host is back (EventSpec::duration_s), `restart` seconds after the GPUs are available; each job has
 *  attempts of its own. The other jobs go on: the next run starts each at the end of its last iteration (or of the
 *  checkpoint written after it) with the iterations it did, its partial iteration simulated again; a job whose
 *  restart comes later waits in that run (SimOptions::job_starts). Link changes and stragglers apply in every run
 *  at their times on the scenario's clock.
 *
 *  Results: result.json is the last run's, with times over the whole run when there were several (one job:
 *  total_time_s = wall time to the last iteration, iteration_time_s = objective_s = wall / iterations; several
 *  jobs: each job's entry from the last run it ran in, with its own total_time_s and iteration_time_s, and the
 *  objective and makespan from those) and an `events` object (wall time, runs as `attempts`, redone iterations,
 *  restart and checkpoint time, goodput); with several jobs and host failures, each job's entry has an `events`
 *  object of its own (its attempts, redone iterations, restart and checkpoint time). iterations.csv has one row per
 *  iteration of every attempt. */
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"
#include "sim/engine/simulator.hpp"

namespace hulk {

/** @brief Simulates the scenario under its events (see the file comment). With out_dir: result.json and
 *  iterations.csv there, the first run's comm.csv and trace.json (events on their own track) there and every
 *  later run's in out_dir/attempt-K/ (K from 2; times from that run's start, events.attempts[K-1].start_s).
 *  @throws InputError if a failed host's job can never run again (no spare GPUs and the host never comes back). */
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
