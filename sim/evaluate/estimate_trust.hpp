#pragma once
/** @file estimate_trust.hpp
 *  @brief When an estimated gain over a reference placement is trusted: on large jobs the evaluator's error is of
 *  the order of the gains a short search finds, so a placement must be estimated clearly faster to replace it. */

namespace hulk {

/** @brief Jobs of more than this many ranks need kLargeJobMargin (the size above which the GNN's families leave
 *  the evaluator's <= 64-GPU checks, tests/sim/test_evaluator_accuracy.cpp). */
constexpr int kLargeJobRanks = 64;
/** @brief Estimated speedup over the reference a placement of a large job needs (0.10 = 10% faster): the 90th
 *  percentile |error| on greedy's and searched placements of 128-256 GPUs (ctest LargerClusters, design seeds:
 *  7.0%), rounded up. It was 25% until 2026-12 (that percentile was 23% before the replicas' pipelines were
 *  simulated together). */
constexpr double kLargeJobMargin = 0.10;

/** @brief True if a placement estimated at `estimate_s` should replace a reference estimated at `reference_s` on
 *  a job of `ranks` ranks: strictly faster, and by more than kLargeJobMargin above kLargeJobRanks. */
inline bool trusted_gain(double estimate_s, double reference_s, int ranks) {
  return ranks > kLargeJobRanks ? estimate_s * (1.0 + kLargeJobMargin) < reference_s : estimate_s < reference_s;
}

}  // namespace hulk
