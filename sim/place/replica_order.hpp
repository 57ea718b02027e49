#pragma once
/** @file replica_order.hpp
 *  @brief Re-ordering a job's data-parallel replicas over the same GPUs: the DP rings' order.
 *
 *  A stage's DP all-reduce runs as a ring over the replicas in index order (replica d sends to d + 1, the last to
 *  the first), for each tensor-parallel rank at once. When the replicas sit in several regions, that order decides
 *  which WAN links the ring crosses and how many of its hops share a link: with many replicas over several regions,
 *  the same GPUs in another replica order can be several times faster. Local moves (the annealing's) change one GPU or
 *  host at a time and rarely reach it: a better ring moves whole replicas.
 *
 *  Re-indexing whole replicas keeps every pipeline on its GPUs (hand-offs, memory and every host's load unchanged)
 *  and changes the DP rings only. The order is found on a proxy: per stage, every hop of every TP rank's ring sends
 *  its chunk (dp_grad_bytes / dp) at once, flows counted on the shared links they cross, a hop taking its latency
 *  plus the chunk at its share of its tightest link (route cap and TCP window applied); each ring is then paced
 *  over its 2 (dp - 1) steps as the evaluator paces a ring (ring_steps.hpp), the stage taking its slowest; the
 *  proxy is the sum over stages. (A first proxy that took one step's slowest hop found the brute-force best on
 *  15 of 30 small jobs, `ctest -R ReplicaOrder`.) The best by it of the current order and nearest-neighbour rings (by each hop's
 *  time alone) is improved by a local search (swaps of two replicas and reversals of a stretch of the ring, first
 *  improvement) within a bounded amount of work. The proxy ignores the
 *  collective's algorithm (tree, hierarchical) and the overlap with the pipeline: the caller's cost function
 *  decides (fastest_replica_order). */
#include <functional>

#include "sim/core/spec.hpp"
#include "sim/place/fastest_candidate.hpp"
#include "sim/place/stage_order.hpp"

namespace hulk {

class RouteModel;

/** @brief Work the local search may spend, in ring-step cells (stages x tp x dp x 2 dp per proxy call: every ring
 *  is paced over its 2 (dp - 1) steps): about 8 ms on the development machine, where the 1,024-GPU examples
 *  (dp 64 x pp 16, dp 16 x tp 8 x pp 8) stop; a dp 14 x tp 4 job converges in a seventh of it (1.2 ms). */
constexpr long kReplicaOrderProxyWork = 4'000'000;

/** @brief `placement` with replica d's ranks (every stage, every TP rank) moved to the GPUs of replica
 *  new_index[d]'s ranks. @pre new_index is a permutation of 0..dp-1 and placement has the job's ranks. */
Placement replicas_renumbered(const Scenario& scenario, const Placement& placement, const std::vector<int>& new_index);

/** @brief The proxy's cost (seconds, file comment) of the placement's replica order: 0 for dp < 2. */
double replica_ring_proxy_s(const Scenario& scenario, const Placement& placement, const RouteModel& network);

/** @brief `placement` with its replicas in the order the proxy's local search ends at (file comment); equal to it
 *  when no order is better by the proxy, for dp < 3 (a ring of two has one order) and for placements of another
 *  size than the job's ranks. Deterministic. */
Placement replicas_reordered(const Scenario& scenario, const Placement& placement, const RouteModel& network);

/** @brief The faster by `time_s` of `start` (whose time is start_time_s) and replicas_reordered(start); `start` on
 *  ties. One evaluation at most (none when the order is unchanged or `bound` shows it cannot be faster). */
TimedPlacement fastest_replica_order(const Scenario& scenario, const Placement& start, double start_time_s,
                                     const std::function<double(const Placement&)>& time_s,
                                     const RouteModel& network, const PlacementBound& bound = {});

}  // namespace hulk
