#pragma once
/** @file simulator.hpp
 *  @brief Runs training iterations of a job on a platform with SimGrid, flow by flow.
 *  SimGrid's engine cannot be reset: call simulate() at most once per process (tests: one test per process;
 *  tools: a forked child per evaluation, see subprocess.hpp). */
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Where one job of a resumed run starts (SimOptions::job_starts). */
struct JobStart {
  double at_s = 0;          ///< simulated time of the run at which the job's ranks begin
  int first_iteration = 0;  ///< iterations the job did before this run
};

/** @brief What to record. */
struct SimOptions {
  bool record_events = true;  ///< fill SimResult::events (comm.csv)
  bool record_spans = true;   ///< fill SimResult::spans (trace.json)
  /** @brief If > 0: print a progress line on stderr at most every this many wall seconds (rank 0's position in
   *  its pipeline schedule, simulated time). Never changes results; 0 = silent. */
  double progress_every_s = 0;
  /** @brief Tensor-parallel all-reduces of groups on a private intra-host link computed in closed form, without one
   *  SimGrid message per ring step (private_ring.hpp: exact, same messages, bytes and events). false = every ring
   *  step is a SimGrid communication. */
  bool tp_closed_form = true;
  /** @brief The iteration tail's gradient-norm all-reduce, whose ring steps carry no bytes once SimGrid rounds
   *  them, computed in closed form where its durations are fixed (latency_ring.hpp: the same messages, bytes and
   *  events). false = every ring step is a SimGrid communication. */
  bool tail_closed_form = true;
  /** @brief Build the SimGrid platform as one zone per region where its routes allow it (sg_build_platform's
   *  region_zones: the same links on every route, far fewer stored routes); false = one zone holding every host
   *  pair's route. */
  bool region_zones = true;
  /** @brief If not empty: comm.csv (when record_events) and trace.json (when record_spans) are written into this
   *  folder (atomically, each when complete) straight from the recorder's sorted runs, and SimResult::events and
   *  ::spans stay empty, so memory does not grow with the number of messages. "" = fill SimResult instead. */
  std::string trace_dir;
  /** @brief DiLoCo jobs (JobSpec::sync): simulate one outer all-reduce of the pseudo-gradients across islands,
   *  alone (no inner step), instead of the job's iterations; the result's times are that all-reduce's. */
  bool outer_step = false;
  /** @brief Scenario events (Scenario::events): simulated time 0 of this run is time `event_origin_s` of the
   *  scenario's clock (a run that resumes after a host failure), see sim/topology/event_timeline.hpp. */
  double event_origin_s = 0;
  /** @brief Where each job (scenario order) stands when this run starts: a run that resumes after a host failure
   *  starts a job at `at_s` (simulated time of this run: a job that waits for GPUs while others go on) with
   *  `first_iteration` iterations done before (checkpoints are written after every iteration whose number counted
   *  from the job's start is a multiple of JobSpec::checkpoint.every). Empty: every job at 0 from iteration 0. */
  std::vector<JobStart> job_starts;
  /** @brief If finite: every rank stops at this simulated time of the run (a host failure) and the result holds
   *  the iterations completed by then (SimResult::stopped). */
  double stop_at_s = std::numeric_limits<double>::infinity();
  /** @brief Apply Scenario::events (link changes, stragglers); false = a quiet network whatever the scenario says.
   *  Host failures are never applied here: see simulate_with_failures (sim/engine/failure_run.hpp). */
  bool apply_events = true;
  /** @brief Messages (and spans) the recorder keeps in memory before it spills a sorted run to disk. */
  std::size_t trace_buffer_records = 1 << 18;
};

/** @brief Simulates scenario.only_job().iterations iterations of the job with the given placement (a DiLoCo job: its
 *  inner iterations, each island's DP all-reduce among its own replicas; or, with SimOptions::outer_step, one outer
 *  all-reduce; sim/engine/isolated_run.hpp combines the two into the outer round).
 *  @throws InputError if the placement is invalid or a stage does not fit in its GPU's memory
 *  (when scenario.only_job().check_memory), or if a SimGrid XML platform is rejected. */
SimResult simulate(const Scenario& scenario, const Placement& placement, const SimOptions& options = {});

}  // namespace hulk
