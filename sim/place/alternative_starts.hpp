#pragma once
/** @file alternative_starts.hpp
 *  @brief Placements of one job built another way than greedy's, for the short annealing runs (the gnn method's and
 *  the search's extra run) to start from when one is faster than greedy's answer.
 *
 *  Two constructions, each aimed at a valley that local moves reach only through many slower steps:
 *  - DP clusters (dp_clusters.hpp): each stage's data-parallel group in one cluster of well-connected regions;
 *  - greedy on the fastest hosts: greedy (greedy_placer.hpp) run on only the fewest fastest hosts that hold the
 *    job's ranks and fit its stages' memory (hosts by GPU speed, then size). A pipeline runs at its slowest stage's
 *    pace, so a job that leaves spare GPUs may be faster on fast GPUs alone; greedy fills its chain of regions with
 *    whatever GPUs they have. Moving one stage off a slow GPU gains nothing while another stage stays on one, which
 *    is why the annealing rarely finds it (e.g. a pipeline of 16 stages with half of them on two slow hosts, where
 *    greedy on the four fastest hosts is 2.5x faster). */
#include <limits>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/stage_order.hpp"

namespace hulk {

/** @brief Greedy's placements of the evaluator's job on the fastest hosts (file comment): greedy run on the shortest
 *  prefix of the hosts sorted by GPU speed (ties: more GPUs first) that holds the job's ranks and on whose GPUs its
 *  stages fit (gpu_share.hpp), mapped back; and, for TP groups of more than one GPU when some hosts are smaller than
 *  a group, the same over the hosts that hold a whole group, each counting only the GPUs of whole groups. None from
 *  a prefix that needs every GPU of the platform. At most two placements, distinct; deterministic. */
std::vector<Placement> fastest_hosts_greedy_placements(const Evaluator& evaluator);

/** @brief The fastest alternative start and where it came from. */
struct AlternativeStart {
  TimedPlacement timed;  ///< the placement and its time by the evaluator (+infinity and empty when there is none)
  std::string origin;    ///< "dp-cluster" or "fastest-hosts" ("" when there is none)
};

/** @brief The fastest by the evaluator of fastest_dp_cluster(evaluator, stage_orders) and the
 *  fastest_hosts_greedy_placements() (greedy orders their stages itself); the DP cluster on ties. One job. `beat`
 *  as in fastest_dp_cluster: the answer is exact whenever it is faster than beat (the callers use it only then). */
AlternativeStart fastest_alternative_start(const Evaluator& evaluator, int stage_orders,
                                           double beat = std::numeric_limits<double>::infinity());

}  // namespace hulk
