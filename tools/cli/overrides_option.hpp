#pragma once
/** @file overrides_option.hpp
 *  @brief `--set KEY=VALUE` (repeatable) for the commands that run one scenario (simulate, place, compare): the
 *  scenario overrides of sim/scenario/scenario.hpp, as `sweep --set` gives them per grid point. */
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/scenario/scenario.hpp"

namespace hulk::cli {

/** @brief Adds the repeatable `--set KEY=VALUE` option to cmd; the texts land in sets. */
void add_set_option(CLI::App* cmd, std::vector<std::string>& sets);

/** @brief Parses KEY=VALUE texts into overrides. The value is everything after the first '=', commas included:
 *  with one value per key there is no list to split, so a YAML map or list value
 *  (`regions.tokyo.host_link={bandwidth: 25Gbps, latency: 10us}`) arrives whole.
 *  @throws InputError naming --set for a text without KEY=, an empty value, or a key given twice. */
std::vector<Override> parse_set_overrides(const std::vector<std::string>& sets);

}  // namespace hulk::cli
