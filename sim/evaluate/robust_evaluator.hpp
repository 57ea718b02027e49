#pragma once
/** @file robust_evaluator.hpp
 *  @brief The robust objective: the mean estimated objective of a placement (one job: its iteration time; several:
 *  the jobs' weighted objective, jobs_evaluator.hpp) over network states
 *  drawn from the scenario's `robust:` distribution (RobustSpec: each WAN region pair degraded to a fraction of its
 *  bandwidth with a probability, independently). A placement that is best on a quiet network can be worst when
 *  one of the pairs it leans on is slow; this objective prices that in. */
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"

namespace hulk {

/** @brief `samples` network states of the distribution, each the scenario with the degraded WAN pairs' bandwidth
 *  scaled for the whole run (both directions; capacity `host`: every host's cap across the pair), drawn from
 *  `seed`. A state with no pair degraded is the scenario itself. */
std::vector<Scenario> robust_states(const Scenario& scenario, const RobustSpec& distribution, std::uint64_t seed);

/** @brief Throws the InputError of a scenario without a `robust:` distribution (samples = 0); nothing otherwise. */
void require_robust_distribution(const Scenario& scenario);

/** @brief Mean of the analytic estimates (JobsEvaluator::objective_s: one job's time bit for bit) over the states
 *  of scenario.robust (drawn from scenario.robust.seed). Thread-safe as the JobsEvaluator. */
class RobustEvaluator {
 public:
  /** @throws InputError if the scenario has no `robust:` distribution (samples = 0). */
  explicit RobustEvaluator(const Scenario& scenario);
  /** @brief Mean estimated objective over the states (+infinity if infeasible). */
  double time_of_hosts(const std::vector<int>& host_of_rank) const;
  /** @brief Same, of a placement. */
  double iteration_time_s(const Placement& placement) const;
  /** @brief Number of states. */
  int states() const { return static_cast<int>(evaluators_.size()); }

 private:
  std::vector<std::unique_ptr<JobsEvaluator>> evaluators_;  // one per state
};

}  // namespace hulk
