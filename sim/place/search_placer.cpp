#include "sim/place/search_placer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/robust_evaluator.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/place/annealing.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/island_first.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/replica_order.hpp"
#include "sim/place/search_moves.hpp"
#include "sim/place/stage_order.hpp"
#include "sim/place/tp_ring_order.hpp"

namespace hulk {
namespace {

/** A candidate kept for the SimGrid re-check. */
struct Candidate {
  double time_s;
  std::vector<int> hosts;
  std::vector<GpuSlot> gpu;
};

/** Keeps the k best distinct (by host of every rank) states seen, best first. */
void remember(std::vector<Candidate>& top, double t, const SearchState& st, int k) {
  if (static_cast<int>(top.size()) == k && t >= top.back().time_s) return;
  for (const auto& c : top)
    if (c.hosts == st.host) return;
  Candidate c{t, st.host, st.gpu};
  auto it = std::upper_bound(top.begin(), top.end(), t, [](double v, const Candidate& x) { return v < x.time_s; });
  top.insert(it, std::move(c));
  if (static_cast<int>(top.size()) > k) top.pop_back();
}

/** The objective of a placement the search minimises. */
using PlacementTime = std::function<double(const Placement&)>;
/** The same objective (or a lower bound of it) from the host of every rank. */
using HostsTime = std::function<double(const std::vector<int>&)>;

/** The evaluators the search reads, kept alive for it: the jobs' evaluator (one job: that job's Evaluator, bit for
 *  bit), with a DiLoCo job's step time or the robust mean when asked. */
struct SearchEvaluators {
  std::unique_ptr<JobsEvaluator> jobs;
  std::unique_ptr<SyncEvaluator> sync;
  std::unique_ptr<RobustEvaluator> robust;
};

/** What the search asks of its evaluators, whichever they are: one rule of search for any number of jobs. */
struct SearchObjective {
  RankFits fits;                     ///< memory, rank by rank (Placement order)
  PlacementTime time_of;             ///< the objective of a placement
  HostsTime of_hosts;                ///< the objective of the ranks' hosts (the annealing's fast path)
  HostsTime bound_of_hosts;          ///< a lower bound of of_hosts, or 0 where there is none (annealing.hpp)
  std::function<Placement()> greedy; ///< greedy's placement (several jobs: the best job order)
  bool check_memory = true;          ///< whether a start must fit memory to be kept
};

/** The objective: the jobs' (JobsEvaluator::objective_s: one job's iteration time; several jobs' weighted mean
 *  under the contention approximation), a DiLoCo job's step time, the robust mean over network states, or
 *  options.objective_of of the jobs'. */
SearchObjective search_objective(const Scenario& s, const SearchOptions& options, SearchEvaluators& evs) {
  evs.jobs = std::make_unique<JobsEvaluator>(s, options.network);
  // A DiLoCo job is placed for its time per step (islands sync every step, the outer all-reduce every H steps).
  if (runs_diloco(s)) evs.sync = std::make_unique<SyncEvaluator>(s);
  // The robust objective: the mean estimate over the distribution's network states.
  if (options.robust) evs.robust = std::make_unique<RobustEvaluator>(s);
  const JobsEvaluator& ev = *evs.jobs;
  const SyncEvaluator* sync = evs.sync.get();
  const RobustEvaluator* robust = evs.robust.get();
  const auto& objective_of = options.objective_of;
  const bool bounded = !robust && !sync && !objective_of && options.lower_bound;
  SearchObjective o;
  o.fits = [&ev](int r, int h) { return ev.fits(r, h); };
  o.time_of = [&ev, sync, robust](const Placement& p) {
    if (robust) return robust->iteration_time_s(p);
    return sync ? sync->step_time_s(p) : ev.objective_s(p);
  };
  o.of_hosts = [&ev, sync, robust, &objective_of](const std::vector<int>& hosts) {
    if (robust) return robust->time_of_hosts(hosts);
    if (objective_of) return objective_of(hosts, ev.objective_of_hosts(hosts));
    return sync ? sync->step_time_of_hosts(hosts) : ev.objective_of_hosts(hosts);
  };
  // The robust, synchronisation and given objectives have no bound here.
  o.bound_of_hosts = [&ev, bounded](const std::vector<int>& hosts) {
    return bounded ? ev.objective_lower_bound_of_hosts(hosts) : 0.0;
  };
  o.greedy = [&s, &ev] { return greedy_search_start(s, ev); };
  // A start need not fit memory only where no job checks it.
  o.check_memory = std::any_of(s.jobs.begin(), s.jobs.end(), [](const JobSpec& j) { return j.check_memory; });
  return o;
}

/** The start of the search and its objective: the given placement (refinement of another method's answer), else
 *  the better of greedy and round-robin by the objective; random if none of them is feasible. */
struct Start {
  Placement placement;
  double time_s = std::numeric_limits<double>::infinity();
  std::string method;
};

Start pick_start(const Scenario& scenario, const SearchObjective& objective,
                 const std::optional<Placement>& given) {
  Start st;
  if (given) {
    st.placement = *given;
    if (placement_problem(scenario, st.placement, objective.check_memory).empty())
      st.time_s = objective.time_of(st.placement);
    st.method = "given";
  } else {
    try {
      st.placement = objective.greedy();
      st.time_s = objective.time_of(st.placement);
      st.method = "greedy";
    } catch (const InputError&) {  // no room for the job, or (several jobs) in no job order for every job
    }
    // DiLoCo: greedy's island-first placement is the start (the search keeps its islands), round-robin's is not.
    if (runs_diloco(scenario) && std::isfinite(st.time_s) && IslandKeeper::of(scenario, hosts_of(st.placement)))
      return st;
    const Placement rr = round_robin_placement(scenario);
    if (placement_problem(scenario, rr, objective.check_memory).empty()) {
      const double t = objective.time_of(rr);
      if (t < st.time_s) {
        st.placement = rr;
        st.time_s = t;
        st.method = "round-robin";
      }
    }
  }
  if (!std::isfinite(st.time_s)) {
    st.placement = RandomPlacer().place(scenario);  // throws InputError if nothing fits
    st.time_s = objective.time_of(st.placement);
    st.method = "random";
  }
  return st;
}

/** The robust objective also starts from greedy's answer for each sampled network state (where a pair is degraded
 *  greedy may keep the job off it: a valley annealing rarely crosses from the quiet answer), whichever is best. */
void start_from_robust_states(const Scenario& scenario, const PlacementTime& time_of, Start& start) {
  for (const Scenario& state : robust_states(scenario, scenario.robust, scenario.robust.seed)) {
    try {
      const Placement p = GreedyPlacer().place(state);
      const double t = time_of(p);
      if (t < start.time_s) start = Start{p, t, "greedy (a robust state)"};
    } catch (const InputError&) {
    }
  }
}

/** The best by SimGrid of the kept candidates and the start (fills the SimGrid fields of stats). */
Placement recheck_with_simgrid(const Scenario& scenario, const std::vector<Candidate>& top, const Placement& start,
                               const TimeOracle& simgrid_time, SearchStats& stats) {
  // Final answer by SimGrid: the best few distinct placements by the evaluator, and the start (so the result is
  // never worse than greedy/round-robin under SimGrid either). Evaluator-best first; ties keep the earlier one.
  std::vector<Placement> cands;
  for (const auto& c : top) {
    Placement p;
    p.gpu_of_rank = c.gpu;
    cands.push_back(p);
  }
  cands.push_back(start);
  Placement out;
  double best_sim = std::numeric_limits<double>::infinity();
  for (const Placement& p : cands) {
    const double ts = simgrid_time(scenario, p);
    ++stats.simgrid_runs;
    if (ts < best_sim) {
      best_sim = ts;
      out = p;
    }
  }
  stats.simgrid_time_s = best_sim;
  return out;
}

/** Replaces `out` (of time best_t) by a faster reordering of itself, if one is found, and says so: its pipeline
 *  stage blocks in other orders (stage_order.hpp), a valley the annealing's local moves rarely cross; then its TP
 *  rings re-chained over the same GPUs (tp_ring_order.hpp), since swaps reach a better ring only through orders
 *  that are slower on the way; then its DP replicas re-ordered (replica_order.hpp), for the same reason. */
bool reordered_faster(const Scenario& scenario, Placement& out, double& best_t, const PlacementTime& time_of,
                      const RouteModel& network) {
  TimedPlacement o = fastest_stage_order(scenario, out, best_t, kSearchStageOrders, time_of, &network);
  o = fastest_tp_ring_order(scenario, o.placement, o.time_s, time_of, &network);
  o = fastest_replica_order(scenario, o.placement, o.time_s, time_of, network);
  if (!(o.time_s < best_t)) return false;
  out = std::move(o.placement);
  best_t = o.time_s;
  return true;
}

/** The options' combinations that place() refuses. */
void check_search_options(const Scenario& scenario, const SearchOptions& options) {
  // A DiLoCo job's objective is its step time (sync_evaluator.hpp), which the network states do not average yet.
  if (options.robust && runs_diloco(scenario))
    throw InputError(scenario.file, 0, "robust",
                     "the robust objective is for jobs that synchronise every step (not DiLoCo; expected "
                     "sync.algorithm: step)");
  if (options.simgrid_candidates > 0 && !options.simgrid_time)
    throw std::logic_error("SearchPlacer: simgrid_candidates > 0 needs SearchOptions::simgrid_time");
  if (options.objective_of && (options.robust || options.simgrid_candidates > 0 || runs_diloco(scenario)))
    throw std::logic_error("SearchPlacer: objective_of is for jobs that sync every step, without robust or SimGrid "
                           "checks");
}

}  // namespace

Placement SearchPlacer::place(const Scenario& scenario) {
  check_search_options(scenario, options_);
  const auto t0 = std::chrono::steady_clock::now();
  stats_ = SearchStats{};
  SearchEvaluators evs;
  const SearchObjective objective = search_objective(scenario, options_, evs);
  Start start = pick_start(scenario, objective, options_.start);
  if (evs.robust && !options_.start) start_from_robust_states(scenario, objective.time_of, start);
  long long order_evaluations = 0;
  const PlacementTime counted_time = [&](const Placement& p) {
    ++order_evaluations;
    return objective.time_of(p);
  };
  // Reorderings move stage blocks and replicas across islands: a DiLoCo job's placement keeps its islands. They
  // reorder one job's pipeline, rings and replicas (several jobs' ranks interleave on the GPUs they share).
  const bool one_job = job_count(scenario) == 1;
  const bool reorder = one_job && !options_.start && !evs.sync && !options_.objective_of;
  const auto& objective_of = options_.objective_of;
  if (objective_of) start.time_s = objective_of(hosts_of(start.placement), start.time_s);
  stats_.start_method = start.method;
  stats_.start_time_s = start.time_s;

  std::mt19937_64 rng(options_.seed ? *options_.seed : component_seed(scenario.seed, "search"));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::optional<IslandKeeper> islands;
  if (evs.sync) islands = IslandKeeper::of(scenario, hosts_of(start.placement));
  const std::optional<int> max_across = one_job ? options_.max_tp_groups_across_regions : std::nullopt;
  SearchMoves moves(scenario, objective.fits, rng, unit, max_across, std::move(islands));
  SearchOptions schedule = options_;
  if (evs.sync && schedule.schedule_evaluations <= 0) schedule.schedule_evaluations = kIslandSearchSpan;

  SearchState cur = make_search_state(scenario, start.placement);
  std::vector<Candidate> top;
  const int k = options_.simgrid_candidates;
  if (k > 0) remember(top, start.time_s, cur, k);
  double best_t = start.time_s;
  Placement out;
  out.gpu_of_rank = anneal(
      cur, start.time_s, schedule, t0, rng, unit, [&](SearchState& c) { return moves.propose(c); },
      objective.of_hosts, objective.bound_of_hosts,
      [&](double t, const SearchState& st) {
        if (k > 0) remember(top, t, st, k);
      },
      stats_, best_t);
  // After the annealing, not before: its trajectory (and every result it gave before) is unchanged.
  if (reorder && std::isfinite(best_t) &&
      reordered_faster(scenario, out, best_t, counted_time, evs.jobs->job_evaluator(0).network()) && k > 0)
    remember(top, best_t, make_search_state(scenario, out), k);
  stats_.evaluations += order_evaluations;
  stats_.best_time_s = best_t;
  if (k > 0) {
    out = recheck_with_simgrid(scenario, top, start.placement, options_.simgrid_time, stats_);
    stats_.best_time_s = objective.time_of(out);
  }
  stats_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace hulk
