#pragma once
/** @file collective_warnings.hpp
 *  @brief What `hulk simulate` says about a placement's collectives before it simulates them. */
#include "sim/core/spec.hpp"

namespace hulk::cli {

/** @brief For each job with `collective: hierarchical` whose placement leaves a DP group's regions holding unequal
 *  numbers of its replicas, one warning line on stderr (unless quiet): such a group runs one ring ordered region by
 *  region (sim/engine/collectives.cpp), since the hierarchical phases need equal blocks; the evaluator models it the
 *  same way. An outside probe found the fallback silent: a 3 + 1 group ran the flat ring's 30.8 s, not the 20.7 s
 *  of a hierarchical all-reduce. DiLoCo jobs are left out (their groups are islands). */
void warn_unbalanced_hierarchical(const Scenario& scenario, const Placement& placement, bool quiet);

}  // namespace hulk::cli
