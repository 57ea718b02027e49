#pragma once
/** @file dp_clusters.hpp
 *  @brief Placements that keep each pipeline stage's data-parallel group in one cluster of well-connected regions
 *  
 *
 *  When the gradient all-reduce dominates (many replicas, large stages, slow WAN), what decides the iteration time
 *  is which regions each stage's DP group spans. Greedy fills the regions along a pipeline chain, so once no region
 *  holds a whole stage, its DP group spills into the chain's next region, however slow the pair; and local moves
 *  (swapping ranks or TP groups) reach another grouping only through many slower steps: on such clusters the search
 *  can be several times faster than greedy by regrouping stages over better-connected regions, where a short
 *  annealing gains little.
 *
 *  Construction, one stage at a time (stages by decreasing peak memory, as greedy's memory safety net):
 *  - the stage's first region: the one whose free GPUs that fit the stage are the fewest that still hold its
 *    dp x tp ranks (best fit), else the one with the most (rule `kBestFit`); or always the one with the most
 *    (`kLargest`); or (`kBestConnected`) of the clusters grown from every region as below, the one whose slowest
 *    DP link is the cheapest, the first stage's cluster chosen one stage ahead: each of its grown clusters is tried
 *    with the other stages taking theirs that way, and the construction whose slowest cluster link is the cheapest
 *    wins (the stages' all-reduces run side by side, so the best pair for one stage may leave the next a slow one);
 *  - while the cluster lacks GPUs: the region with the cheapest DP link to the cluster, cost of a candidate region
 *    = its slowest pair with a member (route latency + the stage's gradient bytes / bandwidth), ties to the most
 *    free GPUs;
 *  - GPUs taken host by host (fastest or largest hosts first, as greedy's two host policies), TP groups consecutive
 *    so that they stay on one host where its free GPUs allow;
 *  - over every host, or over the hosts at least as fast as the slowest GPU the job needs when it takes the fastest
 *    first (spare slower GPUs left out: a cluster otherwise fills a stage with a region's slow GPUs).
 *  The stages' order along the pipeline is left to the caller (stage_order.hpp reorders the blocks). */
#include <limits>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/stage_order.hpp"

namespace hulk {

/** @brief The DP-cluster placements of the evaluator's scenario (one job), one per (hosts used, first-region rule,
 *  host policy), duplicates removed, in a fixed order; a construction that runs out of GPUs fitting a stage is left
 *  out (empty for jobs of one replica: nothing to cluster). Valid by construction (memory as job.check_memory,
 *  at most one rank per GPU). Deterministic. */
std::vector<Placement> dp_cluster_placements(const Evaluator& evaluator);

/** @brief The fastest by the evaluator of dp_cluster_placements(), each first given the fastest of itself and up to
 *  stage_orders reorderings of its stages (stage_order.hpp); the first on ties. An empty placement of time
 *  +infinity when there is none. Only an answer faster than `beat` matters to the caller: candidates the
 *  evaluator's lower bound shows no faster than it (or than the best so far) are not evaluated, so the answer is
 *  the same as with beat = +infinity whenever that one is faster than `beat` (otherwise it may be another or none). */
TimedPlacement fastest_dp_cluster(const Evaluator& evaluator, int stage_orders,
                                  double beat = std::numeric_limits<double>::infinity());

}  // namespace hulk
