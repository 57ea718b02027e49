#pragma once
/** @file gnn_method.hpp
 *  @brief gnn and gnn+refine: the learned placer in its own child process, then (refine) a short annealing run from
 *  its answer, SimGrid choosing between the two. */
#include <string>

#include "sim/core/spec.hpp"
#include "sim/methods/method_registry.hpp"

namespace hulk {

/** @brief Several jobs, in this process: the learned placer places job after job in the job order whose greedy
 *  placement the evaluator finds best, each on the GPUs the jobs before it left; with keep_greedy (the method's
 *  behaviour) the answer is the better by the several-job evaluator of that and the greedy placement in that order;
 *  without (an ablation), greedy's only when a job is left no share that fits its memory. */
Placement learned_jobs_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                                 bool keep_greedy = true);

/** @brief Places with the GNN model at model_path (several jobs: one job after the other, largest first, each on the
 *  GPUs left free, the same model for every job); with refine, a short local search follows (budget evaluations,
 *  0 = default). @throws InputError for a missing/corrupt/incompatible model file. */
Placement gnn_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                        bool refine, long budget);

}  // namespace hulk
