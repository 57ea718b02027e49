#include "sim/place/search_placer.hpp"

#include "sim/place/annealing.hpp"
#include "sim/place/replica_order.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/estimate_trust.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/robust_evaluator.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/island_first.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/stage_order.hpp"
#include "sim/place/tp_ring_order.hpp"

namespace hulk {
namespace {

/** A placement plus its unused GPUs: the annealing state. */
struct State {
  std::vector<GpuSlot> gpu;   // per rank
  std::vector<int> host;      // per rank (= gpu[r].host), what the evaluator reads
  std::vector<GpuSlot> free;  // unused GPUs
};

State make_state(const Scenario& sc, const Placement& p) {
  State st;
  st.gpu = p.gpu_of_rank;
  st.host = hosts_of(p);
  std::vector<GpuSlot> used = p.gpu_of_rank;
  std::sort(used.begin(), used.end());
  for (const GpuSlot& g : all_gpus(sc.platform))
    if (!std::binary_search(used.begin(), used.end(), g)) st.free.push_back(g);
  return st;
}

void swap_ranks(State& st, int a, int b) {
  std::swap(st.gpu[a], st.gpu[b]);
  std::swap(st.host[a], st.host[b]);
}

/** Exchanges the ranks of hosts a and b (each set moves to the other host's slots 0..k-1); false if a set does not
 *  fit the other host (GPU count or memory). Escapes valleys that single swaps cannot cross, e.g. moving a whole
 *  pipeline segment to a faster server. */
bool swap_hosts(State& st, const Scenario& sc, const Evaluator& ev, int a, int b) {
  std::vector<int> on_a, on_b;
  for (size_t r = 0; r < st.host.size(); ++r) {
    if (st.host[r] == a) on_a.push_back(static_cast<int>(r));
    if (st.host[r] == b) on_b.push_back(static_cast<int>(r));
  }
  if (on_a.empty() && on_b.empty()) return false;
  if (static_cast<int>(on_a.size()) > sc.platform.hosts[b].gpus) return false;
  if (static_cast<int>(on_b.size()) > sc.platform.hosts[a].gpus) return false;
  for (int r : on_a)
    if (!ev.fits(r, b)) return false;
  for (int r : on_b)
    if (!ev.fits(r, a)) return false;
  for (size_t i = 0; i < on_a.size(); ++i) {
    st.gpu[on_a[i]] = {b, static_cast<int>(i)};
    st.host[on_a[i]] = b;
  }
  for (size_t i = 0; i < on_b.size(); ++i) {
    st.gpu[on_b[i]] = {a, static_cast<int>(i)};
    st.host[on_b[i]] = a;
  }
  st.free.erase(std::remove_if(st.free.begin(), st.free.end(), [&](const GpuSlot& g) { return g.host == a || g.host == b; }),
                st.free.end());
  for (int i = static_cast<int>(on_b.size()); i < sc.platform.hosts[a].gpus; ++i) st.free.push_back({a, i});
  for (int i = static_cast<int>(on_a.size()); i < sc.platform.hosts[b].gpus; ++i) st.free.push_back({b, i});
  return true;
}

}  // namespace

namespace {

/** A candidate kept for the SimGrid re-check. */
struct Candidate {
  double time_s;
  std::vector<int> hosts;
  std::vector<GpuSlot> gpu;
};

/** Keeps the k best distinct (by host of every rank) states seen, best first. */
void remember(std::vector<Candidate>& top, double t, const State& st, int k) {
  if (static_cast<int>(top.size()) == k && t >= top.back().time_s) return;
  for (const auto& c : top)
    if (c.hosts == st.host) return;
  Candidate c{t, st.host, st.gpu};
  auto it = std::upper_bound(top.begin(), top.end(), t, [](double v, const Candidate& x) { return v < x.time_s; });
  top.insert(it, std::move(c));
  if (static_cast<int>(top.size()) > k) top.pop_back();
}

}  // namespace

namespace {

/** The start of the search and its evaluator time: the given placement (refinement of another method's answer),
 *  else the better of greedy and round-robin by the evaluator; random if none of them is feasible. */
struct Start {
  Placement placement;
  double time_s = std::numeric_limits<double>::infinity();
  std::string method;
};

/** The evaluator time of a placement the search minimises (the every-step estimate, or a DiLoCo job's step time). */
using PlacementTime = std::function<double(const Placement&)>;

Start pick_start(const Scenario& scenario, const Evaluator& ev, const PlacementTime& time_of,
                 const std::optional<Placement>& given) {
  Start st;
  if (given) {
    st.placement = *given;
    if (placement_problem(scenario, st.placement, scenario.only_job().check_memory).empty())
      st.time_s = time_of(st.placement);
    st.method = "given";
  } else {
    try {
      st.placement = GreedyPlacer::place_with(scenario, ev);  // the same as GreedyPlacer().place, one route model
      st.time_s = time_of(st.placement);
      st.method = "greedy";
    } catch (const InputError&) {
    }
    // DiLoCo: greedy's island-first placement is the start (the search keeps its islands), round-robin's is not.
    if (runs_diloco(scenario) && std::isfinite(st.time_s) && IslandKeeper::of(scenario, hosts_of(st.placement)))
      return st;
    const Placement rr = round_robin_placement(scenario);
    if (placement_problem(scenario, rr, scenario.only_job().check_memory).empty()) {
      const double t = time_of(rr);
      if (t < st.time_s) {
        st.placement = rr;
        st.time_s = t;
        st.method = "round-robin";
      }
    }
  }
  if (!std::isfinite(st.time_s)) {
    st.placement = RandomPlacer().place(scenario);  // throws InputError if nothing fits
    st.time_s = time_of(st.placement);
    st.method = "random";
  }
  return st;
}

/** Draws one random move (see search_placer.hpp for the moves and their probabilities) and applies it to `cand`;
 *  false if the drawn move does not apply (same host, memory, too few ranks, ...). */
class MoveProposer {
 public:
  MoveProposer(const Scenario& scenario, const Evaluator& ev, std::mt19937_64& rng,
               std::uniform_real_distribution<double>& unit, std::optional<int> max_tp_groups_across_regions,
               std::optional<IslandKeeper> islands)
      : sc_(scenario), ev_(ev), rng_(rng), unit_(unit), max_across_(max_tp_groups_across_regions),
        islands_(std::move(islands)) {}

