#include "sim/place/jobs_search.hpp"

#include <algorithm>
#include <map>
#include <chrono>
#include <functional>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/annealing.hpp"
#include "sim/place/jobs_placement.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"

namespace hulk {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/** Up to this many jobs the start is the best greedy over every job order (4! = 24 greedy runs). */
constexpr int kMaxJobsForEveryStartOrder = 4;

/** The annealing state: every rank's GPU and host (Placement order) and the unused GPUs. */
struct State {
  std::vector<GpuSlot> gpu;
  std::vector<int> host;
  std::vector<GpuSlot> free;
};

State make_state(const Scenario& s, const Placement& p) {
  State st;
  st.gpu = p.gpu_of_rank;
  st.host = hosts_of(p);
  std::vector<GpuSlot> used = p.gpu_of_rank;
  std::sort(used.begin(), used.end());
  for (const GpuSlot& g : all_gpus(s.platform))
    if (!std::binary_search(used.begin(), used.end(), g)) st.free.push_back(g);
  return st;
}

struct Start {
  Placement placement;
  double objective_s = kInf;
  std::string method;
};

/** Keeps `p` as the start if it is valid and strictly better (the first of equal candidates wins). */
void consider(const Scenario& s, const JobsEvaluator& ev, const Placement& p, const std::string& method, Start& st) {
  if (!placement_problem(s, p, true).empty()) return;
  const double t = ev.objective_s(p);
  if (t < st.objective_s) st = Start{p, t, method};
}

}  // namespace

Placement best_greedy_jobs_placement(const Scenario& s, const JobsEvaluator& ev, std::vector<int>* order_used,
                                     GreedyShareCache* cache) {
  // Every (reserve, order) greedy run is independent: they run on the machine's cores (parallel_tasks.hpp), then are
  // judged one after another in their order, so the answer is the same on any number of threads.
  struct Run {
    bool reserve;
    std::vector<int> order;
    Placement placement;
    std::optional<InputError> error;  // this order leaves a job no room; another may not
  };
  std::vector<Run> runs;
  for (bool reserve : {false, true})
    for (const std::vector<int>& order : greedy_job_orders(s, kMaxJobsForEveryStartOrder))
      runs.push_back({reserve, order, Placement{}, std::nullopt});
  GreedyShareCache own_cache;  // 48 greedy runs over 4 jobs place the same job on the same GPUs many times
  GreedyShareCache* shares = cache ? cache : &own_cache;
  std::vector<std::function<void()>> tasks;
  for (Run& run : runs)
    tasks.push_back([&s, shares, &run]() {
      try {
        run.placement = greedy_jobs_placement(s, run.order, run.reserve, shares);
      } catch (const InputError& e) {
        run.error = e;
      }
    });
  run_tasks(tasks);
  std::optional<InputError> first;
  Placement best;
  double best_s = kInf;
  std::map<std::vector<GpuSlot>, double> objective_of;  // different orders often give the same placement
  for (Run& run : runs) {
    if (run.error) {
      if (!first) first = run.error;
      continue;
    }
    const auto [known, fresh] = objective_of.try_emplace(run.placement.gpu_of_rank, 0.0);
    if (fresh) known->second = ev.objective_s(run.placement);
    const double t = known->second;
    if (best.gpu_of_rank.empty() || t < best_s) {  // the first of equal candidates wins
      best = std::move(run.placement);
      best_s = t;
      if (order_used) *order_used = run.order;
    }
  }
  if (best.gpu_of_rank.empty()) throw *first;
  return best;
}

namespace {

Start pick_start(const Scenario& s, const JobsEvaluator& ev, const std::optional<Placement>& given) {
  Start st;
  if (given) {
    consider(s, ev, *given, "given", st);
  } else {
    try {
      consider(s, ev, best_greedy_jobs_placement(s, ev), "greedy", st);
    } catch (const InputError&) {  // no order leaves every job room
    }
    consider(s, ev, round_robin_placement(s), "round-robin", st);
  }
  if (!std::isfinite(st.objective_s)) {
    st.placement = RandomPlacer().place(s);  // throws InputError if the jobs cannot fit together
    st.objective_s = ev.objective_s(st.placement);
    st.method = "random";
  }
  return st;
}

/** Draws one move (jobs_search.hpp) and applies it to `cand`; false if the drawn move does not apply. */
class JobsMoves {
 public:
  JobsMoves(const Scenario& s, const JobsEvaluator& ev, std::mt19937_64& rng) : s_(s), ev_(ev), rng_(rng) {
    for (int j = 0; j < job_count(s); ++j) begin_.push_back(job_rank_offset(s, j));
    begin_.push_back(total_ranks(s));
  }

  bool propose(State& c) {
    const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
    if (u < 0.30) return swap_across_jobs(c);
    if (u < 0.60) return swap_in_job(c);
    if (u < 0.85) return move_to_unused(c);
    return exchange_hosts(c);
  }

