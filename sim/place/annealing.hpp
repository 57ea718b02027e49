#pragma once
/** @file annealing.hpp
 *  @brief The Metropolis loop shared by the one-job search (search_placer.cpp) and the several-job search
 *  (jobs_search.cpp): proposals on a copy of the current state, acceptance with a temperature falling geometrically
 *  over the budget (or, with SearchOptions::schedule_evaluations, over each span of that many evaluations, each span
 *  from the best state) from 3% to 0.001% of the start's time, the best state kept. Header-only (a template over the
 *  state and the callbacks), so each search keeps its own state, moves and objective. */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/place/fastest_candidate.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {

/** @brief The objectives of the last proposals, by their hosts. A proposal that repeats a recent one (common late in
 *  a run, when few moves are accepted and the current state's neighbours come up again: 3-70% of the search's
 *  proposals on the paper scenarios, the `search_repeats_pct` counter of `hulk_bench_placement
 *  --benchmark_filter=BM_PaperSearch`) gets its objective again without an evaluation. The
 *  objective is a function of the hosts alone, so a run is the same bit for bit with or without it. A ring of at
 *  most 1,024 entries and about 4 MiB of hosts, the oldest replaced first. */
class RecentObjectives {
 public:
  /** @brief A ring sized for proposals of `ranks` hosts each. */
  explicit RecentObjectives(size_t ranks)
      : capacity_(std::clamp<size_t>((size_t{1} << 20) / std::max<size_t>(1, ranks), 16, 1024)) {}

  /** @brief The hash of a proposal's hosts (FNV-1a over the host indices). */
  static std::uint64_t hash_of(const std::vector<int>& hosts) {
    std::uint64_t h = 1469598103934665603ULL;
    for (const int x : hosts) h = (h ^ static_cast<std::uint32_t>(x)) * 1099511628211ULL;
    return h;
  }

  /** @brief True (and t set) if these hosts were among the recent proposals. */
  bool find(const std::vector<int>& hosts, std::uint64_t hash, double& t) const {
    for (size_t i = 0; i < hashes_.size(); ++i)
      if (hashes_[i] == hash && hosts_[i] == hosts) {
        t = objectives_[i];
        return true;
      }
    return false;
  }

  /** @brief Remembers a proposal's objective, in place of the oldest once the ring is full. */
  void add(const std::vector<int>& hosts, std::uint64_t hash, double t) {
    if (hashes_.size() < capacity_) {
      hashes_.push_back(hash);
      hosts_.push_back(hosts);
      objectives_.push_back(t);
      return;
    }
    hashes_[next_] = hash;
    hosts_[next_] = hosts;
    objectives_[next_] = t;
    next_ = (next_ + 1) % capacity_;
  }

 private:
  size_t capacity_;
  size_t next_ = 0;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::vector<int>> hosts_;
  std::vector<double> objectives_;
};

/** @brief The share of the annealing schedule done at this evaluation, which sets the temperature: within the
 *  current span (SearchOptions::schedule_evaluations), else over the estimate budget, else over the evaluation
 *  budget. */
inline double schedule_fraction(long long evaluations, long long first, long long span, long long estimates,
                                long long max_estimates, long long budget) {
  if (span > 0) return static_cast<double>((evaluations - first - 1) % span + 1) / span;
  if (max_estimates > 0) return static_cast<double>(estimates + 1) / max_estimates;
  if (budget > 0) return static_cast<double>(evaluations) / budget;
  return 1.0;
}

/** @brief True once the run is past SearchOptions::max_seconds; on the way, prints the run's progress every
 *  progress_every_s seconds (next_progress_s is when the next line is due). */
inline bool past_time_limit(const SearchOptions& options, std::chrono::steady_clock::time_point t0,
                            long long evaluations, long long budget, double best_t, double& next_progress_s) {
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (options.max_seconds > 0 && el > options.max_seconds) return true;
  if (options.progress && el >= next_progress_s) {
    *options.progress << options.progress_label << ": " << evaluations << " of " << budget
                      << " evaluations, best " << best_t << " s (evaluator)\n" << std::flush;
    next_progress_s = el + options.progress_every_s;
  }
  return false;
}

/** @brief Runs the annealing from `cur` (objective start_t) until options.max_evaluations evaluations, or
 *  options.max_estimates objective calls when that is > 0 (the temperature then falls over them), or
 *  options.max_seconds after t0, or 10,000 proposals in a row that do not apply (tiny instances).
 *  State has `gpu` (per rank), `host` (per rank) and `free` members; propose(State&) -> bool changes a copy of the
 *  current state (false: the move does not apply); objective(const std::vector<int>& host_of_rank) -> double;
 *  accepted(double t, const State&) is called for every accepted state; bound(const std::vector<int>&) -> double is
 *  a lower bound of the objective (finite where the objective is; 0 = none), see below. Counts evaluations (a
 *  repeat of a recent proposal counts as one, answered from RecentObjectives: the budget and the run are as
 *  without it), repeats, bounded-out proposals and accepted moves in stats. @return the best state's GPUs; best_t
 *  receives its objective.
 *
 *  The bound (Evaluator::time_lower_bound_of_hosts, a few percent of an evaluation's cost) skips the evaluation of
 *  a proposal it shows slower than the current state, when the random number the acceptance draws for every slower
 *  proposal rejects even the bound: the objective would be at least the bound, so rejected too. The same numbers
 *  are drawn in the same order as without the bound and every decision is the same: the run is the same bit for
 *  bit, with fewer evaluations (late in a run most proposals are far slower: on the paper's 3D jobs 95% of random
 *  moves from greedy's placement are bounded out). */
template <typename State, typename Propose, typename Objective, typename Bound, typename Accepted>
std::vector<GpuSlot> anneal(State& cur, double start_t, const SearchOptions& options,
                            std::chrono::steady_clock::time_point t0, std::mt19937_64& rng,
                            std::uniform_real_distribution<double>& unit, Propose&& propose, Objective&& objective,
                            Bound&& bound, Accepted&& accepted, SearchStats& stats, double& best_t) {
  State cand = cur;
  double cur_t = start_t;
  best_t = start_t;
  std::vector<GpuSlot> best = cur.gpu;
  const double temp0 = std::max(0.03 * start_t, 1e-12), temp1 = std::max(1e-5 * start_t, 1e-15);
  const long long budget = std::max<long long>(0, options.max_evaluations);
  // With a span the schedule restarts from the best state every span evaluations (SearchOptions::
  // schedule_evaluations): decisions then depend on the evaluations done, never on the budget.
  const long long span = std::max<long long>(0, options.schedule_evaluations), first = stats.evaluations;
  long long restarted_at = first;
  State best_state;
  if (span > 0) best_state = cur;
  // With a budget in estimates (SearchOptions::max_estimates) the temperature falls over the objective's calls.
  const long long max_estimates = span > 0 ? 0 : std::max<long long>(0, options.max_estimates);
  long long estimates = 0, iter = 0;
  int idle = 0;  // consecutive proposals that were not applicable (guards tiny instances)
  RecentObjectives recent(cur.host.size());
  double next_progress_s = options.progress_every_s;
  while (stats.evaluations < budget && idle < 10000 && (max_estimates == 0 || estimates < max_estimates)) {
    if ((options.max_seconds > 0 || options.progress) && (iter++ & 31) == 0 &&
        past_time_limit(options, t0, stats.evaluations, budget, best_t, next_progress_s))
      break;
    if (span > 0 && stats.evaluations > restarted_at && (stats.evaluations - first) % span == 0) {
      restarted_at = stats.evaluations;
      cur = best_state;
      cur_t = best_t;
    }
    cand.gpu = cur.gpu;
    cand.host = cur.host;
    cand.free = cur.free;
    if (!propose(cand)) {
      ++idle;
      continue;
    }
    idle = 0;
    ++stats.evaluations;
    // Metropolis acceptance, temperature falling geometrically over the budget (or over each span).
    const double frac = schedule_fraction(stats.evaluations, first, span, estimates, max_estimates, budget);
    const double temp = temp0 * std::pow(temp1 / temp0, frac);
    const std::uint64_t hash = RecentObjectives::hash_of(cand.host);
    const auto kept_by = [&](double t, double u) { return u < std::exp(-(t - cur_t) / temp); };
    const auto metropolis = [&](double t) { return std::isfinite(t) && (t <= cur_t || kept_by(t, unit(rng))); };
    const auto evaluate = [&]() {
      ++estimates;
      const double t = objective(cand.host);
      recent.add(cand.host, hash, t);
      return t;
    };
    double t = 0;
    bool accept = false;
    if (recent.find(cand.host, hash, t)) {
      ++stats.repeats;
      accept = metropolis(t);
    } else {
      const double lower = bound(cand.host) * (1.0 - kBoundRoundingSlack);
      if (lower > cur_t && std::isfinite(lower)) {
        const double u = unit(rng);  // drawn for every slower proposal, as metropolis() does
        if (!kept_by(lower, u)) {
          ++stats.bounded;
          continue;
        }
        t = evaluate();
        accept = std::isfinite(t) && kept_by(t, u);
      } else {
        t = evaluate();
        accept = metropolis(t);
      }
    }
    if (!accept) continue;
    ++stats.accepted;
    std::swap(cur, cand);
    cur_t = t;
    if (t < best_t) {
      best_t = t;
      best = cur.gpu;
      if (span > 0) best_state = cur;
    }
    accepted(t, cur);
  }
  return best;
}

/** @brief anneal() without a lower bound: every proposal that is not a recent repeat is evaluated. */
template <typename State, typename Propose, typename Objective, typename Accepted>
std::vector<GpuSlot> anneal(State& cur, double start_t, const SearchOptions& options,
                            std::chrono::steady_clock::time_point t0, std::mt19937_64& rng,
                            std::uniform_real_distribution<double>& unit, Propose&& propose, Objective&& objective,
                            Accepted&& accepted, SearchStats& stats, double& best_t) {
  return anneal(cur, start_t, options, t0, rng, unit, std::forward<Propose>(propose),
                std::forward<Objective>(objective), [](const std::vector<int>&) { return 0.0; },
                std::forward<Accepted>(accepted), stats, best_t);
}

}  // namespace hulk
