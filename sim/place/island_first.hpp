#pragma once
/** @file island_first.hpp
 *  @brief Island-first placement of a DiLoCo job (JobSpec::sync, sim/workload/islands.hpp), shared by every method
 *  except round-robin and random (naive baselines by definition).
 *
 *  A DiLoCo island syncs every step, islands only every inner_steps steps: a pipeline split over two groups pays the
 *  WAN every step. So the islands are decided first: each island is a set of whole replicas inside one island group
 *  (islands: region -> the hosts of a region; groups -> an island_groups entry; host -> one host), then a method
 *  places each island's ranks on its group's GPUs with its own machinery, as a one-job every-step problem (the
 *  island's replicas as dp, the same micro-batches per pipeline, on the group's GPUs: gpu_share.hpp).
 *
 *  Which groups get how many replicas: candidates are (a) for several island counts m, the m fastest groups (speed of
 *  their fastest replica's GPUs, then capacity) sharing the replicas as evenly as their capacities allow, and (b) the
 *  dp fastest replica slots of all groups (a group's j-th replica gets its j-th fastest tp*pp GPUs: the slowest
 *  island as fast as possible). A group's capacity counts whole replicas whose stages fit its GPUs' memory. Each
 *  candidate is placed and the fastest by the DiLoCo step-time estimate (sync_evaluator.hpp) kept.
 *  When no candidate fits (a replica needs more GPUs than any group has) there is no island-first placement: callers
 *  fall back to their every-step behaviour, and a warning line says so on stderr. */
#include <functional>
#include <optional>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Places one island: a one-job, every-step scenario on the island group's GPUs -> a placement of it.
 *  May throw InputError when the island does not fit (the candidate is then dropped). */
using IslandPlacer = std::function<Placement(const Scenario& island)>;

/** @brief Host indices of every island group, in group order: a region's hosts (islands: region, regions in index
 *  order), an island_groups entry's hosts (islands: groups), or one host (islands: host). Hosts without GPUs are
 *  left out; groups may be empty. */
std::vector<std::vector<int>> island_group_hosts(const Scenario& scenario);

/** @brief The island-first placement of a one-job DiLoCo scenario (see the file comment), each island placed by
 *  `place_island`; nullopt (after a warning line on stderr, once per process and scenario) when no candidate fits. */
std::optional<Placement> island_first_placement(const Scenario& scenario, const IslandPlacer& place_island);

/** @brief The islands of a placement kept intact: every replica's ranks in the island group of its first rank. The
 *  search restricts its moves to placements this accepts, so it refines an island-first start without undoing it. */
class IslandKeeper {
 public:
  /** @brief The keeper of a DiLoCo placement's islands (host of every rank), or nullopt when some replica of it
   *  already spans groups (nothing to keep). */
  static std::optional<IslandKeeper> of(const Scenario& scenario, const std::vector<int>& host_of_rank);
  /** @brief True if every rank's host is in the group its replica had in the placement the keeper was made of. */
  bool keeps(const std::vector<int>& host_of_rank) const;

 private:
  std::vector<int> group_of_host_;     ///< -1: in no group
  std::vector<int> group_of_replica_;  ///< per dp index
  int tp_ = 1, dp_ = 1;
};

}  // namespace hulk
