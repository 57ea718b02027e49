#pragma once
/** @file evaluator.hpp
 *  @brief Fast analytic estimate of one training iteration's time for a placement (alpha-beta costs with link
 *  sharing counted per link). Used by the search placer and greedy; final numbers always come from SimGrid.
 *
 *  It mirrors the program the simulator runs (sim/engine/rank_actor.cpp and collectives.cpp): per micro-batch and
 *  layer, compute and TP all-reduces; PP hand-offs after each forward and backward under the job's schedule and p2p
 *  mode; after a rank's last op, the DP all-reduce among its DP group; then the iteration's tail and barrier. Its
 *  approximations, in order, with the test that bounds each: docs/model.md ("The analytic evaluator").
 *
 *  The class is a facade over named parts, each a set of functions over the EvaluatorCore (what construction
 *  precomputed) and an EvaluatorScratch (what one estimate writes):
 *  - evaluator_core.hpp: the core and the link-sharing rule (approximation 1);
 *  - tp_rings.hpp: op times with their TP all-reduces (approximations 2 and 4);
 *  - replica_pipelines.hpp: PP hand-offs and the replicas' pipelines with their memo (approximation 5);
 *  - dp_allreduce.hpp: the DP all-reduces, ring, tree or hierarchical (approximations 2 and 3);
 *  - dp_pipeline_overlap.hpp: DP all-reduces as load on the hand-offs still running (approximation 6);
 *  - iteration_tail.hpp: what follows the DP all-reduces; evaluator_bound.hpp: the lower bound.
 *  Only a rank's HOST matters (all GPUs of a host are identical), so the core API takes host indices. */
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"
#include "sim/evaluate/evaluator_core.hpp"
#include "sim/evaluate/evaluator_scratch.hpp"

namespace hulk {

/** @brief Analytic iteration-time estimator. Construction precomputes everything placement-independent
 *  (JobCost, plan, route tables, GPU speeds, schedule); an estimate writes only into an EvaluatorScratch
 *  (evaluator_scratch.hpp): the caller's, or for the calls without one the calling thread's scratch for this
 *  Evaluator (evaluator_scratch_slots.hpp). Threads: every estimate is safe on one Evaluator from several threads at
 *  once; set_pipeline_cache and share_links are not to be called while another thread estimates. A copy estimates
 *  as the original, bit for bit. */
class Evaluator {
 public:
  /** @brief Precomputes cost model, routes and schedule for the scenario's job and platform.
   *  @param network the platform's route model if the caller has one (it depends on the platform only, and at
   *  1,024 hosts takes longer to build than a hundred evaluations: placers that build several evaluators of one
   *  scenario share one); nullptr = built here, scaled by network_model_factors() of the scenario's network model
   *  (the evaluator's figures are SimGrid's under that model). @throws std::invalid_argument if network has another
   *  number of hosts than the platform, or other factors. */
  explicit Evaluator(const Scenario& scenario, std::shared_ptr<const RouteModel> network = nullptr);

