#pragma once
/** @file evaluator.hpp
 *  @brief Fast analytic estimate of one training iteration's time for a placement (alpha-beta costs with link
 *  sharing counted per link). Used by the search placer and greedy; final numbers always come from SimGrid.
 *
 *  What it mirrors (the program the simulator runs, see the placement brief):
 *  - per micro-batch and layer, forward = compute(layer_fwd_flops/2), TP all-reduce, compute(/2), TP all-reduce;
 *    backward = twice the flops and also 2 TP all-reduces per layer; logits flops (extra_fwd_flops) once forward
 *    and twice backward;
 *  - pp_message_bytes to the next stage after each forward (asynchronous: the sender does not wait) and to the
 *    previous stage after each backward;
 *  - pipeline schedule GPipe (all forwards, then all backwards in micro-batch order, as Megatron's FIFO) or 1F1B
 *    (Megatron non-interleaved: min(p-s-1, m) warm-up forwards, then one-forward-one-backward, then cool-down);
 *  - after a stage's last backward, the DP all-reduce of dp_grad_bytes among its DP group (all tp indices of the
 *    stage at once), then the end of the iteration (barrier): iteration = max over stages of the DP end.
 *
 *  Approximations (each is a deliberate trade of accuracy for ~10 us evaluations):
 *  1. Bandwidth sharing: a transfer's share of a link = link bandwidth / number of flows of the SAME collective
 *     phase on that directed link; a transfer takes latency + bytes / (min share over its links). This is the
 *     max-min fair share only when the most loaded link is every flow's bottleneck; otherwise it is pessimistic.
 *     Flows counted together: a TP ring step over all TP groups of one stage (the dp replicas run in lockstep);
 *     a PP hand-off over all dp*tp ranks of a stage boundary; a DP ring step over the tp concurrent DP groups of
 *     one stage. Traffic of different stages or of different phases (e.g. a PP message during a DP all-reduce,
 *     DP all-reduces of two stages that overlap in time) is NOT counted as contention.
 *  2. Ring all-reduce over n ranks of S bytes: 2(n-1) steps of S/n; hop time = latency + (S/n)/share. As in
 *     the engine, a rank forwards a chunk as soon as it received the previous one (no step barrier), so the time is
 *     max(largest sum of 2(n-1) consecutive hop times, max over hops of latency + 2(n-1) x transfer) (a slow hop
 *     pipelines its chunks). Equal hops: the closed form 2(n-1)(a + S/(nB)), which SimGrid matches exactly.
 *  3. Hierarchical all-reduce (as sim/engine/collectives.cpp): members grouped by region in order of first
 *     appearance. Balanced groups (k members in each of R regions): intra-region ring reduce-scatter
 *     (k-1 steps of S/k), then k concurrent cross-region rings (2(R-1) steps of S/(kR)), then the intra-region
 *     all-gather (same time as the reduce-scatter). Unbalanced groups: one ring over the group re-ordered region
 *     by region. Balanced and unbalanced groups of one stage do not contend with each other in the estimate.
 *  4. Tree all-reduce (as the engine): binary tree over dp order (children 2i+1, 2i+2), whole-buffer reduce to member
 *     0 (a node sends once all its children's buffers arrived), then whole-buffer broadcast. Transfers that start
 *     at the same instant share links (counted over all groups of the stage); one starting later is not slowed by
 *     transfers still in flight.
 *  5. Compute: per (stage, dp replica) the slowest GPU of that TP group sets the compute time (TP syncs every
 *     layer). TP all-reduce time of a group is charged serially (no overlap with compute), as in the simulator.
 *  6. PP: every dp replica's pipeline is a critical-path computation over its own stage times and hand-offs (the
 *     slowest of the boundary's tp transfers). Sends never slow the sender's compute. The replica's messages in
 *     flight share the links of their routes by processor sharing (a small fluid event simulation); messages of
 *     other replicas and tp ranks enter only through the bandwidth share of each hand-off (approximation 1).
 *  8. DP drain: SimGrid CM02 shares a link in inverse proportion to each flow's route latency. When a stage
 *     finishes its last backward, its DP all-reduce starts on the same NICs as its last gradient hand-offs; a
 *     hand-off whose latency exceeds 10x the DP ring hop's is starved until the all-reduce ends (modelled as a
 *     pause of its transfer for the all-reduce time). Within one collective phase flows share equally.
 *  9. DP overlap: the DP all-reduces of different stages run at overlapping times (the stages finish their last
 *     backward close together when m is small). After a first estimate of every stage's DP interval, each stage's
 *     DP time is recomputed with the other stages' DP rings (in dp order, whatever the algorithm) as background
 *     flows on their links, weighted by the fraction of the interval they overlap. One pass, no iteration.
 *  7. Memory: with job.check_memory, a rank whose stage peak memory exceeds its GPU memory makes the placement
 *     infeasible: time = +infinity and feasible = false.
 *  Only a rank's HOST matters (all GPUs of a host are identical), so the core API takes host indices. */
