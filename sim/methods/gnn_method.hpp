#pragma once
/** @file gnn_method.hpp
 *  @brief gnn and gnn+refine: the learned placer in its own child process, then (refine) a short annealing run from
 *  its answer, SimGrid choosing between the two. */
#include <string>

#include "sim/core/spec.hpp"
#include "sim/methods/method_registry.hpp"

namespace hulk {

/** @brief Places with the GNN model at model_path (several jobs: one job after the other, largest first, each on the
 *  GPUs left free, the same model for every job); with refine, a short local search follows (budget evaluations,
 *  0 = default). @throws InputError for a missing/corrupt/incompatible model file. */
Placement gnn_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                        bool refine, long budget);

}  // namespace hulk
