#pragma once
/** @file gnn_method.hpp
 *  @brief The bridge from the CLI to gnn/: loads a model and places a scenario (called inside a child process). */
#include <string>

#include "sim/spec.hpp"

namespace hulk::cli {

/** @brief Places with the GNN model at model_path; with refine, a short local search follows (budget evaluations,
 *  0 = default). @throws InputError for a missing/corrupt/incompatible model file. */
Placement gnn_placement(const Scenario& scenario, const std::string& model_path, bool refine, long budget);

}  // namespace hulk::cli
