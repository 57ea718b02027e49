#pragma once
/** @file iteration_tail.hpp
 *  @brief The evaluator's estimate of what follows the data-parallel all-reduces in an iteration, as the rank
 *  actors run it (sim/engine/rank_actor.cpp, RankActor::iteration_tail): the tied-embedding all-reduce between the
 *  first and the last stage, the gradient norm's all-reduce of one value over each replica's model-parallel group,
 *  the optimizer step on every rank and the job's framework overhead. */
#include <vector>

#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/workload/compute_efficiency.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

/** @brief What the tail needs of an evaluator: the job, its plan and costs, the routes and each host's speed. */
struct TailContext {
  const JobSpec* job = nullptr;
  const ParallelPlan* plan = nullptr;
  const JobCost* cost = nullptr;
  const StagesByHost* stages = nullptr;
  const RouteModel* routes = nullptr;
  const std::vector<double>* speed = nullptr;  ///< per host, flop/s per GPU
};

/** @brief End of the iteration given each stage's end of its DP all-reduce (stage_end[s]): the embedding
 *  all-reduce (a two-member ring: 2 steps of half the bytes) on the first and the last stage, then, the norm
 *  all-reduce waiting for every stage of its replica, 2 (n - 1) ring steps of the slowest hop's latency, then the
 *  slowest rank's optimizer step, then the overhead. `costs`, if given, receives each part (seconds). Links are
 *  taken as free: these transfers are small or alone on their links. */
double iteration_end_with_tail(const TailContext& ctx, const std::vector<int>& host_of_rank,
                               const std::vector<double>& stage_end, IterationCosts* costs = nullptr);

}  // namespace hulk
