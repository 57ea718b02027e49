#pragma once
/** @file pipeline_critical_path.hpp
 *  @brief Per-stage operation order of the GPipe and 1F1B pipeline schedules and the critical-path makespan of one
 *  pipeline given per-stage op times. Pure code, shared by the analytic evaluator and the lower bound. */
#include <string>
#include <vector>

namespace hulk {

/** @brief One pipeline operation: forward or backward of a micro-batch. */
struct StageOp {
  bool backward = false;
  int mb = 0;
};

/** @brief Op order of every stage: pipeline_schedule() (sim/workload/pipeline_schedule.hpp, the order the SimGrid
 *  rank actors follow) for each stage, as StageOps. gpipe: F0..F(m-1) then B0..B(m-1); 1f1b (Megatron
 *  non-interleaved): w = min(p-s-1, m) warm-up forwards, then (F(w+i), B(i)) for i < m-w, then the remaining
 *  backwards. @throws std::invalid_argument on an unknown schedule name (the scenario loader validates names). */
std::vector<std::vector<StageOp>> stage_op_orders(const std::string& schedule, int stages, int micro_batches);

/** @brief Reusable buffers of pipeline_makespan_s (avoids allocations in hot loops). */
struct PipelineScratch {
  /** @brief A message in flight: remaining transfer in seconds-if-alone, its latency, links, where to write its
   *  arrival time. */
  struct Flight {
    double remaining_s;  ///< transfer left, seconds if alone on its links
    double latency_s;    ///< route latency
    int links[3];
    double* target;      ///< where the arrival time goes
    int sender;          ///< stage that posted it
    double start_at;     ///< transfer starts then (posted + latency, or after a DP-drain pause)
    bool transferring;   ///< counted on its links
    double rate;         ///< cached progress rate (1/k), valid while transferring
  };
  std::vector<double> act_at, grad_at, f_end;
  std::vector<size_t> next;
  std::vector<double> clock;
  std::vector<Flight> active;
  std::vector<int> flows_on_link;  ///< in-flight messages per link id (all zero between calls)
};

/** @brief Hand-off costs per stage boundary s (between stages s and s+1), p-1 entries each (seconds):
 *  latency and bandwidth time (bytes / share) of one message, forward (s -> s+1) and backward (s+1 -> s). */
struct PipelineLinks {
  const double* latency_fwd_s;
  const double* transfer_fwd_s;
  const double* latency_bwd_s;
  const double* transfer_bwd_s;
  /** @brief Optional: link ids of each boundary's route, 3 per boundary (-1 = unused), forward and backward, and
   *  the number of link ids. With them, messages share links (a stage's activations to s+1 and gradients to s-1
   *  share its NIC up); without (nullptr), transfers are independent. */
  const int* route_links_fwd = nullptr;
  const int* route_links_bwd = nullptr;
  int link_ids = 0;
  /** @brief Optional, per stage (s): when the stage's last op ends, its DP all-reduce starts on the same NIC; under
   *  SimGrid CM02 a flow's share of a link is inversely proportional to its route latency, so a hand-off message of
   *  this stage whose latency exceeds drain_latency_threshold_s[s] is starved until the all-reduce ends: its
   *  transfer pauses for drain_pause_s[s]. nullptr = no such effect. */
  const double* drain_pause_s = nullptr;
  const double* drain_latency_threshold_s = nullptr;
};

/** @brief Critical path of one pipeline: F(s,j) starts after the stage's previous op and after activation j
 *  arrived from stage s-1; B(s,j) after the previous op and after gradient j arrived from stage s+1 (the last
 *  stage's B(j) follows its own F(j)). Sends are asynchronous (never delay the sender). With route link ids
 *  (PipelineLinks), a message first waits its latency (using no bandwidth, as SimGrid CM02), then shares links
 *  with the pipeline's other transferring messages by processor sharing: with k messages on its busiest link it
 *  progresses at 1/k of its alone rate (transfer_* is its alone transfer time); it arrives when the transfer
 *  ends (a small fluid event simulation, SimGrid's fair sharing restricted to this pipeline). Without
 *  them, transfers are independent (arrival = posted + transfer + latency).
 *  @param fwd_s,bwd_s per-stage op durations (s); @param last_end_s if non-null, receives per stage the end of its
 *  last op (s). @return end of the last op over all stages (s). Monotone non-decreasing in every input. */
double pipeline_makespan_s(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
                           const PipelineLinks& links, double* last_end_s, PipelineScratch& scratch);

}  // namespace hulk
