#pragma once
/** @file fastest_candidate.hpp
 *  @brief The fastest of a list of placements by the analytic evaluator, evaluating only the candidates that can
 *  still win: each one's cheap lower bound (Evaluator::time_lower_bound_of_hosts) is computed first, candidates
 *  are evaluated in order of their bound, and the rest are skipped once the bound reaches the best time found.
 *  The answer is the one of evaluating every candidate in list order and keeping a strictly faster one, bit for
 *  bit (the first of equal times wins); greedy's 100-200 candidates at 47 hosts mostly end this way. */
#include <functional>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

class Evaluator;

/** @brief A lower bound of a placement's cost (e.g. Evaluator::time_lower_bound); an empty function = none. */
using PlacementBound = std::function<double(const Placement&)>;

/** @brief The evaluator's lower bound sums the evaluation's terms in another order: where the two are equal in exact
 *  arithmetic, rounding may leave the bound a few ulps above. Every use trusts it only down to this relative slack. */
constexpr double kBoundRoundingSlack = 1e-9;

/** @brief True when a candidate whose cost is at least `bound` cannot be strictly cheaper than `best`: its cost
 *  need not be computed by a loop that keeps strictly cheaper candidates only. */
inline bool cannot_beat(double bound, double best) { return bound * (1.0 - kBoundRoundingSlack) >= best; }

/** @brief The fastest candidate and its time. */
struct FastestCandidate {
  int index = -1;  ///< into the candidates; -1 when no candidate has a finite time (all infeasible, or none)
  double time_s = 0.0;  ///< its evaluated time (+infinity when index is -1)
  int evaluated = 0;    ///< candidates one worker evaluates in full taking them in bound order (the others are bounded out)
};

/** @brief Evaluations expected to take this long in all (the first candidate's time, times the candidates its time
 *  does not rule out) are shared with a second thread: starting one costs tens of µs, and its evaluator starts
 *  with an empty pipeline memo. On a 128-256-GPU cluster where one evaluation takes 15 ms, greedy evaluates ~50. */
constexpr double kParallelCandidatesFromS = 2e-3;

/** @brief Index of the candidate (host of every rank) with the least ev.time_of_hosts, the first in list order
 *  among equal times; -1 when none is finite. Candidates whose lower bound exceeds the best time found so far are
 *  not evaluated (they cannot be faster). Where the evaluations are expected to take parallel_from_s or more, two
 *  threads evaluate them (each with its evaluator), unless HULK_THREADS=1 or this runs inside a task of
 *  run_tasks already (parallel_tasks.hpp); the answer is the same bit for bit, and so are FastestCandidate::evaluated and
 *  the estimates counted for the process (evaluation_count.hpp): those of one worker; the second worker's
 *  speculative extra ones are taken off the count. */
FastestCandidate fastest_candidate(const Evaluator& ev, const std::vector<std::vector<int>>& candidates,
                                   double parallel_from_s = kParallelCandidatesFromS);

}  // namespace hulk
