#pragma once
/** @file decode.hpp
 *  @brief From per-host role scores (pipeline stage 0..pp-1, or unused) to a VALID placement. Torch-free.
 *
 *  Step 1 (matching): how many GPUs of each host serve each stage is a transportation problem: hosts supply
 *  their GPUs, every stage demands exactly dp*tp GPUs, "unused" absorbs the rest; a host may serve a stage only
 *  if the stage's peak memory fits its GPU (when job.check_memory). We maximise the total score of the assigned
 *  GPUs with a min-cost flow (successive shortest paths, Dijkstra with potentials). The optimum sits on a
 *  vertex of the transportation polytope, so at most hosts + stages - 1 (host, role) pairs are used: hosts
 *  are rarely split between stages. The units are whole TP groups (tp GPUs of one host) when the hosts' whole
 *  groups can hold the job, single GPUs otherwise.
 *  Step 2 (layout inside a stage): TP groups are packed whole onto one host where the host's count allows
 *  (TP traffic is the heaviest), leftovers fill the remaining groups; groups are ordered by (region, host) so
 *  that DP rings stay inside regions where possible (stage 0), and every later stage's replicas are matched to
 *  the previous stage's (same dp index = pipeline neighbours) by minimum hand-off cost (route latency + message
 *  time), an exact assignment. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk::gnn {

/** @brief Role scores of one scenario: row-major [hosts][roles], roles = pp + 1 (last column = unused).
 *  Higher is better. Non-finite values are treated as very low scores. */
struct RoleScores {
  int hosts = 0;
  int roles = 0;
  std::vector<float> values;
  float at(int host, int role) const { return values[static_cast<std::size_t>(host) * roles + role]; }
};

/** @brief Number of GPUs of each host per role, [hosts][pp + 1] (last = unused). */
using RoleCounts = std::vector<std::vector<int>>;

/** @brief Step 1: the score-maximising GPU counts per (host, stage). @throws InputError (naming the scenario
 *  file) if no valid assignment exists (too few GPUs, or too few GPUs with enough memory for a stage), or if
 *  the score matrix has the wrong shape. */
RoleCounts match_roles(const Scenario& scenario, const RoleScores& scores);

/** @brief Step 2: ranks onto GPUs given valid counts (each stage exactly dp*tp GPUs, within host capacity). */
Placement layout_placement(const Scenario& scenario, const RoleCounts& counts);

/** @brief match_roles + layout_placement. The result always satisfies placement_violation() == "". */
Placement decode_placement(const Scenario& scenario, const RoleScores& scores);

/** @brief The role counts of an existing placement (inverse of layout, used for training labels). Ranks on
 *  unknown hosts are ignored. */
RoleCounts role_counts(const Scenario& scenario, const Placement& placement);

/** @brief Why a placement is invalid ("" if valid): rank count, host/slot range, GPU used twice, and (if
 *  check_memory) a stage whose peak memory exceeds its GPU. Same rules as placement_problem() in
 *  sim/workload/placement_check.hpp; kept here so that gnn/ and its tests do not depend on the placement helper's code. */
std::string placement_violation(const Scenario& scenario, const Placement& placement);

}  // namespace hulk::gnn
