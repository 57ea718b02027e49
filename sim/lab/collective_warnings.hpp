#pragma once
/** @file collective_warnings.hpp
 *  @brief What `hulk simulate` says about a placement's collectives before it simulates them. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief For each job with `collective: hierarchical` whose placement leaves a DP group's regions holding unequal
 *  numbers of its replicas, one warning (the CLI prints it): such a group runs one ring ordered region by region
 *  (sim/engine/collectives.cpp), since the hierarchical phases need equal blocks; the evaluator models it the same
 *  way. The fallback is said, not silent: a 3 + 1 group runs the flat ring, much slower than a hierarchical
 *  all-reduce would be. DiLoCo jobs are left out (their groups are islands). */
std::vector<std::string> unbalanced_hierarchical_warnings(const Scenario& scenario, const Placement& placement);

}  // namespace hulk
