#include "sim/methods/placement_methods.hpp"

#include <chrono>
#include <sstream>

#include "sim/methods/gnn_method.hpp"
#include "sim/core/errors.hpp"
#include "sim/place/placer.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/methods/placer_factory.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/methods/verified_search.hpp"

namespace hulk {

const std::vector<std::string>& known_methods() {
  static const std::vector<std::string> methods = {"round-robin", "random", "greedy",    "search",
                                                   "exhaustive",  "gnn",    "gnn+refine"};
  return methods;
}

std::string default_model_path() { return std::string(HULK_SOURCE_DIR) + "/models/hulk-gnn.pt"; }

namespace {

bool is_known(const std::string& m) {
  if (m.rfind("file:", 0) == 0) return true;
  for (const auto& k : known_methods())
    if (k == m) return true;
  return false;
}

std::string known_list() {
  std::string out;
  for (const auto& k : known_methods()) out += (out.empty() ? "" : ", ") + k;
  return out + ", file:PATH";
}

/** Runs in the child: the only place a placer (possibly torch or SimGrid based) executes. */
Placement place_here(const Scenario& scenario, const std::string& method, const MethodOptions& options) {
  if (method.rfind("file:", 0) == 0) return load_placement_file(scenario, method.substr(5));
  if (method == "gnn" || method == "gnn+refine") {
    const std::string model = options.model_path.empty() ? default_model_path() : options.model_path;
    if (!options.learned)
      throw InputError(scenario.file, 0, "placement", "method '" + method + "' needs the learned placer (gnn/)");
    return gnn_placement(scenario, model, options.learned, method == "gnn+refine", options.budget);
  }
  if (method == "search") {
    VerifiedSearchOptions search_options;
    if (options.budget > 0) search_options.total_evaluations = options.budget;
    return VerifiedSearchPlacer(search_options).place(scenario);
  }
  PlacerOptions placer_options;
  if (options.budget > 0) placer_options.search_evaluations = options.budget;
  return make_placer(method, placer_options)->place(scenario);
}

}  // namespace

std::vector<std::string> parse_method_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    if (!is_known(item))
      throw InputError("", 0, "--methods", "unknown method '" + item + "' (expected one of: " + known_list() + ")");
    out.push_back(item);
  }
  if (out.empty()) throw InputError("", 0, "--methods", "no method given (expected one of: " + known_list() + ")");
  return out;
}

PlacementOutcome compute_placement(const Scenario& scenario, const std::string& method, const MethodOptions& options) {
  if (!is_known(method))
    throw InputError(scenario.file, 0, "placement",
                     "unknown placement method '" + method + "' (expected one of: " + known_list() + ")");
  nlohmann::json answer = run_in_child([&]() {
    const auto start = std::chrono::steady_clock::now();
    Placement p = place_here(scenario, method, options);
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string problem = placement_problem(scenario, p, scenario.job.check_memory);
    if (!problem.empty()) throw std::runtime_error("placer '" + method + "' returned an invalid placement: " + problem);
    return nlohmann::json{{"placement", placement_to_json(scenario, p)}, {"wall_s", wall_s}};
  });
  PlacementOutcome out;
  out.method = method;
  out.placement = placement_from_json(scenario, answer.at("placement"), "<" + method + ">");
  out.wall_s = answer.at("wall_s").get<double>();
  return out;
}

}  // namespace hulk
