#pragma once
/** @file host_prefix_greedy.hpp
 *  @brief Greedy restricted to the first hosts of an order: the way a planner picks which GPUs a layout that leaves
 *  some idle should hold when "fastest first" (greedy's own choice) is not the goal, e.g. the cheapest GPUs under a
 *  cost objective. */
#include <optional>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Greedy's placement of the scenario's one job on the shortest prefix of `host_order` whose GPUs hold its
 *  ranks and fit its stages' memory (one host more at a time); nullopt when no prefix does, or when the prefix
 *  needed is every host (greedy on the whole platform is that placement). */
std::optional<Placement> greedy_on_host_prefix(const Scenario& scenario, const std::vector<int>& host_order);

}  // namespace hulk
