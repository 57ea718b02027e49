#pragma once
/** @file polish.hpp
 *  @brief Score-guided host exchanges after the sampling decoder. Torch-free.
 *
 *  The decoder keeps the cheapest of a few decoded placements; what it cannot do is fix one bad host choice
 *  inside an otherwise good placement (a pipeline segment on a server one region away from where it should be).
 *  The polish tries exchanging all ranks of two hosts, the move that crosses such valleys (it is one of the
 *  annealing search's, search_placer.hpp), in the order the model's scores rank them: the estimated gain of
 *  exchanging hosts a and b is  E(a, b) + E(b, a) - E(a, a) - E(b, b),  where E(h, k) = sum over roles r of
 *  share_k(r) * score(h, r) and share_k is host k's current share of GPUs per role (stage or unused). The first
 *  exchange the cost function (the analytic evaluator in practice) finds faster is kept, the pairs are re-ranked,
 *  and so on until no ranked pair improves or the evaluation budget is spent (first-improvement descent, as the
 *  2-opt refinements of learned routing policies; the budget is in evaluations so the answer is deterministic).
 *  Pairs with the same shares are never tried (their exchange moves nothing the scores can tell apart). Never
 *  slower than the start by the cost function; every result is valid (placement_violation() == ""). */
#include <functional>
#include <utility>
#include <vector>

#include "gnn/decode.hpp"
#include "gnn/sampled_decode.hpp"

namespace hulk::gnn {

/** @brief Host pairs of a placement in the order to try their exchanges, best first (the learned move scores,
 *  gnn/move_model.hpp); replaces the role scores' ranking when given. */
using PairRanker = std::function<std::vector<std::pair<int, int>>(const Placement&)>;

/** @brief The evaluations a polish of `scenario` may spend: min(evaluations, rank_budget / ranks), at least 1 when
 *  evaluations > 0 (0 = no polish). Large jobs get fewer, as the sampling decoder's candidates (sampled_decode.hpp). */
int polish_budget(const Scenario& scenario, int evaluations, int rank_budget);

/** @brief Improves `start` by score-guided host exchanges (file comment) within `evaluations` exchanges tried.
 *  The result's `chosen` is kept from start, its `cost` updated; `polished` counts the exchanges kept. With
 *  `bound` (a lower bound of the cost), an exchange it shows no cheaper is counted as tried but not costed: the
 *  same answer, fewer cost calls. With `ranker`, the pairs are tried in its order instead of the scores'. With
 *  top_k > 0, each step tries only the first top_k pairs of the order whose exchange is valid and leads to a
 *  placement not seen yet, and the descent ends when none of them is faster (learned move ordering: a good ranking
 *  finds the faster exchanges within the few it tries, a poor one stops early); 0 = the whole order. */
SampledPlacement polish_placement(const Scenario& scenario, const RoleScores& scores, SampledPlacement start,
                                  int evaluations, const PlacementCost& cost, const PlacementBound& bound = {},
                                  const PairRanker& ranker = {}, int top_k = 0);

}  // namespace hulk::gnn
