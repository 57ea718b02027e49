#pragma once
/** @file train.hpp
 *  @brief Training the placement GNN on a data set: supervised on the search's labels (symmetric loss), with
 *  self-imitation targets when an evaluator is given.
 *
 *  - Self-imitation (expert iteration with the evaluator as judge). Many placements are as good as the label
 *    (another region for a stage, other hosts of a region); a target that flips between them from sample to
 *    sample is hard to learn, and the label may be slightly worse than the reference. Before every epoch, each
 *    training sample's target becomes the first of (the model's own best sampled decode, the greedy reference,
 *    the search label) whose estimated time is within self_imitation_tolerance of the best of the three. The
 *    model is thus pulled to the label only where its own answer is clearly worse, and it can never be taught a
 *    placement worse than the label or the reference by more than the tolerance.
 *  - Deterministic for a seed: torch::manual_seed(seed) before the model is built, one intra-op thread during
 *    training (sum order of index_add_/matmul then fixed), the epoch's sample order drawn from (seed, epoch).
 *  - Checkpoint after every finished epoch to out + ".ckpt" (model, Adam state, epoch, history; temporary file
 *    + rename). A run finds the checkpoint and resumes after its epoch; because the order of epoch e depends
 *    only on (seed, e), a resumed run ends with the same weights as an uninterrupted one.
 *  - An interrupt (TrainOptions::interrupted, the program's SIGINT/SIGTERM flag) stops training at the next
 *    mini-batch: the checkpoint keeps the last finished epoch, and the result says interrupted (the model file
 *    `out` is written only when all epochs are done). */
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "gnn/dataset.hpp"
#include "gnn/model.hpp"

namespace hulk::gnn {

/** @brief Training knobs. */
struct TrainOptions {
  int epochs = 40;
  std::uint64_t seed = 1;
  double lr = 2e-3;
  int batch = 8;               ///< samples per Adam step (losses averaged)
  double val_fraction = 0.1;   ///< share of samples held out for validation (deterministic split by seed)
  ModelConfig model;           ///< hyper-parameters of a new model (a resumed run keeps the checkpoint's)
  bool resume = true;          ///< resume from out + ".ckpt" if it exists
  int self_imitation_candidates = 8;     ///< decodes per sample when refreshing targets (0: plain labels)
  double self_imitation_tolerance = 0.01;  ///< relative slack for preferring the model's / reference's placement
  int validation_candidates = 32;        ///< sampling decoder of the validation gap (as GnnPlacer's default)
  /** @brief > 0 (with an evaluator): add reinforce_weight x the policy-gradient term of gnn/reinforce.hpp over this
   *  many sampled decodes per sample and step to the imitation loss (evaluator as reward). 0: imitation only. */
  int reinforce_candidates = 0;
  double reinforce_weight = 10.0;        ///< scale of that term (advantages are differences of log seconds)
  /** @brief Non-empty: a fresh run starts from this model file's weights and configuration (fine-tuning), not from
   *  seeded random weights. */
  std::string init_model;
  /** @brief What else decided the training data, as (command-line option, value) pairs (train_from_dir: --data,
   *  --synthetic, --synthetic-max-gpus). With every option above but epochs (a run may be given more), they are
   *  kept in the checkpoint: a checkpoint of a run with other values is refused, naming the option. */
  std::vector<std::pair<std::string, std::string>> data_inputs;
  /** @brief The caller's interrupt flag, asked before each epoch and each mini-batch (a signal caught while the
   *  data loaded stops the run too). Empty: training runs to the end. */
  std::function<bool()> interrupted;
};

/** @brief Iteration time of a placement (seconds), e.g. the analytic evaluator; used for the validation gap. */
using Evaluator = std::function<double(const Scenario&, const Placement&)>;

/** @brief One epoch's numbers. */
struct EpochStats {
  int epoch = 0;               ///< 1-based
  double train_loss = 0;       ///< mean symmetric loss over training samples
  double val_loss = 0;         ///< mean over validation samples (NaN if none)
  double val_gap = 0;          ///< mean of eval(gnn) / eval(label) - 1 over validation samples, gnn = the sampling
                               ///< decoder with validation_candidates (NaN without evaluator)
  double model_targets = 0;    ///< share of training targets that were the model's own decode (self-imitation)
  double seconds = 0;          ///< wall time of the epoch
};

/** @brief What train_model did. */
struct TrainResult {
  std::vector<EpochStats> history;  ///< all finished epochs, including those of a resumed checkpoint
  bool interrupted = false;         ///< stopped by SIGINT (model file not written)
  int skipped_samples = 0;          ///< samples whose job exceeds p_max stages or whose label is not decodable
  int train_samples = 0;
  int val_samples = 0;
};

/** @brief Trains (or resumes) and writes the model to `out` when all epochs are done: the epoch with the lowest
 *  validation gap if an evaluator is given, else the lowest validation loss (its weights kept in `out`.best, so
 *  that rerunning a finished run, or resuming it with more epochs, writes the same selection). Without an
 *  evaluator, self-imitation is off (plain labels).
 *  @param progress receives one line per epoch ("epoch E/N loss L val_loss V val_gap G% time Ts"); may be null.
 *  @throws InputError on an empty data set or an unreadable/incompatible checkpoint. */
TrainResult train_model(const std::vector<Sample>& data, const std::string& out, const TrainOptions& options,
                        const Evaluator& evaluator = {}, std::ostream* progress = nullptr);

/** @brief Mean symmetric loss of a model over samples (eval mode, no grad); NaN if no sample is usable. */
double evaluate_loss(PlacementGnn& model, const std::vector<Sample>& data);

}  // namespace hulk::gnn
