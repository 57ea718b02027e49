#pragma once
/** @file generated_eval.hpp
 *  @brief `hulk compare generated`: placement methods on generated clusters shared by several jobs (the held-out
 *  benchmark of several-job placement). Every cluster is drawn from its own seed (sample_jobs_scenario), every
 *  method's placement simulated by SimGrid; the summary compares each method with greedy and with search, and the
 *  several-job evaluator with SimGrid. The CLI checks the options and prints (tools/cli/cmd_jobs_eval.cpp). */
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/lab/reproduce_summary.hpp"

namespace hulk {

/** @brief The clusters and the methods (checked by the caller: 2 <= min_jobs <= max_jobs <= 8, count >= 1). */
struct GeneratedEvalOptions {
  int count = 10, min_jobs = 2, max_jobs = 4, max_gpus = 64;
  std::uint64_t seed = 1;             ///< cluster i: seed + i
  std::vector<std::string> methods;   ///< with gnn among them, the ablation row gnn-prior is added
  MethodOptions options;
};

/** @brief Every cluster that ran, and the verdict over them. */
struct GeneratedEvalReport {
  std::vector<Scenario> scenarios;
  std::vector<CompareReport> reports;  ///< reports[i] is scenarios[i]'s
  std::vector<std::string> methods;    ///< the requested ones, then gnn-prior with gnn among them
  int skipped = 0;                     ///< seeds whose jobs did not fit their cluster
  ClaimVerdict claim;                  ///< for gnn if requested, else the last method
};

/** @brief One method against search over the clusters where both ran. */
struct SearchComparison {
  std::string method;
  int clusters = 0;       ///< where the method and search both ran
  int near_search = 0;    ///< where the method is within 5% of search's time
  int search_beats_greedy = 0;  ///< where search is at least 1% faster than greedy
  std::optional<double> search_time_ratio;  ///< search's placement time over the method's (middle value)
};

/** @brief The several-job evaluator against SimGrid: |estimate / SimGrid - 1| over every placement that ran. */
struct EvaluatorErrors {
  std::size_t placements = 0;
  double median = 0, p90 = 0, largest = 0;
};

/** @brief Jobs of the cluster of `seed`: min_jobs..max_jobs, drawn from the seed. */
int generated_jobs_of(const GeneratedEvalOptions& options, std::uint64_t seed);

/** @brief Refuses, before any cluster is drawn, a method that cannot place a generated cluster of several jobs: robust
 *  optimises one job over a `robust:` distribution the sampler does not draw, and a placement file belongs to one
 *  scenario; and a method whose files are bad (check_method_files: a model file is refused, not failed rows).
 *  @throws InputError naming --methods. */
void check_generated_eval_methods(const std::vector<std::string>& methods, const MethodOptions& options);

/** @brief Runs the methods on every cluster. `progress` gets one line per cluster (drawn or skipped) and
 *  `on_cluster` each cluster's report as it finishes (both may be empty). @throws Interrupted when a cluster was
 *  cut short; InputError when no seed gave a cluster its jobs fit. */
GeneratedEvalReport run_generated_eval(const GeneratedEvalOptions& options,
                                       const std::function<void(const std::string&)>& progress,
                                       const std::function<void(const CompareReport&)>& on_cluster);

/** @brief Per method but search, in order: how it compares with search (methods never run with search left out). */
std::vector<SearchComparison> compare_with_search(const std::vector<CompareReport>& reports,
                                                  const std::vector<std::string>& methods);

/** @brief The evaluator's error against SimGrid over every placement that ran; absent if none ran. */
std::optional<EvaluatorErrors> evaluator_errors(const std::vector<Scenario>& scenarios,
                                                const std::vector<CompareReport>& reports);

}  // namespace hulk