#include <limits>
#include <vector>

#include "sim/workload/cost_model.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/evaluate/pipeline_critical_path.hpp"
#include "sim/evaluate/transfer_fluid.hpp"
#include "sim/workload/plan.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Where the estimated iteration time goes (seconds). */
struct EvalBreakdown {
  double iteration_time_s = std::numeric_limits<double>::infinity();  ///< estimate; +inf if infeasible
  bool feasible = false;        ///< false: some rank's stage does not fit its GPU (or malformed placement)
  int infeasible_rank = -1;     ///< first rank that does not fit (-1 if none)
  double pipeline_s = 0;        ///< end of the last backward over all stages and replicas
  double compute_s = 0;         ///< max over (stage, replica) of pure compute per iteration (m micro-batches)
  double tp_comm_s = 0;         ///< max over (stage, replica) of TP all-reduce time per iteration
  double pp_hop_s = 0;          ///< slowest single PP hand-off (one micro-batch, one boundary, one direction)
  double dp_comm_s = 0;         ///< DP all-reduce time of the stage that finishes last
  double bubble_s = 0;          ///< pipeline_s minus the busiest (stage, replica)'s busy time
};

/** @brief Analytic iteration-time estimator. Construction precomputes everything placement-independent
 *  (JobCost, plan, route tables, GPU speeds, schedule). Evaluation reuses internal scratch buffers: one
 *  Evaluator must not be used from two threads at once. */
class Evaluator {
 public:
  /** @brief Precomputes cost model, routes and schedule for the scenario's job and platform. */
  explicit Evaluator(const Scenario& scenario);

  /** @brief Estimated iteration time (s) of a placement; +infinity if infeasible (memory) or malformed. */
  double iteration_time_s(const Placement& placement) const;
  /** @brief Estimated time and breakdown of a placement. */
  EvalBreakdown evaluate(const Placement& placement) const;
  /** @brief Same, from the host index of every rank (rank order). The fast path used by search. */
  EvalBreakdown evaluate_hosts(const std::vector<int>& host_of_rank) const;
  /** @brief Only the time, from host indices (+infinity if infeasible). */
  double time_of_hosts(const std::vector<int>& host_of_rank) const { return evaluate_hosts(host_of_rank).iteration_time_s; }

  /** @brief True if rank's stage fits the memory of a GPU of host (always true without job.check_memory). */
  bool fits(int rank, int host) const;
  /** @brief True if stage s fits the memory of a GPU of host (always true without job.check_memory). */
  bool stage_fits(int stage, int host) const;
  /** @brief Achieved flop/s of one GPU of a host (peak x utilisation). */
  double gpu_speed_flops(int host) const { return speed_[host]; }

  const JobCost& cost() const { return cost_; }
  const ParallelPlan& plan() const { return plan_; }
  const RouteModel& network() const { return net_; }
  const Scenario& scenario() const { return scenario_; }

