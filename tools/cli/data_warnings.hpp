#pragma once
/** @file data_warnings.hpp
 *  @brief The data warnings of a scenario (PlatformSpec::warnings: Hulk importer quirks and the like) on stderr,
 *  each once per command, none with `--quiet`. */
#include <CLI/CLI.hpp>

#include "sim/core/spec.hpp"

namespace hulk::cli {

/** @brief Adds `--quiet` (no data warnings) to cmd. */
void add_quiet_flag(CLI::App* cmd, bool& quiet);

/** @brief Prints the scenario's platform warnings as "hulk: warning: ..." lines, skipping every text this process
 *  already printed (commands that load several scenarios over the same data print it once), nothing if quiet. */
void print_data_warnings(const Scenario& scenario, bool quiet);

}  // namespace hulk::cli
