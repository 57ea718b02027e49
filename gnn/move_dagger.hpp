#pragma once
/** @file move_dagger.hpp
 *  @brief Data aggregation for the move scorer (DAgger, Ross et al. 2011): the states the scorer's own walk reaches
 *  from greedy's placement, labelled by the analytic evaluator, added to the training data.
 *
 *  Why: gen-moves' trajectories alternate the best labelled move with random ones, so most training states are one
 *  random move away from a better placement; the policy runs from greedy's placement and then from wherever its
 *  own moves lead, where the best move is rarer and smaller. Training on the states the policy visits teaches it
 *  the moves it actually chooses between, including the cost of the moves it wrongly prefers. */
#include <cstdint>
#include <vector>

#include "gnn/move_data.hpp"
#include "gnn/move_model.hpp"

namespace hulk::gnn {

/** @brief How the policy's states are gathered. */
struct DaggerOptions {
  int walk = 4;               ///< moves of the scorer's walk from greedy's placement (each always taken)
  int moves_per_state = 48;   ///< candidate exchanges labelled per state (all when fewer)
  std::uint64_t seed = 1;     ///< draws of the labelled candidates
  int round = 1;              ///< aggregation round (a stream of its own)
};

/** @brief For each sample, the scorer's walk from the sample's first state (greedy's placement in gen-moves'
 *  samples): `walk` times its top-ranked candidate exchange to a placement not visited yet, taken whatever its
 *  score (no evaluator call decides); every placement reached is labelled (label_state). Returns samples of the
 *  same index and scenario holding only the new states (none for a sample whose first state has no move).
 *  Deterministic: the scorer runs on one thread, the draws come from (seed, round, index). */
std::vector<MoveSample> policy_states(MoveScorer& scorer, const std::vector<MoveSample>& samples,
                                      const DaggerOptions& options);

}  // namespace hulk::gnn
