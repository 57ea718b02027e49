#pragma once
/** @file islands.hpp
 *  @brief DiLoCo islands (JobSpec::sync): which data-parallel replicas train together every step, and
 *  which ranks all-reduce the pseudo-gradients across islands every inner_steps steps. Depends on the placement
 *  (islands: region | host are where the replicas run), so it is computed per placement.
 *
 *  A replica d is the ranks (pp, d, tp) for every pp and tp; its island is that of its first rank (pp 0, tp 0):
 *  its region, its host, or the island_groups entry holding its host. Inside an island the DP all-reduce runs among
 *  the island's replicas (in dp order). The outer all-reduce is sliced as FSDP-sharded DiLoCo does it: with S = the
 *  fewest replicas of any island, the k-th replica (k < S) of every island all-reduces the k-th 1/S of each stage
 *  and tp shard's pseudo-gradient with the k-th replicas of the other islands (a ring in island order); replicas
 *  beyond the S-th of their island take no part. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

/** @brief The islands of one placement. */
struct IslandPlan {
  std::vector<int> island_of_replica;         ///< per dp index
  std::vector<std::vector<int>> replicas;     ///< per island, its dp indices in order (islands by first replica)
  int slices = 0;                             ///< S: the fewest replicas of an island
  int islands() const { return static_cast<int>(replicas.size()); }
};

/** @brief The islands of the job's replicas under a placement. @throws InputError (key job.sync.islands) when a
 *  replica's host is in no island group. */
IslandPlan island_plan(const Scenario& scenario, const Placement& placement);

/** @brief The DP group of `rank` inside its island (the job's own rank numbers, dp order). */
std::vector<int> island_dp_group(const ParallelPlan& plan, const IslandPlan& islands, int rank);

/** @brief The outer all-reduce group of `rank` (one rank per island, island order), or empty if its replica takes
 *  no part; `slice` receives its slice index. */
std::vector<int> outer_group(const ParallelPlan& plan, const IslandPlan& islands, int rank, int& slice);

/** @brief Bytes one member sends into the outer all-reduce of a stage: its slice of the stage's pseudo-gradient
 *  (params per rank / S) at the compression's bytes per value. */
double outer_allreduce_bytes(const JobSpec& job, double stage_params, const IslandPlan& islands);

}  // namespace hulk
