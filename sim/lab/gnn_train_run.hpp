#pragma once
/** @file gnn_train_run.hpp
 *  @brief `hulk gnn train` around the training itself (which is torch's, in the GNN plugin): the data folders
 *  checked, the analytic evaluator that judges self-imitation targets and the validation gap (SimGrid per epoch would
 *  need forks after torch started), and what an interrupted training kept. */
#include <functional>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The evaluator handed to the training: a placement's estimated seconds per iteration. */
using PlacementTimer = std::function<double(const Scenario&, const Placement&)>;

/** @brief The training's folders and the training itself. */
struct GnnTrainOptions {
  std::vector<std::string> data_dirs;  ///< --data, each once
  std::string model_out;               ///< --out (its checkpoint is model_out + ".ckpt")
  /** @brief Trains with the given evaluator; returns true if the interrupt stopped it. */
  std::function<bool(const PlacementTimer&)> train;
};

/** @brief Checks the folders and trains. @throws InputError for a missing --data/--out or a folder given twice;
 *  Interrupted naming what is on disk when the training was interrupted. */
void run_gnn_train(const GnnTrainOptions& options);

}  // namespace hulk
