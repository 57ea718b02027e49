#pragma once
/** @file moves.hpp
 *  @brief Host exchanges as moves of a learned improvement policy (the network scores moves, gnn/move_model.hpp):
 *  the candidates of a placement, applying one, the pair features the scorer reads, and the teacher's label.
 *  Torch-free.
 *
 *  A host exchange puts all ranks of host a onto host b's GPUs and the reverse (the annealing search's move that
 *  crosses valleys, search_placer.hpp). A candidate is a pair whose role shares differ (the exchange changes
 *  something) and whose exchange is valid (counts fit, memory respected). */
#include <array>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk::gnn {

/** @brief Features of one host pair the move scorer reads beside the two hosts' embeddings. Symmetric in (a, b). */
constexpr int kPairFeatures = 8;
/** @brief The teacher's label is the relative time change of a move, t_after / t_before - 1, clipped to
 *  [-kMoveLabelClip, kMoveLabelClip] (an infeasible or very slow result is "much worse", not +infinity). */
constexpr double kMoveLabelClip = 0.5;

/** @brief Share of each host's GPUs per role, [hosts][pp + 1] (last = unused). */
std::vector<std::vector<double>> role_shares(const Scenario& scenario, const Placement& placement);

/** @brief All ranks of host a onto host b's slots 0.. and the reverse; false (p unchanged) if either set does not
 *  fit by count. */
bool exchange_hosts(const Scenario& scenario, Placement& p, int a, int b);

/** @brief The valid host exchanges of a placement whose role shares differ, (a, b) with a < b, in (a, b) order. */
std::vector<std::pair<int, int>> candidate_exchanges(const Scenario& scenario, const Placement& placement);

/** @brief The pair features of exchanging a and b in `placement` (route latency and bandwidth, same region,
 *  differences of the two hosts' roles and GPUs). */
std::array<float, kPairFeatures> pair_features(const Scenario& scenario, const RouteModel& network,
                                               const std::vector<std::vector<double>>& shares, int a, int b);

/** @brief The teacher's label of a move from a placement of time before_s to one of time after_s. */
double move_label(double before_s, double after_s);

}  // namespace hulk::gnn
