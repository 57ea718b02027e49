#pragma once
/** @file plan.hpp
 *  @brief `hulk plan`: the parallel layout and the placement of a scenario's job chosen together.
 *
 *  Steps (each narrows the layouts, every layout keeps a row saying how far it got):
 *  1. enumerate the layouts of the job's `auto` parts (plan_layouts.hpp), infeasible ones kept with the reason;
 *  2. the compute-only lower bound of each (lower_bound.hpp);
 *  3. screening: in ascending order of the bound, each layout's degrees placed by greedy and every variant of them
 *     (micro-batch, schedule, recomputation) estimated by the analytic evaluator on that placement; a layout whose
 *     bound is not below the best estimate so far cannot win and is not placed; at most `screen` degree choices
 *     are placed (the rest are pruned with that reason);
 *  4. the greedy placements of the `finalists` layouts with the lowest estimates are simulated by SimGrid, except
 *     those whose estimate is more than kFinalistMargin above the best one (the evaluator's error on a greedy
 *     placement is far below that margin, so such a layout cannot come out ahead);
 *  5. the `searched` fastest of them are placed by each of `methods` (the method registry: a placer's gain over
 *     greedy on one layout is small next to the spread between layouts, and search costs many SimGrid runs), and
 *     those placements simulated; the fastest of all simulated placements is the plan's answer. A finalist whose
 *     SimGrid time is already within kSearchSkipGap of its layout's compute-only lower bound is not searched (no
 *     placement can gain more), and the search's budget shrinks with the layout's ranks (plan_search_budget).
 *  With `plan.objective: cost` every step ranks by $ per 1M tokens (plan_cost.hpp) instead of the time, the bound
 *  being the compute-only bound on the cheapest GPUs, and a layout that leaves GPUs idle is also placed by greedy
 *  on the cheapest hosts ("greedy-cheapest"). Deterministic: the same scenario and options give the same rows and
 *  answer, whether or not the plan resumed from its journal (plan_journal.hpp). */
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/plan_cost.hpp"
#include "sim/methods/plan_layouts.hpp"

namespace hulk {

/** @brief Knobs of a plan. */
struct PlanOptions {
  std::vector<std::string> methods = {"search"};  ///< placers of the finalists, besides greedy
  MethodOptions method_options;                   ///< budget and GNN of those methods
  int finalists = 3;                              ///< layouts whose greedy placement is simulated
  int searched = 1;                               ///< of them, the fastest placed by the methods too
  int screen = 64;                                ///< most degree choices (dp, tp, pp) placed by greedy
  bool simgrid = true;                            ///< false: the answer is the best estimate, nothing simulated
  /** @brief The journal file that makes the plan resumable ("" = none) and what identifies the plan in it
   *  (plan_journal.hpp). */
  std::string journal, journal_identity;
  /** @brief Receives one progress line at each step (may be empty). */
  std::function<void(const std::string&)> progress;
};

/** @brief One layout with one placement method (or none when it was not placed). */
struct PlanRow {
  Layout layout;
  std::string method;  ///< "greedy", a finalist method, or "" when not placed
  int gpus = 0;
  double lower_bound_s = std::numeric_limits<double>::quiet_NaN();  ///< compute-only bound (NaN if infeasible)
  double estimate_s = std::numeric_limits<double>::quiet_NaN();     ///< evaluator, this row's placement
  double simgrid_s = std::numeric_limits<double>::quiet_NaN();      ///< SimGrid, where checked
  double peak_memory_bytes = 0;  ///< the heaviest stage's peak memory on one GPU
  double tokens = 0;             ///< tokens per iteration (global batch x sequence length)
  std::string pruned;            ///< why the layout went no further ("" for a finalist's rows)
  Placement placement;           ///< empty when not placed
  PlacementCost cost;            ///< the placement's cost parts (NaN without prices)
  /** @brief The time the plan ranks by: SimGrid's where checked, else the estimate. */
  double time_s() const { return simgrid_s == simgrid_s ? simgrid_s : estimate_s; }
  /** @brief $ per 1M tokens at time_s() (NaN without prices). */
  double usd_per_mtokens() const { return cost.usd_per_mtokens(time_s(), tokens); }
};

/** @brief What a plan found. */
struct PlanReport {
  std::vector<PlanRow> rows;  ///< in enumeration order, a finalist's method rows after its greedy row
  int best = -1;              ///< index of the chosen row
  int layouts = 0;            ///< layouts enumerated
  int feasible = 0;           ///< of them, feasible
  int placed = 0;             ///< layouts placed by greedy
  int simulated = 0;          ///< SimGrid runs
  int resumed = 0;            ///< steps read back from the journal instead of run
  double wall_s = 0;          ///< the plan's wall time
  const PlanRow& chosen() const { return rows.at(static_cast<std::size_t>(best)); }
};

/** @brief Estimates above the best by more than this fraction are not simulated (step 4). */
constexpr double kFinalistMargin = 0.10;
/** @brief A finalist within this fraction of its compute-only lower bound is not searched (step 5). */
constexpr double kSearchSkipGap = 0.005;

/** @brief The search budget (analytic evaluations) the plan gives a layout of `ranks` ranks when none is asked
 *  for: the method's own 20000 up to 64 ranks, then shrinking as 1/ranks (an evaluation costs about in proportion
 *  to the ranks), at least 2000. */
long plan_search_budget(int ranks);

/** @brief Plans the scenario's job (see file comment). @throws InputError when no layout is feasible or none could
 *  be placed, Interrupted on SIGINT/SIGTERM. */
PlanReport run_plan(const Scenario& scenario, const PlanOptions& options);

/** @brief plan.csv: a header and one row per PlanRow (times in seconds, memory in GB, "" where not known). */
std::string plan_csv(const PlanReport& report);

/** @brief best.yaml: the scenario file's YAML with the chosen layout in its job, `plan:` removed, `placement:
 *  file:PLACEMENT` and relative paths made absolute (it is written into another folder). @throws InputError if the
 *  scenario file cannot be read again. */
std::string best_scenario_yaml(const Scenario& scenario, const PlanRow& best, const std::string& placement_file);

/** @brief Writes DIR/plan.csv, DIR/best.yaml and DIR/best-placement.json (each atomically). */
void write_plan(const Scenario& scenario, const PlanReport& report, const std::string& dir);

}  // namespace hulk
