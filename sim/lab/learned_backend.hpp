#pragma once
/** @file learned_backend.hpp
 *  @brief The learned placer as the experiments get it from the program (sim/ does not see gnn/ or torch): a placer
 *  per model file and decoder switches, run in a child of the experiment's. */
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sim/place/placer.hpp"

namespace hulk {

/** @brief The switches of the learned decoder that an experiment changes. They are gnn::SamplingOptions's fields of
 *  the same names, which the program sets from them (sim/ does not see gnn/, tools/cli/gnn_backend.hpp); unset: the
 *  decoder's own default. */
struct LearnedDecoder {
  std::optional<int> candidates;          ///< placements decoded (1: the argmax decode alone)
  std::optional<bool> greedy_candidate;   ///< greedy's placement as one more candidate
  std::optional<bool> reference_prior;    ///< greedy's residual prior added to the scores
  std::optional<bool> prior_free_view;    ///< the scores also without the prior, their decodes competing
  std::optional<int> polish;              ///< evaluations of the score-guided host exchanges
  std::optional<int> polish_top_k;        ///< exchanges of the scorer's ranking tried per step (0: all)
  std::optional<int> stage_orders;        ///< stage reorderings (also the annealing's, LearnedAnnealOptions)
  std::optional<bool> tp_rings;           ///< TP ring re-chaining (also the annealing's)
  std::optional<int> guided_anneal;       ///< the move scorer's guided annealing's cost calls
  std::optional<int> walk_moves;          ///< the scorer's walk's evaluated prefixes in place of the views (0: none)
  std::optional<bool> walk_reorder;       ///< the walk's answer's stage, TP ring and DP ring reorderings
};

/** @brief The learned placer's least work (bench's, and gnn families' model-only row starts from it): one candidate
 *  and no greedy's placement among the candidates, so the placer returns the model's own answer (the argmax decode,
 *  or with a move scorer its walk from greedy's placement), nothing evaluated. */
LearnedDecoder least_work_decoder();

/** @brief How an experiment reaches the learned placer: the program's GNN plugin (tools/cli/gnn_backend.hpp). */
struct LearnedBackend {
  std::function<void()> prepare;  ///< loads the placer's library before the torch child forks (may be empty)
  /** @brief The learned placer of a model file with the given decoder switches. */
  std::function<std::unique_ptr<Placer>(const std::string& model_path, const LearnedDecoder& decoder)> make_placer;
  /** @brief Writes a model of fresh weights drawn from `seed` (as `hulk gnn train --epochs 0 --seed SEED`). */
  std::function<void(const std::string& path, std::uint64_t seed)> save_untrained_model;
};

}  // namespace hulk
