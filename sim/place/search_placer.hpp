#pragma once
/** @file search_placer.hpp
 *  @brief Simulated annealing over placements, driven by the analytic evaluator (evaluator.hpp).
 *
 *  One rule for any number of jobs (one job is the list of one): the state is every job's ranks in Placement order
 *  and the objective is the JobsEvaluator's (JobsEvaluator::objective_of_hosts): one job's iteration time, bit for
 *  bit its Evaluator's, or the weighted mean of several jobs' times under the contention approximation.
 *  Start: the better (by the objective) of greedy (greedy_search_start: the jobs in the best job order) and
 *  round-robin (round-robin only if memory-feasible).
 *  Moves (search_moves.hpp): swap the GPUs of two ranks on different hosts (0.30); move a rank to an unused GPU
 *  (0.20, if any is unused); swap two whole TP groups of one size (0.20); exchange all ranks of two hosts (0.15);
 *  swap two whole pipeline stages of one size rank by rank (0.15); groups and stages of any job, so with several
 *  jobs a move may trade GPUs between their shares.
 *  A move that breaks memory is rejected without evaluation. Acceptance: Metropolis with a temperature falling
 *  geometrically from 3% to 0.001% of the start time over the budget. The best feasible placement seen is
 *  returned, so the result is never worse than the start by the objective; with one job and without a given start
 *  (SearchOptions::start), up to kSearchStageOrders orders of its pipeline stages' GPU blocks are tried on it at
 *  the end (stage_order.hpp), then its TP rings re-chained (tp_ring_order.hpp) and its DP replicas re-ordered
 *  (replica_order.hpp). Optionally (simgrid_candidates) the final choice among the best few and the start is made
 *  by SimGrid (with several jobs the oracle gets the whole scenario and returns the cluster objective).
 *  A DiLoCo job (JobSpec::sync) is placed for its step time (sync_evaluator.hpp): the start is greedy's island-first
 *  placement (island_first.hpp), moves that would take a rank out of its replica's island group do not apply, the
 *  temperature falls over kIslandSearchSpan evaluations at a time from the best state seen (never worse with a larger
 *  budget), and no reordering follows (it would move replicas between islands).
 *  Deterministic for a seed when the budget is in evaluations (a seconds budget stops on the wall clock). */
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/place/placer.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief Stage reorderings (stage_order.hpp) tried on the annealing's answer, one evaluation each (counted in
 *  SearchStats::evaluations, on top of the annealing's budget). */
constexpr int kSearchStageOrders = 6;

/** @brief The temperature's span (SearchOptions::schedule_evaluations) for a DiLoCo job: its search then never ends
 *  worse with a larger budget. */
constexpr long long kIslandSearchSpan = 1000;

