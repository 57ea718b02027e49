#pragma once
/** @file gnn_families.hpp
 *  @brief `hulk gnn families`: held-out evaluation of the learned placer per family of clusters.
 *
 *  Families (each scenario drawn from its own seed, derived from the command's seed and the family's name):
 *  - `in-family`: the training family (scenario_sampler defaults, builtin GPU catalog, at most max_gpus GPUs, as
 *    `gen-data --max-gpus` made the committed model's data);
 *  - `larger`: the same sampler on 2x..4x max_gpus GPUs (redrawn until the platform has at least 2x max_gpus);
 *  - `wan-host`: the training family with the other WAN capacity model (each host's own cap, WanCapacity::host);
 *  - `multi-job`: 2..4 jobs sharing a cluster of at most max_gpus GPUs (sample_jobs_scenario);
 *  - `paper`: the scenario files of a folder (scenarios/paper), no seed.
 *  The figures are computed from SimGrid times only; every number printed is one of them or a wall time. */
#include <cstdint>
#include <cmath>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Every family name, in printing order. */
const std::vector<std::string>& gnn_family_names();

/** @brief What the families are drawn from. */
struct FamilyOptions {
  int count = 10;          ///< generated scenarios per generated family
  std::uint64_t seed = 1;  ///< the command's seed; each family's scenarios use seeds derived from it (used once)
  int max_gpus = 64;       ///< the training family's largest platform (GPUs)
  std::string paper_dir;   ///< folder of the `paper` family's scenario files (*.yaml, sorted by name)
};

/** @brief The seed of scenario `index` of a generated family: stream_seed(component_seed(seed, "gnn-families/" +
 *  family), index * 16 + attempt) (attempt > 0 when an earlier draw was skipped). */
std::uint64_t family_scenario_seed(std::uint64_t seed, const std::string& family, int index, int attempt);

/** @brief The scenarios of one family (count for generated ones, every file for `paper`).
 *  @throws InputError for an unknown family name, a bad paper folder, or a family that cannot be drawn. */
std::vector<Scenario> family_scenarios(const std::string& family, const FamilyOptions& options);

/** @brief Cap on equal_budget_placement's proposals per full estimate of its budget: proposals the lower bound
 *  rejects cost no estimate but do cost time (a lower bound, a few percent of an estimate); where it rejects nearly
 *  all of them the run stops at this cap with fewer estimates than its budget. */
constexpr long long kEqualBudgetProposalsPerEstimate = 64;

/** @brief The `equal-budget` row's placement: the search's random-move annealing (search_placer.hpp) from `greedy`,
 *  its seed component_seed(scenario.seed, "equal-budget"), with a budget in full estimates
 *  (SearchOptions::max_estimates, evaluation_count.hpp): the temperature falls over them, and repeats cost none.
 *  With several jobs a proposal estimates every job, so the budget is evaluator_calls / jobs proposals costed. A run
 *  measures the estimates made outside the annealing's budget (its start's) and, if it missed, a second run takes
 *  them off. First with the lower bound (proposals it shows slower cost no estimate: more moves tried); where the
 *  bound leaves too few proposals to spend the budget within kEqualBudgetProposalsPerEstimate per estimate, the
 *  same without the bound, every proposal costed. The kept run makes exactly evaluator_calls estimates (up to
 *  jobs - 1 fewer with several jobs; fewer only where repeats exhaust the proposals on a tiny cluster). What blind
 *  moves find at the gnn method's cost. Deterministic; never slower than `greedy` by the evaluator (the annealing
 *  returns the best it saw, its start included). @param estimates if set, receives the full estimates the kept run
 *  made. */
Placement equal_budget_placement(const Scenario& scenario, const Placement& greedy, long long evaluator_calls,
                                 long long* estimates = nullptr);