  /** @brief Estimated iteration time (s) of a placement; +infinity if infeasible (memory) or malformed. */
  double iteration_time_s(const Placement& placement) const;
  /** @brief Estimated time and breakdown of a placement. */
  EvalBreakdown evaluate(const Placement& placement) const;
  /** @brief Same, from the host index of every rank (rank order). The fast path used by search. */
  EvalBreakdown evaluate_hosts(const std::vector<int>& host_of_rank) const {
    return evaluate_hosts(host_of_rank, thread_scratch());
  }
  /** @brief evaluate_hosts in the caller's scratch (one thread at a time per scratch). The same bits as
   *  evaluate_hosts(host_of_rank). */
  EvalBreakdown evaluate_hosts(const std::vector<int>& host_of_rank, EvaluatorScratch& scratch) const;
  /** @brief A lower bound of time_of_hosts() (+infinity where that is), for a fraction of its cost: every replica's
   *  pipeline fill, its busiest stage's ops and the drain of that stage's last gradient, each hand-off at its alone
   *  time (no link sharing), and after it each DP member's sends of its all-reduce at the routes' alone rates
   *  (evaluator_bound.cpp says why it bounds). Placers that keep the best of
   *  many candidates skip those whose bound is not below the best time so far: the same answer, fewer evaluations. */
  double time_lower_bound_of_hosts(const std::vector<int>& host_of_rank) const {
    return time_lower_bound_of_hosts(host_of_rank, thread_scratch());
  }
  /** @brief time_lower_bound_of_hosts in the caller's scratch (thread-safe as evaluate_hosts with a scratch). */
  double time_lower_bound_of_hosts(const std::vector<int>& host_of_rank, EvaluatorScratch& scratch) const;
  /** @brief time_lower_bound_of_hosts of a placement's hosts. */
  double time_lower_bound(const Placement& placement) const;
  /** @brief Keep replica pipelines across evaluations and evaluators (default, PipelineMemo::process()) or only
   *  within one evaluation (off: every
   *  evaluation computes its pipelines, as a benchmark of one placement evaluated again and again needs). The
   *  results are the same either way, bit for bit. */
  void set_pipeline_cache(bool across_evaluations);
  /** @brief Only the time, from host indices (+infinity if infeasible). */
  double time_of_hosts(const std::vector<int>& host_of_rank) const {
    return evaluate_hosts(host_of_rank).iteration_time_s;
  }

  /** @brief Other jobs on the same links (sim/evaluate/jobs_evaluator.hpp): while set, every estimate divides the
   *  capacity of link l by (*divisors)[l] (>= 1, indexed by network() link id). The vector is not copied and must
   *  outlive its use; nullptr (the default) = the links carry this job alone, the one-job estimate bit for bit. */
  void share_links(const std::vector<double>* divisors) { core_.link_divisors_ = divisors; }

  /** @brief True if rank's stage fits the memory of a GPU of host (always true without job.check_memory). */
  bool fits(int rank, int host) const { return core_.fits(rank, host); }
  /** @brief True if stage s fits the memory of a GPU of host (always true without job.check_memory). */
  bool stage_fits(int stage, int host) const { return core_.stage_fits(stage, host); }
  /** @brief Achieved flop/s of one GPU of a host (peak x utilisation). */
  double gpu_speed_flops(int host) const { return core_.speed_[host]; }

  /** @brief Time (s) of concurrent ring all-reduces of `bytes` each over the given host rings (every ring the same
   *  size), sharing links (approximations 1 and 2); 0 without a ring of 2 or more. */
  double concurrent_rings_s(const std::vector<std::vector<int>>& host_rings, double bytes) const {
    return concurrent_rings_s(host_rings, bytes, thread_scratch());
  }
  /** @brief concurrent_rings_s in the caller's scratch (thread-safe as evaluate_hosts with a scratch). */
  double concurrent_rings_s(const std::vector<std::vector<int>>& host_rings, double bytes,
                            EvaluatorScratch& scratch) const;
  const JobCost& cost() const { return core_.cost_; }
  const ParallelPlan& plan() const { return core_.plan_; }
  const RouteModel& network() const { return *core_.network_; }
  /** @brief The route model, to share with another Evaluator of the same platform. */
  std::shared_ptr<const RouteModel> shared_network() const { return core_.network_; }
  const Scenario& scenario() const { return core_.scenario_; }

 private:
  /** @brief Host index of every rank of a placement (only a rank's host matters here). */
  static std::vector<int> host_indices(const Placement& placement);

  /** @brief The calling thread's scratch for this Evaluator (and its copies, which share id_). */
  EvaluatorScratch& thread_scratch() const;

  EvaluatorCore core_;
  std::uint64_t id_;  ///< the key of this Evaluator's per-thread scratch (evaluator_scratch_slots.hpp)
};

}  // namespace hulk
