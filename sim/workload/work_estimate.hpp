#pragma once
/** @file work_estimate.hpp
 *  @brief How much work one simulated run is, known before it runs: the point-to-point messages the engine will
 *  simulate (the `messages` field of result.json) and the micro-batches it will step through. The cost of a SimGrid
 *  run grows with both, so a caller (the CLI) can refuse a run above a stated limit unless asked explicitly, or
 *  print the estimate before a long run. The counts follow the engine's message pattern exactly (rank_actor.cpp,
 *  collectives.cpp); tests/sim/work_estimate_test.cpp checks them against simulated runs. */
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Work of one simulated run (all iterations). Counts are doubles: exact below 2^53, and an absurd job's
 *  estimate must not overflow. */
struct WorkEstimate {
  double micro_batches_per_pipeline = 0;  ///< global_batch / (dp x micro_batch), per iteration
  double micro_batches = 0;               ///< micro-batches of all dp pipelines over all iterations
  double pp_messages = 0;                 ///< activations forward + gradients backward between pipeline stages
  double tp_messages = 0;                 ///< ring all-reduce steps inside tensor-parallel groups (4 per layer, 6
                                          ///< with full recompute)
  double dp_messages = 0;                 ///< data-parallel gradient all-reduce messages
  double messages = 0;                    ///< pp + tp + dp: the `messages` a simulation reports
};

/** @brief Estimates the messages and micro-batches of simulating `job` (iterations included).
 *  Per iteration, with m micro-batches per pipeline and L layers in all:
 *  - pp: each of the dp x tp stage chains sends every micro-batch forward and backward over pp-1 hops:
 *    2 m (pp-1) dp tp;
 *  - tp: 4 ring all-reduces (2 forward, 2 backward) per layer and micro-batch in each of the dp x pp groups of tp
 *    ranks, each 2 (tp-1) steps received by every member: 4 L m dp 2 tp (tp-1) (the stages' layers sum to L);
 *    `recompute: full` adds the 2 all-reduces of each layer's re-run forward in backward: 6 L m dp 2 tp (tp-1);
 *  - dp: one all-reduce per (stage, tp) group of dp ranks: ring and tree 2 dp (dp-1) messages; hierarchical with
 *    R regions of k members each 2 dp (k-1 + R-1), or the ring's count when the regions are unequal (the engine
 *    then runs a ring).
 *  @param region_of_rank region of every rank (Megatron order), needed only for the hierarchical collective;
 *  empty = every rank in its own region for the estimate, which gives the ring's count (an upper bound).
 *  A job with a degree, micro_batch or iterations below 1 (never validated) gives all zeros. */
WorkEstimate estimate_work(const JobSpec& job, const std::vector<int>& region_of_rank = {});

/** @brief estimate_work with the region of each rank taken from a placement on a platform. */
WorkEstimate estimate_work(const JobSpec& job, const PlatformSpec& platform, const Placement& placement);

}  // namespace hulk
