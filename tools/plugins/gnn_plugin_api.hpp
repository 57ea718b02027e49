#pragma once
/** @file gnn_plugin_api.hpp
 *  @brief What the GNN plugin (libhulk_gnn_plugin.so, built beside the `hulk` executable) gives the program.
 *
 *  Why a plugin: linking LibTorch into `hulk` cost every invocation about 0.7 s of start-up (its libraries' load and
 *  static registrations), `hulk validate` and each sweep shard alike, against 0.03 s without it. The program now
 *  loads torch only when a command needs the GNN (tools/cli/gnn_plugin_loader.hpp). */
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "gnn/sampled_decode.hpp"
#include "gnn/train_command.hpp"
#include "sim/place/placer.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/pipeline_memo.hpp"

namespace hulk::cli {

/** @brief Bumped whenever GnnPluginApi changes: a plugin of another version is refused. */
constexpr int kGnnPluginAbi = 6;

/** @brief The plugin's functions (C++ calls: plugin and program are built together, by one compiler). */
struct GnnPluginApi {
  int abi = kGnnPluginAbi;
  /** @brief The learned placer of a model file (gnn::GnnPlacer). @throws InputError for a bad model file. */
  std::unique_ptr<Placer> (*make_placer)(const std::string& model_path, const gnn::SamplingOptions& sampling);
  /** @brief `hulk gnn train` (gnn::train_from_dir). */
  gnn::TrainSummary (*train)(const gnn::TrainCommand& command,
                             const std::function<double(const Scenario&, const Placement&)>& evaluator,
                             std::ostream* progress);
  /** @brief Writes the model `hulk gnn train --epochs 0 --seed SEED` writes (fresh weights after torch::manual_seed, the
   *  default configuration), without a data set: the "untrained" ablation of gnn-families. */
  void (*save_untrained_model)(const std::string& path, std::uint64_t seed);
  /** @brief Gives the plugin's copy of the sim libraries the program's pipeline cache (PipelineMemo::share_process):
   *  without it the learned placer's evaluations filled a cache of their own, which a "timed cold" clear of the
   *  program's cache did not empty, and the annealing after the placer could not reuse. */
  void (*share_pipeline_memo)(PipelineMemo& memo);
  /** @brief Makes the plugin's copy of the evaluator count into the program's counter (share_evaluation_counter), so
   *  that the learned placer's estimates are counted with the program's (gnn-families' equal-budget row). */
  void (*share_evaluation_counter)(std::atomic<long long>& counter);
};

}  // namespace hulk::cli

/** @brief The plugin's one exported symbol. */
extern "C" const hulk::cli::GnnPluginApi* hulk_gnn_plugin_api();