/** @brief Budget and seed of the search. */
struct SearchOptions {
  long long max_evaluations = 20000;  ///< evaluator calls (moves evaluated), the default budget
  double max_seconds = 0;             ///< wall-clock budget, seconds (0 = none); stops at whichever comes first
  std::optional<std::uint64_t> seed;  ///< overrides component_seed(scenario.seed, "search")
  std::optional<Placement> start;     ///< start here instead of greedy/round-robin (used by gnn+refine)
  /** @brief If > 0: keep this many best distinct placements (by the evaluator), simulate them and the start with
   *  SimGrid (through simgrid_time) and return the best by SimGrid: never worse than the start
   *  (greedy or round-robin) under SimGrid. Do not enable in a process whose torch thread pool has started. */
  int simgrid_candidates = 0;
  /** @brief The SimGrid time used when simgrid_candidates > 0 (required then). */
  TimeOracle simgrid_time;
  /** @brief Minimise the robust objective (sim/evaluate/robust_evaluator.hpp: the mean estimate over the network
   *  states of the scenario's `robust:` distribution) instead of the quiet network's estimate; the start is the best
   *  by that objective of greedy, round-robin and greedy on each state. Any number of jobs (the mean of the jobs'
   *  objective), every-step synchronisation. */
  bool robust = false;
  /** @brief If set (jobs that synchronise every step, not robust): the annealing minimises
   *  objective_of(host of every rank, the evaluator's objective) instead of it, e.g. `hulk plan`'s dollars per 1M
   *  tokens (GPU price x time + egress). It must depend on the hosts and the time alone. No lower bound prunes
   *  proposals (the time's bound says nothing of the objective), no reordering follows the annealing (it orders for
   *  time), and SearchStats' times are objectives. Not with simgrid_candidates. */
  std::function<double(const std::vector<int>&, double)> objective_of;
  /** @brief The platform's route model, shared by the caller's several searches of one scenario (hosts^2 routes:
   *  at 1,024 hosts each build costs as much as a hundred evaluations); nullptr = built by place(). */
  std::shared_ptr<const RouteModel> network;
  /** @brief Skip the evaluation of proposals the evaluator's lower bound shows rejected (annealing.hpp): the same
   *  run bit for bit, faster. False only to compare (tests, benchmarks). No effect with robust or synchronisation
   *  objectives, which have no bound. */
  bool lower_bound = true;
  /** @brief If set (one job; ignored with several): proposals that place more tensor-parallel groups across
   *  regions than this are not applicable, as moves that break memory are not. The gnn method's annealing on large jobs, whose answer no
   *  SimGrid run checks, stays where the evaluator's error was measured (sim/evaluate/estimate_trust.hpp). */
  std::optional<int> max_tp_groups_across_regions;
  /** @brief If > 0: the temperature falls from its start to its end over this many evaluations, then the annealing
   *  goes on from the best state seen, the temperature back at its start, and so on until the budget. No decision
   *  then depends on the budget: a run with a larger budget extends the run with a smaller one, so it never ends
   *  worse by the objective. 0: one fall over the whole budget. DiLoCo jobs get kIslandSearchSpan when 0. */
  long long schedule_evaluations = 0;
  /** @brief If > 0: the annealing stops after this many proposals costed by the objective (full estimates; repeats
   *  and proposals the lower bound rejects cost none and are not counted), and its temperature falls over them
   *  instead of over max_evaluations, which stays a cap on proposals. Why: a budget in estimates is what an
   *  estimate costs, and `gnn families`' equal-budget row gives blind moves exactly the estimates the gnn method
   *  spent. Not with schedule_evaluations. */
  long long max_estimates = 0;
  /** @brief If set: a line "LABEL: E of B evaluations, best T s" goes here every progress_every_s seconds of the
   *  annealing (a budget of millions of evaluations runs for minutes). */
  std::ostream* progress = nullptr;
  std::string progress_label = "search";  ///< the progress lines' prefix
  double progress_every_s = 10.0;         ///< seconds between progress lines
};

/** @brief What the last place() call did. */
struct SearchStats {
  long long evaluations = 0;  ///< evaluations of the budget spent (repeats included)
  long long repeats = 0;      ///< of those, repeats of a recent proposal answered without the evaluator
  long long bounded = 0;      ///< of those, proposals rejected on the evaluator's lower bound alone (annealing.hpp)
  long long accepted = 0;     ///< moves accepted
  double start_time_s = 0;    ///< evaluator time of the start placement, seconds
  double best_time_s = 0;     ///< evaluator time of the returned placement, seconds
  double wall_s = 0;          ///< wall time of place(), seconds
  std::string start_method;   ///< "greedy" or "round-robin"
  int simgrid_runs = 0;       ///< SimGrid re-check simulations run (simgrid_candidates > 0)
  double simgrid_time_s = 0;  ///< SimGrid time of the returned placement (if re-checked), seconds
};

/** @brief Simulated-annealing placer (see file comment), for any number of jobs; with several jobs its stats' times
 *  are objectives (the weighted mean of the jobs' times). */
class SearchPlacer : public Placer {
 public:
  explicit SearchPlacer(SearchOptions options = {}) : options_(options) {}
  std::string name() const override { return options_.robust ? "robust" : "search"; }
  /** @throws InputError if no feasible start exists (the job does not fit). */
  Placement place(const Scenario& scenario) override;
  /** @brief Statistics of the last place() call. */
  const SearchStats& stats() const { return stats_; }

 private:
  SearchOptions options_;
  SearchStats stats_;
};

}  // namespace hulk
