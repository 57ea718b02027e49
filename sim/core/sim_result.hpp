#pragma once
/** @file sim_result.hpp
 *  @brief What one simulation produces: timings, traffic, memory, communication events, per-GPU spans.
 *  Plain structs (no SimGrid) so that placers, the CLI and gnn/ can use them. */
#include <string>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Fixed costs of one iteration (sim/workload/compute_efficiency.hpp), seconds per iteration: of the work
 *  (optimizer step, overhead) the slowest rank's, of a collective the time of its member that joined last. */
struct IterationCosts {
  double optimizer_step_s = 0;        ///< optimizer step and gradient-norm read (memory-bound, at the GPU's bandwidth)
  double grad_norm_allreduce_s = 0;   ///< the gradient norm's all-reduce of one value over the model-parallel group
  double embedding_allreduce_s = 0;   ///< tied word-embedding gradients between the first and the last stage
  double framework_overhead_s = 0;    ///< job.framework_overhead
};

/** @brief One point-to-point message of a collective or pipeline transfer. */
struct CommEvent {
  int job = 0;             ///< job index (Scenario::jobs; 0 for a one-job scenario); ranks below are the job's own
  int iteration = 0;
  std::string kind;        ///< "dp" | "tp" | "pp"
  std::string collective;  ///< collective id, identical on all ranks taking part, e.g. "tp/s1d0/mb3/l5/f0"
  int src_rank = 0;
  int dst_rank = 0;
  int src_host = 0;        ///< host index in PlatformSpec::hosts
  int dst_host = 0;
  double bytes = 0;
  double start_s = 0;      ///< when the sender posted the message
  double end_s = 0;        ///< when the receiver had it
};

/** @brief One busy span of one GPU, for the Chrome trace (compute or blocking communication). */
struct Span {
  int rank = 0;
  std::string name;  ///< e.g. "fwd mb3", "tp allreduce", "dp allreduce", "recv act mb2"
  std::string cat;   ///< "compute" | "tp" | "pp" | "dp" | "bubble"
  double start_s = 0;
  double end_s = 0;
};

/** @brief Link classes for traffic accounting. */
struct BytesByClass {
  double intra_host = 0;
  double intra_region = 0;
  double inter_region = 0;
};

/** @brief The result of simulating a scenario with a placement. Times are per iteration, averaged. */
struct SimResult {
  double iteration_time_s = 0;  ///< mean simulated time of one iteration
  double total_time_s = 0;      ///< simulated time of all iterations
  double compute_s = 0;         ///< mean over ranks of compute time per iteration
  double comm_dp_s = 0;         ///< mean over ranks of time blocked in DP communication per iteration
  double comm_tp_s = 0;         ///< ... TP
  double comm_pp_s = 0;         ///< ... PP, while the awaited message was in flight
  double bubble_s = 0;          ///< mean over ranks of pipeline idle time (waiting for a message not yet sent)
  BytesByClass bytes;           ///< bytes per link class, per iteration
  IterationCosts iteration_costs;  ///< fixed per-iteration costs (inside compute_s and comm_dp_s above)
  std::vector<double> peak_memory_bytes;  ///< per rank
  Placement placement;
  /** @brief Tensor-parallel all-reduces the engine computed in closed form (SimOptions::tp_closed_form); not part of
   *  the outputs, which are the same either way. */
  long long tp_closed_form_collectives = 0;
  /** @brief Their ring-step messages: messages - tp_closed_form_messages went through SimGrid. Not in the outputs. */
  long long tp_closed_form_messages = 0;
  /** @brief Ring steps of empty messages the engine computed in closed form (SimOptions::tail_closed_form): they
   *  too count in `messages` without going through SimGrid. Not in the outputs. */
  long long tail_closed_form_messages = 0;
  std::vector<CommEvent> events;  ///< all messages (empty if not recorded), sorted deterministically
  std::vector<Span> spans;        ///< per-GPU spans (empty if not recorded)
  long long messages = 0;         ///< number of point-to-point messages simulated
  /** @brief Several jobs (Scenario::jobs): each job's own result (its placement, its ranks' means, no events or
   *  spans); the fields above then describe the whole cluster (placement and peak memory of every job's ranks in
   *  job order, totals of bytes and messages, compute/comm/bubble means over all ranks). Empty for one job. */
  std::vector<SimResult> jobs;
  /** @brief Several jobs: the weighted mean of the jobs' iteration times (the objective placers minimise). */
  double objective_s = 0;
  /** @brief Several jobs: simulated time until the last job's last iteration ended. */
  double makespan_s = 0;
  /** @brief Simulated time at which each iteration started and ended (its end-of-iteration barrier released), in
   *  iteration order; with several jobs, per job in jobs[j]. An iteration starts when the previous one ended, or its
   *  checkpoint was written. */
  std::vector<double> iteration_start_s, iteration_end_s;
  /** @brief Simulated time at which each checkpoint (JobSpec::checkpoint) was written, with the number of
   *  iterations it holds (counted from the job's start: SimOptions::job_starts included). */
  std::vector<std::pair<double, int>> checkpoints;
  /** @brief True when the run was stopped by a host failure (SimOptions::stop_at_s) before its last iteration. */
  bool stopped = false;
};

}  // namespace hulk
