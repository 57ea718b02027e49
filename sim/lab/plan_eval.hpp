#pragma once
/** @file plan_eval.hpp
 *  @brief How good `hulk plan` is on generated clusters: on each, the plan's answer against an exhaustive
 *  enumeration (every feasible layout placed by search, each simulated by SimGrid) and against the best layout
 *  placed by greedy (every feasible layout's greedy placement simulated), with the wall time of both. */
#include <cstdint>
#include <string>
#include <vector>

#include "sim/methods/plan.hpp"

namespace hulk {

/** @brief Knobs of the evaluation. */
struct PlanEvalOptions {
  int count = 30;               ///< clusters, seeds seed .. seed + count - 1
  std::uint64_t seed = 1;
  int max_gpus = 16;            ///< the sampler's largest cluster
  PlanOptions plan;             ///< the plan under test (its methods also place the exhaustive enumeration)
  std::function<void(const std::string&)> progress;  ///< one line per cluster (may be empty)
};

/** @brief Refuses a method that does not apply to generated clusters (robust, a placement file) and one whose files
 *  are bad (check_method_files), each in turn. @throws InputError naming --methods. */
void check_plan_eval_methods(const std::vector<std::string>& methods, const MethodOptions& options);

/** @brief One cluster's figures (SimGrid seconds per iteration, wall seconds). */
struct PlanEvalRow {
  std::string name;
  int gpus = 0;
  int layouts = 0;           ///< feasible layouts enumerated
  double plan_s = 0;         ///< the plan's answer
  double exhaustive_s = 0;   ///< best of every layout with the methods' placements (and greedy's)
  double greedy_best_s = 0;  ///< best of every layout with greedy's placement
  double plan_wall_s = 0;
  double exhaustive_wall_s = 0;
  std::string plan_layout, exhaustive_layout;
};

/** @brief Runs the evaluation (PlanEvalRow per cluster, in seed order). Clusters whose job no layout fits are
 *  skipped with a progress line. @throws Interrupted on SIGINT/SIGTERM. */
std::vector<PlanEvalRow> run_plan_eval(const PlanEvalOptions& options);

/** @brief The summary lines: clusters within 2% of the exhaustive best, median and total wall-time ratio, clusters
 *  where the plan is slower than greedy's best layout. */
std::string plan_eval_summary(const std::vector<PlanEvalRow>& rows, const PlanEvalOptions& options);

/** @brief The rows as CSV: a header, then one line per cluster (seconds, the layouts' names). */
std::string plan_eval_csv(const std::vector<PlanEvalRow>& rows);

/** @brief Writes plan_eval_csv(rows) to path atomically. @throws InputError if it cannot be written. */
void write_plan_eval_csv(const std::string& path, const std::vector<PlanEvalRow>& rows);

}  // namespace hulk
