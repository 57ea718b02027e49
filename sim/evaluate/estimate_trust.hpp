#pragma once
/** @file estimate_trust.hpp
 *  @brief When an estimated gain over a reference placement is trusted: on large jobs the evaluator's error is of
 *  the order of the gains a short search finds, so a placement must be estimated clearly faster to replace it, and
 *  may not leave the ground where that error was measured (tensor-parallel groups inside one region). */
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Jobs of more than this many ranks need kLargeJobMargin (the size above which the GNN's families leave
 *  the evaluator's <= 64-GPU checks, tests/sim/evaluator_accuracy_test.cpp). */
constexpr int kLargeJobRanks = 64;
/** @brief Estimated speedup over the reference a placement of a large job needs (0.10 = 10% faster): the 90th
 *  percentile |error| on greedy's and searched placements of 128-256 GPUs (ctest LargerClusters), with a
 *  margin, rounded up. */
constexpr double kLargeJobMargin = 0.10;

/** @brief True if a placement estimated at `estimate_s` should replace a reference estimated at `reference_s` on
 *  a job of `ranks` ranks: strictly faster, and by more than kLargeJobMargin above kLargeJobRanks. */
inline bool trusted_gain(double estimate_s, double reference_s, int ranks) {
  return ranks > kLargeJobRanks ? estimate_s * (1.0 + kLargeJobMargin) < reference_s : estimate_s < reference_s;
}

/** @brief False where the evaluator's estimates were never checked against SimGrid and are known to go astray:
 *  with network.crosstraffic (acknowledgements loading the reverse links, which the evaluator does not model) or a
 *  TCP window with more than one channel per peer. There the estimate of an optimised placement can be far under
 *  SimGrid's time, so a placer that trusts it can end slower than greedy; its callers let SimGrid decide there. */
bool estimates_checked(const Scenario& scenario);

/** @brief Tensor-parallel groups (the tp ranks of one stage and replica, of every job) whose GPUs lie in more than
 *  one region. */
int tp_groups_across_regions(const Scenario& scenario, const Placement& placement);

/** @brief The same for one job's placement given as the host of every rank. */
int tp_groups_across_regions_of_hosts(const Scenario& scenario, const std::vector<int>& host_of_rank);

/** @brief True if `candidate` (estimated candidate_s) should replace `reference` (estimated reference_s) on a
 *  scenario of `ranks` ranks: trusted_gain, and above kLargeJobRanks no more TP groups across regions than the
 *  reference. Why: the evaluator's error at that size (kLargeJobMargin) was measured on placements whose TP groups
 *  stay in a region, as greedy's and the searched ones do; with a TP ring over the WAN it can be several times
 *  larger, and an annealing that no SimGrid run checks would take such a placement on an estimate that is wrong. */
bool trusted_replacement(const Scenario& scenario, const Placement& candidate, double candidate_s,
                         const Placement& reference, double reference_s);

}  // namespace hulk
