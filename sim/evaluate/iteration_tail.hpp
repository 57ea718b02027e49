#pragma once
/** @file iteration_tail.hpp
 *  @brief The evaluator's estimate of what follows the data-parallel all-reduces in an iteration, as the rank
 *  actors run it (sim/engine/rank_actor.cpp, RankActor::iteration_tail): the tied-embedding all-reduce between the
 *  first and the last stage, the gradient norm's all-reduce of one value over each replica's model-parallel group,
 *  the optimizer step on every rank and the job's framework overhead. */
#include <vector>

#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"
#include "sim/evaluate/ring_steps.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/workload/compute_efficiency.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

/** @brief What the tail needs of an evaluator: the job, its plan and costs, the routes, each host's speed, how its
 *  rings behave and the embedding all-reduces' hop times. */
struct TailContext {
  const JobSpec* job = nullptr;
  const ParallelPlan* plan = nullptr;
  const JobCost* cost = nullptr;
  const StagesByHost* stages = nullptr;
  const RouteModel* routes = nullptr;
  const std::vector<double>* speed = nullptr;  ///< per host, flop/s per GPU
  RingModel ring;                              ///< the evaluator's ring model (channels, latency at the receiver)
  /** Per replica d and tensor index t, at [2 (d T + t)] and [+1]: the time of the embedding ring's hop from the
   *  first stage to the last and back, for half its bytes, with all D x T rings sharing their links (they run at
   *  once). Null: no embedding all-reduce. */
  const double* embedding_hop_s = nullptr;
};

/** @brief Reused buffers of iteration_end_with_tail. */
struct TailScratch {
  std::vector<double> ready, start, end, hop, lat, ring;
  std::vector<int> hosts, ranks;
  /** The last ring computed in this call (hops, latencies, entries) and its members' ends: replicas laid out alike
   *  enter their norm all-reduce with the same inputs, so each is computed once. */
  std::vector<double> memo_hop, memo_lat, memo_start, memo_end;
};

/** @brief End of the iteration given each stage's end of its DP all-reduce (stage_end[s]), as the rank actors run
 *  it: on the first and the last stage the embedding all-reduce (a ring of two per replica and tensor index), then
 *  the norm all-reduce of one fp32 value over each replica's tp x pp ranks (stage-major ring, each member entering
 *  when its own work is done: ring_steps_from, the engine's ring step by step), then each rank's optimizer step,
 *  then the overhead. `costs`, if given, receives each part (seconds; of a collective, the time from its last
 *  member's entry, as the engine reports it). The norm's hops are taken alone on their links (one value). */
double iteration_end_with_tail(const TailContext& ctx, const std::vector<int>& host_of_rank,
                               const std::vector<double>& stage_end, TailScratch& scratch,
                               IterationCosts* costs = nullptr);

}  // namespace hulk
