#pragma once
/** @file train_command.hpp
 *  @brief Torch-free entry point of `hulk gnn train` (the CLI must not include torch headers). */
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk::gnn {

/** @brief What a training run did. */
struct TrainSummary {
  int train_samples = 0;
  int val_samples = 0;
  int skipped_samples = 0;
  int synthetic_samples = 0;
  int epochs_run = 0;
  bool interrupted = false;
};

/** @brief The arguments of `hulk gnn train`. */
struct TrainCommand {
  std::vector<std::string> data_dirs;  ///< data sets, loaded in order
  bool allow_partial = false;          ///< use the samples present (generation still running or stopped)
  std::string model_out;               ///< model file; checkpoint model_out + ".ckpt" (resumed)
  int epochs = 40;
  std::uint64_t seed = 1;
  /** @brief Extra scenarios sampled in memory (scenario_sampler, seeds derived from `seed`) whose label is the
   *  greedy reference: no search, no SimGrid, so they are cheap; with self-imitation they teach the model to
   *  reproduce its own best sampled decodes where those beat the reference by the evaluator. */
  int synthetic = 0;
  int synthetic_max_gpus = 256;        ///< size cap of the synthetic platforms
  /** @brief > 1: the policy-gradient term (gnn/reinforce.hpp) over this many sampled decodes per sample and step
   *  is added to the imitation loss; 0: imitation only. */
  int reinforce = 0;
  double reinforce_weight = 10.0;      ///< its scale
  std::string init;                    ///< start from this model file (fine-tuning); "" = seeded fresh weights
  /** @brief Placements the sampling decoder tries per validation sample for the validation gap, which selects the
   *  written epoch: 1 = the argmax decode alone, the model's own answer (`gnn families`' model-only row), so the
   *  epoch whose weights place best without any evaluated step is kept. */
  int validation_candidates = 32;
  /** @brief The caller's interrupt flag (the CLI's signal handler): asked while the data set loads and the synthetic
   *  scenarios are made, and before each epoch. Empty: only the signals caught during training. */
  std::function<bool()> interrupted;
};

/** @brief Loads the data sets, adds the synthetic samples and trains. evaluator judges self-imitation targets
 *  and gives the validation gap. @throws InputError for a missing/bad data set or bad options. */
TrainSummary train_from_dir(const TrainCommand& command,
                            const std::function<double(const Scenario&, const Placement&)>& evaluator,
                            std::ostream* progress);

}  // namespace hulk::gnn