/** @brief One scenario's SimGrid times (seconds per iteration; the objective with several jobs) and wall times. */
struct FamilyCase {
  std::string name;
  double greedy_s = 0, search_s = 0;
  double search_wall_s = 0;          ///< wall time of the search's placement (SimGrid checks included)
  std::vector<double> variant_s;     ///< per variant, SimGrid time of its placement (same order as the names)
  std::vector<double> variant_ms;    ///< per variant, in-process placement time (model already loaded)
  /** @brief The analytic evaluator's estimates (with several jobs their objective) of the search's placement and of
   *  the first variant's, whose SimGrid times are above: how far off the evaluator the placers trust is on the
   *  placements they chose (NaN: not computed). */
  double search_estimate_s = NAN, first_estimate_s = NAN;
  /** @brief Full evaluator estimates the `gnn` variant's placement made (the `equal-budget` row's budget; -1: not
   *  counted). */
  long long gnn_evaluator_calls = -1;
  long long equal_budget_evaluator_calls = -1;  ///< full estimates of the `equal-budget` row's kept run (-1: none)
};

/** @brief The evaluator's error on chosen placements, estimate / SimGrid - 1, over a family's cases. */
struct EstimateErrors {
  int cases = 0;               ///< cases with an estimate
  double median_abs = NAN;     ///< median |error|
  double worst = NAN;          ///< the error of largest magnitude, signed (negative: the estimate was too fast)
  int optimistic = 0;          ///< cases whose estimate is more than 1% below SimGrid's time
};

/** @brief One variant's figures over a family. Ratios are t(greedy) / t(variant). */
/** @brief The least gain of the search over greedy (geometric mean, 1%) for which a family's `closed` share is
 *  given: below it the share is the ratio of two noise-sized gains and means nothing. */
constexpr double kClosedFromGain = 0.01;

struct FamilyRow {
  std::string variant;
  double geomean_vs_greedy = 0, worst_vs_greedy = 0;
  /** @brief Share of greedy's gap to search closed on a log scale, at the geometric mean:
   *  log(geomean vs greedy) / log(search's geomean vs greedy); NaN (printed "-") when the search is less than
   *  kClosedFromGain faster than greedy, where the share of a vanishing gap is noise. */
  double closed = 0;
  /** @brief Mean over the cases where greedy is >= 10% slower than search of log(t_greedy/t)/log(t_greedy/t_search)
   *  (NaN when there is none). */
  double closed_hard = 0;
  int below_097 = 0;          ///< cases below 0.97x greedy
  int at_least_greedy = 0;    ///< cases with t <= t_greedy
  double mean_ms = 0, max_ms = 0;
  double search_time_ratio = 0;  ///< median over cases of search's wall time over this variant's placement time
};

/** @brief A family's figures. */
struct FamilyFigures {
  std::string family;
  int cases = 0;
  int hard = 0;                   ///< cases where greedy is >= 10% slower than search
  double search_vs_greedy = 0;    ///< geometric mean of t_greedy / t_search
  double search_worst_vs_greedy = 0;
  std::vector<FamilyRow> rows;    ///< one per variant, in the given order
  /** @brief Full evaluator estimates over the cases with both counts: the gnn method's and the equal-budget row's
   *  (FamilyCase::gnn_evaluator_calls, equal_budget_evaluator_calls), and the cases where they are equal. */
  long long gnn_estimates = 0, equal_budget_estimates = 0;
  int counted = 0, budget_matched = 0;
  EstimateErrors search_estimates, first_estimates;  ///< on the search's and the first variant's placements
};

/** @brief Figures of a family's cases (variants: the names of FamilyCase::variant_s's entries).
 *  @throws InputError if a case has another number of variants. */
FamilyFigures family_figures(const std::string& family, const std::vector<FamilyCase>& cases,
                             const std::vector<std::string>& variants);

/** @brief The family's table as `hulk gnn families` prints it. */
std::string family_table(const FamilyFigures& figures);

/** @brief The "done when" checks over all families, one line each (variant "gnn" against greedy, search
 *  and "untrained" when those rows exist), each ending in "met" or "NOT met". */
std::string family_criteria(const std::vector<FamilyFigures>& families);

/** @brief family,name,greedy_s,search_s,search_wall_s,<variant>_s...,<variant>_ms...,search_estimate_s,
 *  <first variant>_estimate_s,gnn_evaluator_calls,equal_budget_evaluator_calls (empty when not counted), one line per case. */
std::string family_csv(const std::vector<std::string>& families, const std::vector<std::vector<FamilyCase>>& cases,
                       const std::vector<std::string>& variants);

}  // namespace hulk
