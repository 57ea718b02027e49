#pragma once
/** @file compare_runner.hpp
 *  @brief Runs several placement methods on one scenario and measures each placement with SimGrid (each
 *  simulation in its own process). Shared by `compare`, `sweep` and `reproduce`. */
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/methods/known_simulations.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief One method's outcome on one scenario. A ratio is absent (n/a, null in JSON) when this method or the
 *  method it is relative to did not run or failed: an absent value is never shown as 0. */
struct MethodResult {
  std::string method;
  bool ok = false;             ///< false if the method failed (error says why)
  std::string error;
  double iteration_time_s = 0; ///< simulated by SimGrid (meaningful only if ok); with several jobs the objective
                               ///< (weighted mean of the jobs' iteration times, sim/core/jobs.hpp)
  std::vector<double> job_times_s;  ///< each job's simulated iteration time, in job order (one entry for one job)
  /** @brief Share of the wall time a GPU spends computing (compute_s over the time, mean over ranks): a DiLoCo job's
   *  over its outer round, another one job's over its iteration; absent with several jobs. */
  std::optional<double> compute_time_share;
  /** @brief Model FLOPs utilisation (result.json's mfu; a DiLoCo job's over its outer round). */
  std::optional<double> mfu;
  double method_wall_s = 0;    ///< wall time of computing the placement
  std::optional<double> speedup_vs_round_robin;  ///< t(round-robin) / t(method)
  std::optional<double> speedup_vs_greedy;       ///< t(greedy) / t(method)
  std::optional<double> gap_to_lower_bound;      ///< t(method) / lower bound - 1
  std::optional<double> gap_to_search;           ///< t(method) / t(search) - 1 (absent if search not run or failed)
  Placement placement;
};

/** @brief All methods on one scenario. */
struct CompareReport {
  std::string scenario;
  double lower_bound_s = 0;
  std::vector<std::string> job_names;  ///< several jobs: their names (the table then shows each job's time)
  std::vector<MethodResult> results;  ///< in the requested order
};

/** @brief Simulates r.placement with SimGrid (in a child, nothing recorded) and sets r's objective, per-job times
 *  and ok. `known`, if not null: results of this scenario computed before, taken instead of a run and added to
 *  (sim/methods/known_simulations.hpp). @throws InputError as simulate() does. */
void simulate_placement(const Scenario& scenario, MethodResult& r, KnownSimulations* known = nullptr);

/** @brief t / lower_bound - 1, and 0 within rounding (|gap| < 1e-9: a time equal to its bound came out a few ulps
 *  below it, printed as a negative gap). */
double gap_to_bound(double time_s, double lower_bound_s);

/** @brief Sets r's speedups over round-robin and greedy and its gaps to the lower bound and to search, from the
 *  references that ran (a null or failed reference leaves its ratio absent). Gaps are relative_gap()s: a time equal
 *  to search's up to rounding is a gap of 0, not "4e-14%". Nothing is set if r failed. */
void set_ratios(MethodResult& r, const MethodResult* round_robin, const MethodResult* greedy,
                const MethodResult* search, double lower_bound_s);

/** @brief Runs the methods. Each places for the scenario without its events (a quiet network); every placement is
 *  then simulated with the scenario as given, events included. greedy is always simulated (the reference of
 *  speedup_vs_greedy) even when not requested; round-robin only when requested or when round_robin_reference is set
 *  (reproduce: the paper's claim is against it), so that without it speedup_vs_round_robin is absent. Only requested
 *  methods appear in results. A method that throws InputError (e.g. its placement does not fit) is reported with
 *  ok = false. */
CompareReport run_compare(const Scenario& scenario, const std::vector<std::string>& methods,
                          const MethodOptions& options, bool show_progress, bool round_robin_reference = false);

/** @brief The JSON form: {"scenario", "lower_bound_s", "results": [{"method", "iteration_time_s", "objective_s"
 *  (the same number: the weighted mean with several jobs), "jobs": [{"name", "weight", "iteration_time_s"}],
 *  "speedup_vs_round_robin", "speedup_vs_greedy", "gap_to_lower_bound", "gap_to_search" (gaps are ratios),
 *  "compute_time_share", "mfu", "placement", "method_wall_s"}]}; an absent value is null, a failed method has
 *  "ok": false and "error". */
nlohmann::json report_to_json(const Scenario& scenario, const CompareReport& report);

/** @brief True if at least one requested method gave a placement. */
bool any_method_ok(const CompareReport& report);

/** @brief The human table. Times, speedups and gaps (ratios, as in the JSON) are printed to 4 significant digits
 *  (what the golden tests compare); absent values as "n/a". A last line says what the columns hold. */
std::string report_table(const CompareReport& report);

}  // namespace hulk
