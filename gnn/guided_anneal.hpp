#pragma once
/** @file guided_anneal.hpp
 *  @brief An annealing over host exchanges whose proposals the move scorer draws (gnn/move_model.hpp), not chance.
 *  Torch-free: the scorer comes in as a callback.
 *
 *  The search's annealing (sim/place/annealing.hpp) draws its moves uniformly: no weight decides where its
 *  evaluations go. Here each proposal is a host exchange (gnn/moves.hpp) of the current placement drawn from the
 *  softmax of the scorer's predicted time changes, p(move) ~ exp(-(score - best score) / temperature), so a scorer
 *  that ranks well spends the evaluations on promising exchanges and a poor one (fresh weights) on others. The
 *  scores are computed once per state (again after each accepted move). Acceptance is the search's: Metropolis,
 *  the temperature falling geometrically from 3% to 0.001% of the start's cost over the budget of cost calls; a
 *  proposal the lower bound shows rejected is not costed, and one drawn again from the same state gets its cost
 *  again without a call. The best placement seen is returned: never slower than the start by the cost function.
 *  Deterministic for a seed and a deterministic scorer. */
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "gnn/sampled_decode.hpp"
#include "sim/place/fastest_candidate.hpp"

namespace hulk::gnn {

/** @brief A placement's candidate host exchanges (candidate_exchanges) and the scorer's predicted relative time
 *  change of each (lower is better), in the same order. */
using ScoredExchanges =
    std::function<std::pair<std::vector<std::pair<int, int>>, std::vector<double>>(const Placement&)>;

/** @brief Knobs of guided_anneal. */
struct GuidedAnnealOptions {
  int evaluations = 0;        ///< cost calls (full estimates) the annealing may make; 0 = none
  double temperature = 0.02;  ///< the softmax's temperature, in the scores' unit (relative time change)
  std::uint64_t seed = 1;     ///< the proposals' and the acceptance's random numbers
  /** @brief Cap on proposals per cost call of the budget: drawn again from the same state or bounded out, they
   *  cost no call but do cost time. */
  int proposals_per_evaluation = 16;
};

/** @brief What guided_anneal did. */
struct GuidedAnnealStats {
  int evaluations = 0;  ///< cost calls made
  int proposals = 0;    ///< exchanges drawn
  int accepted = 0;     ///< moves accepted
  int scorings = 0;     ///< scorer calls (one per state visited)
};

/** @brief The annealing of the file comment from `start` (its cost given), the best placement seen returned with
 *  its cost (`chosen` and the other fields kept from start; `polished` += moves that improved the best). */
SampledPlacement guided_anneal(const Scenario& scenario, SampledPlacement start, const GuidedAnnealOptions& options,
                               const PlacementCost& cost, const PlacementBound& bound, const ScoredExchanges& scorer,
                               GuidedAnnealStats* stats = nullptr);

}  // namespace hulk::gnn
