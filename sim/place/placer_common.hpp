#pragma once
/** @file placer_common.hpp
 *  @brief Small helpers shared by the placers: named deterministic random streams and host->slot assignment. */
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief 64-bit FNV-1a hash of a string (stable across platforms and runs; std::hash is not). */
std::uint64_t fnv1a64(const std::string& text);

/** @brief Seed of a named random stream: a SplitMix64 mix of scenario seed and fnv1a64(component). */
std::uint64_t component_seed(std::uint64_t scenario_seed, const std::string& component);

/** @brief Placement from the host of every rank: slots are given in rank order inside each host (GPUs of a host
 *  are identical, so any slot order is equivalent). Assumes no host receives more ranks than it has GPUs. */
Placement placement_from_hosts(const std::vector<int>& host_of_rank);

/** @brief Host index of every rank of a placement. */
std::vector<int> hosts_of(const Placement& placement);

}  // namespace hulk