 private:
  /** @brief Times of concurrent transfers src[i] -> dst[i] of `bytes` each, sharing links (approximation 1). */
  void concurrent_times(const int* src, const int* dst, int n, double bytes, double* out,
                        const double* bytes_each = nullptr) const;
  /** @brief Concurrent rings (each: steps x its slowest hop of chunk_bytes[r]), time of the slowest ring. */
  double rings_phase_s(const std::vector<std::vector<int>>& rings, const std::vector<double>& chunk_bytes,
                       const std::vector<int>& steps) const;
  /** @brief DP all-reduce time of one stage (all tp groups concurrently). */
  double dp_allreduce_s(int stage, const std::vector<int>& host_of_rank) const;
  /** @brief DP all-reduces of all stages in one fluid simulation, each from its stage's end (stage_done_); fills
   *  dp_s_. False (nothing done) when the job has too many DP transfers for it. */
  bool dp_allreduces_from_stage_ends(const std::vector<int>& host_of_rank) const;
  /** @brief Approximation 9: recomputes each stage's DP time with the overlapping stages' DP rings as load. */
  void refine_dp_overlap(const std::vector<int>& host_of_rank) const;
  double ring_allreduce_s(const std::vector<std::vector<int>>& rings, double bytes) const;
  double tree_allreduce_s(const std::vector<std::vector<int>>& groups, double bytes) const;
  double hierarchical_allreduce_s(const std::vector<std::vector<int>>& groups, double bytes) const;
  /** @brief False if host_of_rank is malformed or a rank's stage does not fit its GPU (then sets
   *  out.infeasible_rank). */
  bool hosts_fit(const std::vector<int>& host_of_rank, EvalBreakdown& out) const;
  /** @brief Forward/backward op time of every (stage, replica) with its TP all-reduces (fwd_, bwd_); m =
   *  micro-batches. */
  void stage_op_times(const std::vector<int>& host_of_rank, int m, EvalBreakdown& out) const;
  /** @brief Latency, transfer time and links of every PP hand-off (lat_*, xfer_*, links_*). */
  void pp_handoffs(const std::vector<int>& host_of_rank, EvalBreakdown& out) const;
  /** @brief Critical path of every replica's pipeline: out.pipeline_s, out.bubble_s and stage_done_. */
  void replica_pipelines(int m, EvalBreakdown& out) const;

  Scenario scenario_;
  JobCost cost_;
  ParallelPlan plan_;
  RouteModel net_;
  std::vector<double> speed_;       ///< per host, flop/s per GPU
  std::vector<double> memory_;      ///< per host, bytes per GPU
  std::vector<std::vector<StageOp>> schedule_;  ///< per stage, op order
  int channels_ = 1;                 ///< network.channels_per_peer
  bool latency_at_receiver_ = true;  ///< CM02: the engine applies route latencies at the receiver
  double tcp_window_bytes_ = 0;      ///< network.tcp_window_bytes (0 = no per-flow cap)

  // Scratch (mutable: evaluation is logically const).
  mutable std::vector<int> link_count_;
  mutable std::vector<double> extra_load_;
  mutable std::vector<std::vector<int>> dp_groups_;  ///< DP groups of one stage (scratch)
  mutable std::vector<double> ring_time_;             ///< TP all-reduce time per replica (scratch)  ///< background flows per link (DP overlap refinement), else 0
  mutable std::vector<int> src_, dst_;
  mutable std::vector<double> times_, lat_buf_;
  mutable std::vector<double> ring_scratch_;  ///< ring_steps_s's per-step times
  mutable std::vector<double> tp_clock_;      ///< per TP rank: its clock through one op (scratch)
  mutable TransferFluid fluid_;                ///< tree all-reduces (scratch)
  mutable std::vector<int> tree_up_, tree_down_, tree_first_, member_hosts_;
  mutable std::vector<double> fwd_, bwd_;                        ///< op times per (stage, replica)
  mutable std::vector<double> lat_f_, xfer_f_, lat_b_, xfer_b_;  ///< hand-off latency/transfer per (boundary, replica)
  mutable PipelineScratch pipe_scratch_;
  mutable std::vector<double> dp_s_;  ///< DP all-reduce time per stage
  mutable std::vector<int> links_f_, links_b_, slinks_f_, slinks_b_;  ///< hand-off route link ids (3 per entry)
  mutable std::vector<double> sf_, sb_, slf_, sxf_, slb_, sxb_, last_end_;  ///< one replica's per-stage inputs/outputs
  mutable std::vector<double> stage_done_;            ///< per stage: max over replicas of last backward end
  mutable std::vector<double> replica_done_;          ///< per (stage, replica): its pipeline's end at that stage
  mutable std::vector<double> member_start_;          ///< scratch: per DP member, when it enters the all-reduce
};

}  // namespace hulk
