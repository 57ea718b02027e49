#pragma once
/** @file placement_methods.hpp
 *  @brief Resolves a placement method name (round-robin, random, greedy, search, exhaustive, gnn, gnn+refine,
 *  file:PATH) into a placement. Each placer runs in a forked child, so the orchestrating process never starts
 *  torch or SimGrid and can fork again safely. */
#include <functional>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The learned placer (gnn/, torch): places a scenario with the model file at model_path. Given by the
 *  program (tools/gnn_backend.hpp) because sim/ may not depend on gnn/; runs inside a child process. */
using LearnedPlacer = std::function<Placement(const Scenario& scenario, const std::string& model_path)>;

/** @brief Knobs shared by the commands that place. */
struct MethodOptions {
  long budget = 0;           ///< search budget in evaluations (0 = the placer's default)
  std::string model_path;    ///< GNN model file ("" = the committed default model)
  LearnedPlacer learned;     ///< needed by gnn and gnn+refine (an InputError names the method without it)
};

/** @brief A placement and how long the method took to compute it (wall seconds, measured in the child). */
struct PlacementOutcome {
  std::string method;
  Placement placement;
  double wall_s = 0;
};

/** @brief Every method name accepted on the command line, in display order. */
const std::vector<std::string>& known_methods();

/** @brief Computes a placement with a method. @throws InputError for an unknown method or an infeasible job. */
PlacementOutcome compute_placement(const Scenario& scenario, const std::string& method, const MethodOptions& options);

/** @brief Splits "a,b,c" into names and checks each is known. @throws InputError naming the bad one. */
std::vector<std::string> parse_method_list(const std::string& text);

/** @brief The committed GNN model (models/hulk-gnn.pt in the source tree). */
std::string default_model_path();

}  // namespace hulk
