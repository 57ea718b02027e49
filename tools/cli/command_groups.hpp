#pragma once
/** @file command_groups.hpp
 *  @brief The CLI's few verbs: commands that belong to one topic are nested under it (`hulk gnn train`, `hulk sweep
 *  merge`, `hulk plan eval`, `hulk compare generated`), and the former top-level names still run, with a one-line
 *  notice, for one release (CHANGELOG.md). */
#include <CLI/CLI.hpp>

#include <initializer_list>
#include <string>
#include <vector>

namespace hulk::cli {

/** @brief The arguments with a former command name (argv[1], e.g. "gen-data") replaced by its nested form ("gnn",
 *  "gen-data"), and a notice on `notice` ("" when nothing was renamed). */
std::vector<std::string> with_current_command_names(const std::vector<std::string>& args, std::string& notice);

/** @brief True when one of `cmd`'s nested commands was given (`hulk sweep merge DIR`): `cmd`'s own callback then has
 *  nothing to do. */
bool nested_command_given(const CLI::App& cmd);

/** @brief Throws CLI::RequiredError for the first of `names` (options or positionals of `cmd`) not given.
 *  A command with nested commands checks its required options here, in its callback, instead of with CLI11's
 *  `required()`: CLI11 checks a parent's required options even when a nested command runs. */
void require_given(const CLI::App& cmd, std::initializer_list<const char*> names);

}  // namespace hulk::cli
