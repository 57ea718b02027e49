#pragma once
/** @file method_names.hpp
 *  @brief The one list of placement method names, with a one-line description each. It lives in core because the
 *  scenario loader (which may include only core) and the method registry (sim/methods) must accept exactly the
 *  same names; the registry maps each name to its placer. */
#include <string>
#include <vector>

#include "sim/core/did_you_mean.hpp"

namespace hulk {

/** @brief A method name and what it does, in one line. */
struct MethodName {
  const char* name;
  const char* description;
};

/** @brief Every named placement method, in display order (file:PATH is accepted besides these). */
inline const std::vector<MethodName>& method_names() {
  static const std::vector<MethodName> names = {
      {"round-robin", "ranks in Megatron order onto hosts in listed order, one GPU per host per round"},
      {"random", "a random valid placement (seeded by the scenario)"},
      {"greedy", "topology-aware heuristic: TP in a host, DP in a region, stages along the cheapest chain"},
      {"search", "annealing restarts over the analytic evaluator, the final choice checked by SimGrid"},
      {"robust", "annealing over the mean estimate across the scenario's robust: network states, checked by SimGrid"},
      {"exhaustive", "every placement up to symmetry, timed by SimGrid (small platforms only)"},
      {"gnn", "the learned GNN placer (model file, default models/hulk-gnn.pt)"},
      {"gnn+refine", "gnn, then a short annealing run from its answer; SimGrid keeps the better of the two"},
  };
  return names;
}

/** @brief The prefix of a placement read from a JSON file ("file:PATH"). */
inline constexpr const char* kPlacementFilePrefix = "file:";

/** @brief The names of method_names() alone, in display order. */
inline std::vector<std::string> method_name_list() {
  std::vector<std::string> out;
  for (const auto& m : method_names()) out.emplace_back(m.name);
  return out;
}

/** @brief True for a name in method_names() or any "file:..." text (the path is checked by whoever reads it). */
inline bool is_method_name(const std::string& text) {
  if (text.rfind(kPlacementFilePrefix, 0) == 0) return true;
  for (const auto& m : method_names())
    if (text == m.name) return true;
  return false;
}

/** @brief True for the methods that use the learned (GNN) placer: gnn and gnn+refine. */
inline bool uses_learned_placer(const std::string& method) { return method == "gnn" || method == "gnn+refine"; }

/** @brief "round-robin, random, ..., gnn+refine, file:PATH": the list error messages show. */
inline std::string method_names_text() {
  std::string out;
  for (const auto& m : method_names()) out += std::string(m.name) + ", ";
  return out + "file:PATH";
}

/** @brief "unknown placement 'X' (expected one of: ...); did you mean 'Y'?": the one message the scenario loader
 *  and the command line give for a name that is not a method. */
inline std::string unknown_method_message(const std::string& text) {
  const std::string closest = closest_name(text, method_name_list());
  return "unknown placement '" + text + "' (expected one of: " + method_names_text() + ")" +
         (closest.empty() ? "" : "; did you mean '" + closest + "'?");
}

}  // namespace hulk
