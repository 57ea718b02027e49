#pragma once
/** @file placer_common.hpp
 *  @brief Small helpers shared by the placers: host->slot assignment (and, via sim/core/seeding.hpp, the named
 *  deterministic random streams the placers draw from). */
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/seeding.hpp"  // component_seed: placers and their callers seed streams by name
#include "sim/core/spec.hpp"

namespace hulk {

class Evaluator;

/** @brief The order in which greedy-style constructions take a region's hosts: fastest GPUs first (then most GPUs),
 *  or most GPUs first (then fastest: fewer TP and DP groups split over hosts). */
enum class HostOrder { kSpeed, kSize };

/** @brief Sorts hosts (platform indices) into that order, the evaluator's GPU speeds deciding; stable, so ties keep
 *  the given order. */
void sort_hosts(std::vector<int>& hosts, const Evaluator& evaluator, HostOrder order);

/** @brief Placement from the host of every rank: slots are given in rank order inside each host (GPUs of a host
 *  are identical, so any slot order is equivalent). Assumes no host receives more ranks than it has GPUs. */
Placement placement_from_hosts(const std::vector<int>& host_of_rank);

/** @brief Host index of every rank of a placement. */
std::vector<int> hosts_of(const Placement& placement);

}  // namespace hulk
