#pragma once
/** @file train_command.hpp
 *  @brief Torch-free entry point of `hulk train` (the CLI must not include torch headers). */
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/spec.hpp"

namespace hulk::gnn {

/** @brief What a training run did. */
struct TrainSummary {
  int train_samples = 0;
  int val_samples = 0;
  int skipped_samples = 0;
  int epochs_run = 0;
  bool interrupted = false;
};

/** @brief Loads the data sets in data_dirs, in order (allow_partial: only the samples present), and trains a model into
 *  model_out (checkpoint model_out + ".ckpt"; resumes). evaluator gives the validation gap.
 *  @throws InputError for a missing/bad data set. */
TrainSummary train_from_dir(const std::vector<std::string>& data_dirs, bool allow_partial, const std::string& model_out, int epochs,
                            std::uint64_t seed, const std::function<double(const Scenario&, const Placement&)>& evaluator,
                            std::ostream* progress);

}  // namespace hulk::gnn
