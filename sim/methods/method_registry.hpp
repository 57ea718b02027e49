#pragma once
/** @file method_registry.hpp
 *  @brief The one method registry: every placement method name (sim/core/method_names.hpp, shared with the
 *  scenario loader) mapped to its placer, and the call the commands use to place (each placer in a forked child,
 *  so the orchestrating process never starts torch or SimGrid and can fork again safely). "search" is the
 *  SimGrid-checked restart search (VerifiedSearchPlacer) everywhere: compare, place, simulate, sweep, reproduce and
 *  bench; the plain annealer stays available to code as SearchPlacer. */
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/methods/known_simulations.hpp"
#include "sim/place/placer.hpp"

namespace hulk {

/** @brief The learned placer (gnn/, torch): places a scenario with the model file at model_path; `greedy`, if not
 *  null, is greedy's placement of that scenario, which the caller had already (Placer::place_given_greedy). Given by
 *  the program (tools/cli/gnn_backend.hpp) because sim/ may not depend on gnn/; runs inside a child process. */
using LearnedPlacer =
    std::function<Placement(const Scenario& scenario, const std::string& model_path, const Placement* greedy)>;

/** @brief A learned placer's placement with greedy's given to it when known (Placer::place_given_greedy). */
inline Placement place_learned(Placer& placer, const Scenario& scenario, const Placement* greedy) {
  return greedy ? placer.place_given_greedy(scenario, *greedy) : placer.place(scenario);
}

/** @brief Knobs shared by the commands that place. */
struct MethodOptions {
  long budget = 0;           ///< search / gnn+refine budget in analytic evaluations (0 = the method's default)
  std::string model_path;    ///< GNN model file ("" = the committed default model)
  LearnedPlacer learned;     ///< needed by gnn and gnn+refine (an InputError names the method without it)
  /** @brief Called in the calling process before a learned method's child is forked (the program loads its GNN
   *  plugin there once, so every child inherits it instead of loading torch again); may be empty. */
  std::function<void()> prepare_learned;
  /** @brief Reads and checks the model file at a path, throwing InputError for a bad one; check_method_files
   *  calls it in a child process, so that a corrupt model is refused up front; may be empty. */
  std::function<void(const std::string& model_path)> check_learned_model;
  /** @brief Quiet SimGrid results of placements of the scenario being placed, computed before (compare's greedy and
   *  round-robin rows): the search's check takes them instead of running SimGrid again. Empty: none known. */
  KnownSimulations known_simulations;
};

/** @brief A placement and how long the method took to compute it (wall seconds, measured in the child). */
struct PlacementOutcome {
  std::string method;
  Placement placement;
  double wall_s = 0;
  /** @brief Placements of the scenario the method simulated on the way (the search's check: its candidates, often
   *  the answer and round-robin), with their quiet result.json (quiet_simulation); empty for the others. */
  KnownSimulations simulated;
};

/** @brief Every method name (without file:PATH), in display order: method_name_list() of sim/core. */
const std::vector<std::string>& known_methods();

/** @brief "  name         description" lines for --help texts, one per method, plus file:PATH. */
std::string methods_help();

/** @brief Throws unless method is a known name or file:PATH. @throws InputError (file, key) with the list of
 *  names and the closest one. */
void check_method(const std::string& method, const std::string& file, const std::string& key);

/** @brief The placer of a method, running in this process (search, exhaustive, gnn+refine start SimGrid in
 *  children; gnn starts torch in a child). @throws InputError for an unknown name, or gnn/gnn+refine without
 *  options.learned. */
std::unique_ptr<Placer> make_placer(const std::string& method, const MethodOptions& options = {});

/** @brief Computes a placement with a method in a child process and checks it is valid.
 *  @throws InputError for an unknown method or an infeasible job. */
PlacementOutcome compute_placement(const Scenario& scenario, const std::string& method, const MethodOptions& options);

/** @brief The input checks a method makes before it computes anything, alone, so that a report of several methods
 *  can refuse a bad input up front (exit 2, nothing written) instead of listing a failed row: a placement file
 *  that is missing or does not fit the scenario, `robust` without the scenario's `robust:` distribution,
 *  `exhaustive` above its size caps, a model file gnn and gnn+refine cannot load (check_method_files). @throws
 *  InputError as compute_placement() would. */
void check_method_applies(const Scenario& scenario, const std::string& method, const MethodOptions& options);

/** @brief The files a method reads whatever the scenario: a placement file (file:PATH) must be readable and, for gnn
 *  and gnn+refine, the model file (--model or the committed one) must load (options.check_learned_model). For commands over many scenarios or grid points (sweep,
 *  reproduce), where a method may apply to some and not others. @throws InputError naming the file. */
void check_method_files(const std::string& method, const MethodOptions& options);

/** @brief Splits "a,b,c" into names and checks each is known. @throws InputError naming --methods. */
std::vector<std::string> parse_method_list(const std::string& text);

/** @brief The committed GNN model, models/hulk-gnn.pt under the data root (sim/core/data_dir.hpp), whether or not it
 *  exists (shown in help texts). */
std::string default_model_path();

/** @brief `path`, or the committed model when `path` is "". @throws InputError naming where the committed model was
 *  looked for when it is missing. */
std::string model_or_committed(const std::string& path);

}  // namespace hulk