 private:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi - 1)(rng_); }
  int job_of(int r) const {
    return static_cast<int>(std::upper_bound(begin_.begin(), begin_.end(), r) - begin_.begin()) - 1;
  }

  bool swap_if_fits(State& c, int a, int b) {
    if (c.host[a] == c.host[b] || !ev_.fits(a, c.host[b]) || !ev_.fits(b, c.host[a])) return false;
    std::swap(c.gpu[a], c.gpu[b]);
    std::swap(c.host[a], c.host[b]);
    return true;
  }

  bool swap_across_jobs(State& c) {
    const int R = begin_.back(), a = uniform(0, R), j = job_of(a);
    const int others = R - (begin_[j + 1] - begin_[j]);
    if (others == 0) return false;
    int b = uniform(0, others);  // the b-th rank outside job j
    if (b >= begin_[j]) b += begin_[j + 1] - begin_[j];
    return swap_if_fits(c, a, b);
  }

  bool swap_in_job(State& c) {
    const int a = uniform(0, begin_.back()), j = job_of(a);
    return swap_if_fits(c, a, uniform(begin_[j], begin_[j + 1]));
  }

  bool move_to_unused(State& c) {
    if (c.free.empty()) return false;
    const int a = uniform(0, begin_.back()), i = uniform(0, static_cast<int>(c.free.size()));
    if (c.free[i].host == c.host[a] || !ev_.fits(a, c.free[i].host)) return false;
    std::swap(c.gpu[a], c.free[i]);
    c.host[a] = c.gpu[a].host;
    return true;
  }

  // Ranks on host a move to host b's slots 0.. and back; false if a set does not fit the other host.
  bool exchange_hosts(State& c) {
    const auto& hosts = s_.platform.hosts;
    const int H = static_cast<int>(hosts.size());
    if (H < 2) return false;
    const int a = uniform(0, H), b = uniform(0, H);
    if (a == b) return false;
    std::vector<int> on_a, on_b;
    for (int r = 0; r < begin_.back(); ++r) {
      if (c.host[r] == a) on_a.push_back(r);
      if (c.host[r] == b) on_b.push_back(r);
    }
    if ((on_a.empty() && on_b.empty()) || static_cast<int>(on_a.size()) > hosts[b].gpus ||
        static_cast<int>(on_b.size()) > hosts[a].gpus)
      return false;
    for (int r : on_a)
      if (!ev_.fits(r, b)) return false;
    for (int r : on_b)
      if (!ev_.fits(r, a)) return false;
    for (size_t i = 0; i < on_a.size(); ++i) {
      c.gpu[on_a[i]] = {b, static_cast<int>(i)};
      c.host[on_a[i]] = b;
    }
    for (size_t i = 0; i < on_b.size(); ++i) {
      c.gpu[on_b[i]] = {a, static_cast<int>(i)};
      c.host[on_b[i]] = a;
    }
    c.free.erase(
        std::remove_if(c.free.begin(), c.free.end(), [&](const GpuSlot& g) { return g.host == a || g.host == b; }),
        c.free.end());
    for (int i = static_cast<int>(on_b.size()); i < hosts[a].gpus; ++i) c.free.push_back({a, i});
    for (int i = static_cast<int>(on_a.size()); i < hosts[b].gpus; ++i) c.free.push_back({b, i});
    return true;
  }

  const Scenario& s_;
  const JobsEvaluator& ev_;
  std::mt19937_64& rng_;
  std::vector<int> begin_;  ///< first rank of each job, then the total
};

/** The k best distinct (by host of every rank) placements seen, best first, for the SimGrid re-check. */
class TopPlacements {
 public:
  explicit TopPlacements(int k) : k_(k) {}
  void remember(double t, const State& st) {
    if (k_ <= 0 || (static_cast<int>(top_.size()) == k_ && t >= top_.back().t)) return;
    for (const Entry& e : top_)
      if (e.host == st.host) return;
    auto it = std::upper_bound(top_.begin(), top_.end(), t, [](double v, const Entry& e) { return v < e.t; });
    top_.insert(it, Entry{t, st.host, st.gpu});
    if (static_cast<int>(top_.size()) > k_) top_.pop_back();
  }
  /** The best by the oracle of the kept placements and `start` (ties: the earlier one). */
  Placement best_by(const Scenario& s, const TimeOracle& oracle, const Placement& start, SearchStats& stats) const {
    std::vector<Placement> cands;
    for (const Entry& e : top_) cands.push_back(Placement{e.gpu});
    cands.push_back(start);
    Placement out;
    double best = kInf;
    for (const Placement& p : cands) {
      const double t = oracle(s, p);
      ++stats.simgrid_runs;
      if (t < best) {
        best = t;
        out = p;
      }
    }
    stats.simgrid_time_s = best;
    return out;
  }

 private:
  struct Entry {
    double t;
    std::vector<int> host;
    std::vector<GpuSlot> gpu;
  };
  int k_;
  std::vector<Entry> top_;
};

}  // namespace

Placement search_jobs_placement(const Scenario& scenario, const SearchOptions& options, SearchStats& stats) {
  const auto t0 = std::chrono::steady_clock::now();
  stats = SearchStats{};
  if (options.simgrid_candidates > 0 && !options.simgrid_time)
    throw std::logic_error("SearchPlacer: simgrid_candidates > 0 needs SearchOptions::simgrid_time");
  const JobsEvaluator ev(scenario);
  const Start start = pick_start(scenario, ev, options.start);
  stats.start_method = start.method;
  stats.start_time_s = start.objective_s;

  std::mt19937_64 rng(options.seed ? *options.seed : component_seed(scenario.seed, "search"));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  JobsMoves moves(scenario, ev, rng);
  TopPlacements top(options.simgrid_candidates);
  State cur = make_state(scenario, start.placement);
  top.remember(start.objective_s, cur);
  double best_t = start.objective_s;
  const std::vector<GpuSlot> best = anneal(
      cur, start.objective_s, options, t0, rng, unit, [&](State& c) { return moves.propose(c); },
      [&](const std::vector<int>& hosts) { return ev.objective_of_hosts(hosts); },
      [&](const std::vector<int>& hosts) {
        return options.lower_bound ? ev.objective_lower_bound_of_hosts(hosts) : 0.0;
      },
      [&](double t, const State& st) { top.remember(t, st); }, stats, best_t);
  Placement out{best};
  stats.best_time_s = best_t;
  if (options.simgrid_candidates > 0) {
    out = top.best_by(scenario, options.simgrid_time, start.placement, stats);
    stats.best_time_s = ev.objective_s(out);
  }
  stats.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace hulk
