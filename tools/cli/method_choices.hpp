#pragma once
/** @file method_choices.hpp
 *  @brief The valid values of a method option, shown in --help. CLI::IsMember cannot express the set (file:PATH is
 *  open-ended), so this validator only describes; the value is checked by check_method() / parse_method_list(),
 *  whose errors name the option and suggest the closest name. */
#include <string>

#include <CLI/CLI.hpp>

#include "sim/methods/method_registry.hpp"

namespace hulk::cli {

/** @brief "{round-robin,random,...,file:PATH}" (prefixed "comma-separated list of " if list). */
inline CLI::Validator method_choices(bool list = false) {
  std::string names;
  for (const auto& m : known_methods()) names += m + ",";
  return CLI::Validator(std::string(list ? "comma-separated list of " : "") + "{" + names + "file:PATH}");
}

/** @brief --budget's help where the methods include search and gnn+refine. */
inline const char* kSearchBudgetHelp =
    "search budget in evaluations (0 = the method's own: 20000 for search, 2000 for gnn+refine)";

/** @brief --model's help where the methods include gnn and gnn+refine. */
inline std::string learned_model_help() {
  return "GNN model file for gnn and gnn+refine (default: " + default_model_path() + ")";
}

}  // namespace hulk::cli
