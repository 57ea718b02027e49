#pragma once
/** @file evaluator_core.hpp
 *  @brief What every part of the Evaluator reads (EvaluatorCore): the placement-independent state its constructor
 *  precomputes (cost model, plan, routes, GPU speeds, schedule, network settings), and the one rule every part
 *  prices transfers with, concurrent_times (approximation 1 of docs/model.md: a transfer's share of a link is the
 *  link's capacity over the flows counted on it). An estimate never writes the core; it writes an EvaluatorScratch.
 *  Members keep the names they had as the Evaluator's members. */
#include <limits>
#include <memory>
#include <vector>

#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"
#include "sim/evaluate/evaluator_scratch.hpp"
#include "sim/evaluate/iteration_tail.hpp"
#include "sim/evaluate/pipeline_critical_path.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/evaluate/ring_steps.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/workload/compute_efficiency.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

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
  IterationCosts iteration_costs;  ///< the tail after the DP all-reduces (iteration_tail.hpp)
};

/** @brief The route model an Evaluator of the scenario builds (its platform, scaled by network_model_factors() of
 *  its network model), to share among evaluators and placers of one scenario. */
std::shared_ptr<const RouteModel> analytic_route_model(const Scenario& scenario);

/** @brief The Evaluator's placement-independent state (see the file comment). */
struct EvaluatorCore {
  /** @brief Precomputes it for the scenario's one job (Evaluator's constructor says what network may be). */
  EvaluatorCore(const Scenario& scenario, std::shared_ptr<const RouteModel> network);

  Scenario scenario_;
  JobCost cost_;
  StagesByHost stages_;             ///< the stages as each host's GPUs run them (compute_efficiency.hpp)
  ParallelPlan plan_;
  std::shared_ptr<const RouteModel> network_;  ///< never null
  std::vector<double> speed_;       ///< per host, flop/s per GPU
  std::vector<double> memory_;      ///< per host, bytes per GPU
  std::vector<std::vector<StageOp>> schedule_;  ///< per stage, op order
  bool schedule_chained_ = false;  ///< every stage's ops start with F 0 and end with B m-1 (the lower bound)
  /** @brief Per pair of stages (s * pp + o), the share of s's busy time o is busy too (stage_co_busy.hpp); empty
   *  with model chunks or one stage. */
  std::vector<double> stage_co_busy_;
  int channels_ = 1;                 ///< network.channels_per_peer
  bool latency_at_receiver_ = true;  ///< CM02: the engine applies route latencies at the receiver
  double tcp_window_bytes_ = 0;      ///< network.tcp_window_bytes x the latency factor (0 = no cap)
  const std::vector<double>* link_divisors_ = nullptr;  ///< Evaluator::share_links: per-link divisors, or none
  /** @brief replica_pipelines: computed replica pipelines with their inputs (pipeline_memo.hpp), the process's
   *  cache shared by every Evaluator (an annealing move changes a few ranks, so most groups of the next evaluation
   *  were seen in the previous one; other placers' candidates hold the same pipelines), or with set_pipeline_cache
   *  off this evaluator's own, emptied at each evaluation. A hit returns the bits the computation would. */
  std::shared_ptr<PipelineMemo> own_memo_;  ///< set_pipeline_cache(false): this evaluator's cache, else null
  PipelineMemo* pipe_memo_ = nullptr;       ///< the cache in use
  int schedule_id_ = 0;                     ///< PipelineMemo::schedule_id of schedule_

  /** @brief Link l's capacity (B/s) for this job: divided by its divisor while share_links is set. */
  double link_capacity_Bps(int l) const {
    return link_divisors_ ? network_->link_bandwidth_Bps(l) / (*link_divisors_)[l] : network_->link_bandwidth_Bps(l);
  }
  /** @brief Whether ring hops need their headroom (RingModel::headroom): a TCP window and several channels. */
  bool rings_use_headroom() const { return tcp_window_bytes_ > 0 && channels_ > 1; }
  /** @brief The ring model of the DP ring whose first hop is transfer `first` of w.ring_room_ (if filled). */
  RingModel ring_model(const EvaluatorScratch& w, size_t first) const {
    return {channels_, latency_at_receiver_, w.ring_room_.empty() ? nullptr : w.ring_room_.data() + first};
  }
  /** @brief True if stage s fits the memory of a GPU of host (always true without job.check_memory). */
  bool stage_fits(int stage, int host) const;
  /** @brief True if rank's stage fits the memory of a GPU of host. */
  bool fits(int rank, int host) const;
  /** @brief False if host_of_rank is malformed or a rank's stage does not fit its GPU (then sets
   *  out.infeasible_rank). */
  bool hosts_fit(const std::vector<int>& host_of_rank, EvalBreakdown& out) const;
  /** @brief Sizes w for this job and platform (nothing if it already is). */
  void prepare(EvaluatorScratch& w) const;
};

namespace eval {

/** @brief Times of concurrent transfers src[i] -> dst[i] of `bytes` each (or bytes_each[i]), sharing links
 *  (approximation 1), into out. @param headroom if non-null, receives per transfer how much faster it would go
 *  without the TCP window: its share without the window over its share (1 when the window does not bind it). */
void concurrent_times(const EvaluatorCore& core, EvaluatorScratch& w, const int* src, const int* dst, int n,
                      double bytes, double* out, const double* bytes_each = nullptr, double* headroom = nullptr);

}  // namespace eval
}  // namespace hulk
