#pragma once
/** @file gnn_plugin_api.hpp
 *  @brief What the GNN plugin (libhulk_gnn_plugin.so, built beside the `hulk` executable) gives the program.
 *
 *  Why a plugin: linking LibTorch into `hulk` cost every invocation about 0.7 s of start-up (its libraries' load and
 *  static registrations), `hulk validate` and each sweep shard alike, against 0.03 s without it. The program now
 *  loads torch only when a command needs the GNN (tools/cli/gnn_plugin_loader.hpp).
 *
 *  The plugin holds no copy of sim/: its calls into it are bound to the program's functions when it is loaded
 *  (CMakeLists.txt, "tools"), so the program's process state (the pipeline memo, the interrupt flag, the evaluation
 *  counter) is the plugin's too, with nothing to hand over. Bound by name, a plugin of another build would call
 *  functions of other layouts: both carry a build identity (tools/plugins/build_id.cmake) and the loader refuses a
 *  plugin whose identity differs from the program's. */
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "gnn/sampled_decode.hpp"
#include "gnn/move_policy_command.hpp"
#include "gnn/move_train_command.hpp"
#include "gnn/train_command.hpp"
#include "sim/place/placer.hpp"

namespace hulk::cli {

/** @brief Bumped whenever GnnPluginApi changes: a plugin of another version is refused. */
constexpr int kGnnPluginAbi = 9;

/** @brief The plugin's functions (C++ calls: plugin and program are built together, by one compiler). */
struct GnnPluginApi {
  int abi = kGnnPluginAbi;
  /** @brief The learned placer of a model file (gnn::GnnPlacer). @throws InputError for a bad model file. */
  std::unique_ptr<Placer> (*make_placer)(const std::string& model_path, const gnn::SamplingOptions& sampling);
  /** @brief `hulk gnn train` (gnn::train_from_dir). */
  gnn::TrainSummary (*train)(const gnn::TrainCommand& command,
                             const std::function<double(const Scenario&, const Placement&)>& evaluator,
                             std::ostream* progress);
  /** @brief `hulk gnn train-moves` (gnn::train_moves_from_dir). */
  gnn::MoveTrainSummary (*train_moves)(const gnn::MoveTrainCommand& command, std::ostream* progress);
  /** @brief `hulk gnn move-policy` (gnn::report_move_policy). */
  gnn::MovePolicyReport (*move_policy)(const gnn::MovePolicyCommand& command, std::ostream* progress);
  /** @brief Writes fresh weights after torch::manual_seed(seed), the default configuration, of the placement GNN (as
   *  `hulk gnn train --epochs 0 --seed SEED`) and of the move scorer, without a data set: the "untrained" ablation of
   *  gnn-families. */
  void (*save_untrained_model)(const std::string& path, std::uint64_t seed);
};

}  // namespace hulk::cli

/** @brief The plugin's one exported symbol. */
extern "C" const hulk::cli::GnnPluginApi* hulk_gnn_plugin_api();
