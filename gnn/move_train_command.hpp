#pragma once
/** @file move_train_command.hpp
 *  @brief Torch-free entry point of `hulk gnn train-moves`: the move scorer (gnn/move_model.hpp) trained on a move data
 *  set (gnn/move_data.hpp) and written into a model file beside a placement GNN.
 *
 *  Loss per state: the Huber loss of the predicted labels (x kMoveLabelScale) plus a listwise term (ListNet: the
 *  cross-entropy between the softmax of the negated predictions and that of the negated labels over the state's
 *  moves, at temperature kMoveRankTemperature), since what the policy needs is the best move of a state ranked
 *  first. Validation (a share of the samples, split by the seed): the mean label of the move each validation state's
 *  scores rank first (the policy's one-step gain; lower is better) against the best labelled move's; the written
 *  scorer is the epoch with the lowest such mean. Deterministic for a seed: torch::manual_seed, one intra-op thread,
 *  the epoch's state order drawn from (seed, epoch).
 *
 *  With dagger_rounds, each round then adds the states the scorer's own walk reaches from greedy's placement on
 *  every sample (labelled by the evaluator; gnn/move_dagger.hpp) and trains dagger_epochs more epochs on all states,
 *  keeping the round's best epoch by the same validation (over the grown validation states). Every round starts a
 *  fresh optimiser from the weights kept, so a run with --init-scorer on a file written after the first epochs
 *  continues as the run that did both.
 *
 *  Last (calibrate_stop), the model-only walk's stopping bound is fitted on the validation clusters with the scorer
 *  written (gnn/move_calibrate.hpp); --init-scorer --epochs 0 fits it for a scorer trained before. */
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace hulk::gnn {

/** @brief The arguments of `hulk gnn train-moves`. */
struct MoveTrainCommand {
  std::vector<std::string> data_dirs;  ///< move data sets (hulk gnn gen-moves), loaded in order
  bool allow_partial = false;          ///< use the samples present
  /** @brief The placement GNN written beside the scorer: this model file's (its own move scorer, if any, is
   *  replaced). "" = fresh weights after torch::manual_seed(seed), as `hulk gnn train --epochs 0`. */
  std::string init;
  std::string model_out;               ///< model file to write
  int epochs = 8;
  std::uint64_t seed = 1;
  double lr = 2e-3;
  int batch = 8;                       ///< states per Adam step
  double val_fraction = 0.1;           ///< share of samples held out
  int max_examples = 0;                ///< > 0: train on the first states up to this many labelled moves (curves)
  /** @brief Start from the --init file's move scorer instead of fresh weights (then --epochs may be 0). */
  bool init_scorer = false;
  int dagger_rounds = 0;               ///< data aggregation rounds after the first epochs (gnn/move_dagger.hpp)
  int dagger_epochs = 2;               ///< epochs after each round
  int dagger_walk = 4;                 ///< moves of the scorer's walk per sample and round
  /** @brief A fresh scorer reads the moves' analytic changes (gnn/move_deltas.hpp) beside the pair features;
   *  false: the pair features alone. Ignored with init_scorer (the file's scorer keeps its own). */
  bool move_deltas = true;
  /** @brief After training, fit the model-only walk's stopping bound on the validation clusters
   *  (gnn/move_calibrate.hpp) and store it in the model file; false: the file's bound is the neutral 0. */
  bool calibrate_stop = true;
};

/** @brief What a run did. */
struct MoveTrainSummary {
  int train_states = 0;
  int val_states = 0;
  long long train_examples = 0;  ///< labelled moves trained on
  int best_epoch = 0;
  double val_chosen = 0;         ///< the best epoch's mean label of the top-ranked move over validation states
  double val_best = 0;           ///< mean label of the best labelled move over the same states
  double val_random = 0;         ///< mean label of all moves (an order-blind pick)
  /** @brief The model-only walk's bounds written (MoveScorerImpl::stop_bound; 0 without calibrate_stop). */
  double stop_bound_small = 0, stop_bound_large = 0;
};

/** @brief Loads the data, trains and writes the model file (atomically). @throws InputError for a missing/bad data
 *  set, an empty one or a bad --init file. */
MoveTrainSummary train_moves_from_dir(const MoveTrainCommand& command, std::ostream* progress);

}  // namespace hulk::gnn
