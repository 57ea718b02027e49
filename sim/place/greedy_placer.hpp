#pragma once
/** @file greedy_placer.hpp
 *  @brief Topology-aware greedy placement: the baseline a competent engineer would write (docs/placement.md).
 *
 *  Rules (the unit of placement is a TP group: the tp ranks of one (stage, dp replica)):
 *  1. TP inside one host: a TP group goes to a single host with >= tp free GPUs that fit the stage's memory
 *     (first such host in the region's host order); only if no host of the region has room is it split over hosts
 *     of that region, and only if the region has no room it moves on to the next region of the chain.
 *  2. Stage inside one region (DP traffic is the largest per-iteration message): before placing a stage's dp
 *     TP groups, the greedy jumps ahead along the chain to the first region (from the current one) that can hold
 *     all dp*tp ranks of the stage; if none can, the stage spills over consecutive regions of the chain.
 *  3. Pipeline along a cheap chain of regions: stages are placed in order 0..p-1 along a nearest-neighbour chain
 *     of regions, distance(a, b) = mean route latency + pp_message_bytes / mean route bandwidth between them.
 *     Every region holding GPUs is tried as the chain's start.
 *  4. Faster GPUs to heavier stages: within a region hosts are taken fastest first (policy "speed") or largest
 *     first (policy "size": fewer TP/DP splits); after filling, the TP-group slots that landed in one region are
 *     re-dealt so that the heaviest stage (most flop per micro-batch) gets the fastest slot set, kept only if the
 *     evaluator says it is better.
 *  5. Memory respected: a GPU is used for a stage only if the stage's peak memory fits (job.check_memory).
 *  6. Stage-major is tried in both directions (0..p-1 and p-1..0 along the chain): the last stage (logits) is
 *     usually the heaviest, and the reversed order gives it the first pick of the start region's fast hosts.
 *     Besides the stage-major order (rule 2, pipeline across regions), the replica-major order (all stages of
 *     dp replica 0, then replica 1, ...: each pipeline packed, DP across regions) is also tried.
 *  7. Memory safety net: a third order places stages by decreasing peak memory (stage-major otherwise); since a GPU
 *     that fits a heavier stage fits every lighter one, this order finds a placement whenever one exists, so
 *     greedy fails (InputError) only for jobs that cannot fit.
 *  8. Round-robin's placement is one more candidate: rule 1 assumes a host's GPUs talk faster to each other than
 *     over its NIC, which PCIe servers behind 400 Gbit/s NICs, or a SimGrid <cluster> whose nodes reach themselves
 *     over their private link, break; there greedy was up to 2.25x slower than round-robin.
 *  Every combination (start region x host policy x order) is built and the best by the analytic evaluator is
 *  returned. Deterministic (no randomness).
 *  A DiLoCo job (JobSpec::sync) is placed islands first (island_first.hpp): each island's replicas inside one island
 *  group, the island placed by these rules as an every-step job on the group's GPUs; by these rules on the whole job
 *  only when its replicas do not fit inside the groups. */
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/placer.hpp"

namespace hulk {

/** @brief The greedy baseline (rules in the file comment). place(): the jobs largest first, each by these rules
 *  on the GPUs still free (greedy_jobs_first_fit, jobs_placement.hpp; one job: on the whole cluster), or
 *  round-robin's placement of the jobs when the evaluator finds it faster (faster_round_robin_jobs; a DiLoCo job
 *  keeps its island-first placement). place_with(): the same judged by the caller's evaluator. */
class GreedyPlacer : public Placer {
 public:
  std::string name() const override { return "greedy"; }
  /** @throws InputError if no candidate respects memory (the job does not fit the platform). */
  Placement place(const Scenario& scenario) override;
  /** @brief The same placement for a one-job scenario, judged by the caller's evaluator of this scenario, whose
   *  route model it then shares instead of building its own. @throws InputError as place(). */
  static Placement place_with(const Scenario& scenario, const Evaluator& evaluator);
  /** @brief place() for any number of jobs, judged by the caller's evaluator of this scenario (one job: on its
   *  route model). @throws InputError as place(). */
  static Placement place_with(const Scenario& scenario, const JobsEvaluator& evaluator);
};

}  // namespace hulk
