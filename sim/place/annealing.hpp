#pragma once
/** @file annealing.hpp
 *  @brief The Metropolis loop shared by the one-job search (search_placer.cpp) and the several-job search
 *  (jobs_search.cpp): proposals on a copy of the current state, acceptance with a temperature falling geometrically
 *  over the budget from 3% to 0.001% of the start's time, the best state kept. Header-only (a template over the
 *  state and the callbacks), so each search keeps its own state, moves and objective. */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {

/** @brief Runs the annealing from `cur` (objective start_t) until options.max_evaluations evaluations, or
 *  options.max_seconds after t0, or 10,000 proposals in a row that do not apply (tiny instances).
 *  State has `gpu` (per rank), `host` (per rank) and `free` members; propose(State&) -> bool changes a copy of the
 *  current state (false: the move does not apply); objective(const std::vector<int>& host_of_rank) -> double;
 *  accepted(double t, const State&) is called for every accepted state. Counts evaluations and accepted moves in
 *  stats. @return the best state's GPUs; best_t receives its objective. */
template <typename State, typename Propose, typename Objective, typename Accepted>
std::vector<GpuSlot> anneal(State& cur, double start_t, const SearchOptions& options,
                            std::chrono::steady_clock::time_point t0, std::mt19937_64& rng,
                            std::uniform_real_distribution<double>& unit, Propose&& propose, Objective&& objective,
                            Accepted&& accepted, SearchStats& stats, double& best_t) {
  State cand = cur;
  double cur_t = start_t;
  best_t = start_t;
  std::vector<GpuSlot> best = cur.gpu;
  const double temp0 = std::max(0.03 * start_t, 1e-12), temp1 = std::max(1e-5 * start_t, 1e-15);
  const long long budget = std::max<long long>(0, options.max_evaluations);
  long long iter = 0;
  int idle = 0;  // consecutive proposals that were not applicable (guards tiny instances)
  while (stats.evaluations < budget && idle < 10000) {
    if (options.max_seconds > 0 && (iter++ & 31) == 0) {
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (el > options.max_seconds) break;
    }
    cand.gpu = cur.gpu;
    cand.host = cur.host;
    cand.free = cur.free;
    if (!propose(cand)) {
      ++idle;
      continue;
    }
    idle = 0;
    const double t = objective(cand.host);
    ++stats.evaluations;
    // Metropolis acceptance, temperature falling geometrically over the budget.
    const double frac = budget > 0 ? static_cast<double>(stats.evaluations) / budget : 1.0;
    const double temp = temp0 * std::pow(temp1 / temp0, frac);
    const bool accept = std::isfinite(t) && (t <= cur_t || unit(rng) < std::exp(-(t - cur_t) / temp));
    if (!accept) continue;
    ++stats.accepted;
    std::swap(cur, cand);
    cur_t = t;
    if (t < best_t) {
      best_t = t;
      best = cur.gpu;
    }
    accepted(t, cur);
  }
  return best;
}

}  // namespace hulk