  /** A move, if it applies, (with the limit) leaves at most that many TP groups across regions and (DiLoCo from an
   *  island-first start) keeps every replica in its island group. */
  bool propose(State& cand) {
    return move(cand) && (!max_across_ || tp_groups_across_regions_of_hosts(sc_, cand.host) <= *max_across_) &&
           (!islands_ || islands_->keeps(cand.host));
  }

 private:
  bool move(State& cand) {
    const double u = unit_(rng_);
    if (u < 0.30) return swap_two_ranks(cand);
    if (u < 0.50) return move_to_unused_gpu(cand);
    if (u < 0.70) return swap_tp_groups(cand);
    if (u < 0.85) return exchange_hosts(cand);
    return swap_stages(cand);
  }

  int uniform(int n) { return static_cast<int>(std::uniform_int_distribution<int>(0, n - 1)(rng_)); }

  bool swap_two_ranks(State& cand) {
    const int R = sc_.only_job().par.ranks();
    if (R < 2) return false;
    const int a = uniform(R), b = uniform(R);
    if (cand.host[a] == cand.host[b] || !ev_.fits(a, cand.host[b]) || !ev_.fits(b, cand.host[a])) return false;
    swap_ranks(cand, a, b);
    return true;
  }

  bool move_to_unused_gpu(State& cand) {
    if (cand.free.empty()) return false;
    const int a = uniform(sc_.only_job().par.ranks());
    const int i = uniform(static_cast<int>(cand.free.size()));
    if (cand.free[i].host == cand.host[a] || !ev_.fits(a, cand.free[i].host)) return false;
    std::swap(cand.gpu[a], cand.free[i]);
    cand.host[a] = cand.gpu[a].host;
    return true;
  }

  // Swaps rank block g1 with block g2 (blocks of n consecutive ranks) if every rank fits its new host.
  bool swap_blocks(State& cand, int g1, int g2, int n) {
    if (g1 == g2) return false;
    bool ok = true;
    for (int i = 0; i < n && ok; ++i)
      ok = ev_.fits(g1 * n + i, cand.host[g2 * n + i]) && ev_.fits(g2 * n + i, cand.host[g1 * n + i]);
    if (ok)
      for (int i = 0; i < n; ++i) swap_ranks(cand, g1 * n + i, g2 * n + i);
    return ok;
  }

  bool swap_tp_groups(State& cand) {
    const int G = sc_.only_job().par.pp * sc_.only_job().par.dp;
    if (G < 2) return false;
    const int g1 = uniform(G), g2 = uniform(G);
    return swap_blocks(cand, g1, g2, sc_.only_job().par.tp);
  }

  bool exchange_hosts(State& cand) {
    const int H = static_cast<int>(sc_.platform.hosts.size());
    if (H < 2) return false;
    const int a = uniform(H), b = uniform(H);
    return a != b && swap_hosts(cand, sc_, ev_, a, b);
  }

  bool swap_stages(State& cand) {
    const int P = sc_.only_job().par.pp;
    if (P < 2) return false;
    const int s1 = uniform(P), s2 = uniform(P);
    return swap_blocks(cand, s1, s2, sc_.only_job().par.dp * sc_.only_job().par.tp);
  }

