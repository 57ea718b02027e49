#pragma once
/** @file sync_evaluator.hpp
 *  @brief Analytic estimate of a DiLoCo job's time per step (JobSpec::sync; what objective_s is for such a job):
 *  (H t_inner + t_outer) / H, or max(H t_inner, t_outer) / H with overlap: outer. The island-first placement
 *  (sim/place/island_first.hpp) and the search use it in place of the every-step Evaluator, so they place islands
 *  knowing that only the outer all-reduce crosses between them; `hulk simulate --estimate` prints it for such a job.
 *
 *  - Islands from the placement (islands.hpp).
 *  - t_inner: each island is a job of its own (its replicas as dp, the same micro-batches per pipeline), estimated
 *    by the Evaluator on the island's hosts; the slowest island's time. Islands' traffic is not counted against each
 *    other (approximation: islands are meant to be apart).
 *  - t_outer: every (stage, tp, slice) ring of the outer all-reduce at once, all with the largest stage's slice of
 *    pseudo-gradient bytes (pessimistic for smaller stages), by the Evaluator's concurrent-ring estimate
 *    (docs/model.md, approximations 1 and 2).
 *  Final numbers come from SimGrid (sim/engine/isolated_run.hpp simulates the two parts). */
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/evaluate/evaluator.hpp"

namespace hulk {

/** @brief The DiLoCo step-time estimator (see the file comment). Safe from several threads at once (its Evaluators'
 *  estimates work in each thread's scratch; the island evaluators are made under a lock). */
class SyncEvaluator {
 public:
  /** @brief For a one-job scenario whose job has sync.algorithm diloco. */
  explicit SyncEvaluator(const Scenario& scenario);
  ~SyncEvaluator();
  /** @brief Estimated time per step (s) from the host of every rank; +infinity if an island does not fit. */
  double step_time_of_hosts(const std::vector<int>& host_of_rank) const;
  /** @brief Same from a placement. */
  double step_time_s(const Placement& placement) const;

 private:
  /** The Evaluator of an island of `replicas` replicas (made on first use). */
  const Evaluator& island_evaluator(int replicas) const;
  Scenario scenario_;
  Evaluator whole_;  ///< the whole job: its routes and ring estimate serve the outer all-reduce
  double outer_bytes_per_param_ = 0;
  double largest_stage_params_ = 0;
  /** @brief A cache, not scratch: the island Evaluator of each replica count, made on first use (building one per
   *  count up front would cost dp constructions) and never changed after; an answer is the same with or without it.
   *  Entries are never erased, so a reference to one stays valid after island_mutex_ is released. */
  mutable std::map<int, std::unique_ptr<Evaluator>> island_evaluators_;
  mutable std::mutex island_mutex_;  ///< guards island_evaluators_
};

}  // namespace hulk