  const Scenario& sc_;
  const Evaluator& ev_;
  std::mt19937_64& rng_;
  std::uniform_real_distribution<double>& unit_;
  const std::optional<int> max_across_;
  const std::optional<IslandKeeper> islands_;
};

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

}  // namespace

namespace {

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

}  // namespace

Placement SearchPlacer::place(const Scenario& scenario) {
  if (options_.robust && (job_count(scenario) > 1 || runs_diloco(scenario)))
    throw InputError(scenario.file, 0, "robust",
                     "the robust objective is for one job that synchronises every step (not several jobs or DiLoCo)");
  if (options_.objective_of && job_count(scenario) > 1)
    throw std::logic_error("SearchPlacer: objective_of is for one job");
  // Several jobs: the joint annealing over shares and in-job placements (jobs_search.hpp). A `jobs:` list of one
  // is one job: this annealing, whose moves and reorderings the joint one does not have.
  if (job_count(scenario) > 1) return search_jobs_placement(scenario, options_, stats_);
  const auto t0 = std::chrono::steady_clock::now();
  stats_ = SearchStats{};
  if (options_.simgrid_candidates > 0 && !options_.simgrid_time)
    throw std::logic_error("SearchPlacer: simgrid_candidates > 0 needs SearchOptions::simgrid_time");
  const auto& objective_of = options_.objective_of;
  if (objective_of && (options_.robust || options_.simgrid_candidates > 0 || runs_diloco(scenario)))
    throw std::logic_error("SearchPlacer: objective_of is for one every-step job, without robust or SimGrid checks");
  const Evaluator ev(scenario, options_.network);
  // A DiLoCo job is placed for its time per step (islands sync every step, the outer all-reduce every H steps).
  std::unique_ptr<SyncEvaluator> sync;
  if (runs_diloco(scenario)) sync = std::make_unique<SyncEvaluator>(scenario);
  // The robust objective: the mean estimate over the distribution's network states.
  std::unique_ptr<RobustEvaluator> robust;
  if (options_.robust) robust = std::make_unique<RobustEvaluator>(scenario);
  const PlacementTime time_of = [&](const Placement& p) {
    if (robust) return robust->iteration_time_s(p);
    return sync ? sync->step_time_s(p) : ev.iteration_time_s(p);
  };
  Start start = pick_start(scenario, ev, time_of, options_.start);
  if (robust && !options_.start) start_from_robust_states(scenario, time_of, start);
  long long order_evaluations = 0;
  const PlacementTime counted_time = [&](const Placement& p) {
    ++order_evaluations;
    return time_of(p);
  };
  // Reorderings move stage blocks and replicas across islands: a DiLoCo job's placement keeps its islands.
  const bool reorder = !options_.start && !sync && !objective_of;
  if (objective_of) start.time_s = objective_of(hosts_of(start.placement), start.time_s);
  stats_.start_method = start.method;
  stats_.start_time_s = start.time_s;

  std::mt19937_64 rng(options_.seed ? *options_.seed : component_seed(scenario.seed, "search"));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::optional<IslandKeeper> islands;
  if (sync) islands = IslandKeeper::of(scenario, hosts_of(start.placement));
  MoveProposer moves(scenario, ev, rng, unit, options_.max_tp_groups_across_regions, std::move(islands));
  SearchOptions schedule = options_;
  if (sync && schedule.schedule_evaluations <= 0) schedule.schedule_evaluations = kIslandSearchSpan;

  State cur = make_state(scenario, start.placement);
  std::vector<Candidate> top;
  if (options_.simgrid_candidates > 0) remember(top, start.time_s, cur, options_.simgrid_candidates);
  double best_t = start.time_s;
  const std::vector<GpuSlot> best = anneal(
      cur, start.time_s, schedule, t0, rng, unit, [&](State& c) { return moves.propose(c); },
      [&](const std::vector<int>& hosts) {
        if (robust) return robust->time_of_hosts(hosts);
        if (objective_of) return objective_of(hosts, ev.time_of_hosts(hosts));
        return sync ? sync->step_time_of_hosts(hosts) : ev.time_of_hosts(hosts);
      },
      [&](const std::vector<int>& hosts) {  // the robust, synchronisation and given objectives have no bound here
        return robust || sync || objective_of || !options_.lower_bound ? 0.0 : ev.time_lower_bound_of_hosts(hosts);
      },
      [&](double t, const State& st) {
        if (options_.simgrid_candidates > 0) remember(top, t, st, options_.simgrid_candidates);
      },
      stats_, best_t);
  Placement out;
  out.gpu_of_rank = best;
  // After the annealing, not before: its trajectory (and every result it gave before) is unchanged.
  if (reorder && std::isfinite(best_t) && reordered_faster(scenario, out, best_t, counted_time, ev.network()) &&
      options_.simgrid_candidates > 0)
    remember(top, best_t, make_state(scenario, out), options_.simgrid_candidates);
  stats_.evaluations += order_evaluations;
  stats_.best_time_s = best_t;
  if (options_.simgrid_candidates > 0) {
    out = recheck_with_simgrid(scenario, top, start.placement, options_.simgrid_time, stats_);
    stats_.best_time_s = time_of(out);
  }
  stats_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}


}  // namespace hulk
