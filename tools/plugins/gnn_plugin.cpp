// The GNN plugin: the only part of the program that links LibTorch (see tools/plugins/gnn_plugin_api.hpp).
#include "gnn/blas_threads.hpp"
#include "gnn/gnn_placer.hpp"
#include "gnn/huge_page_tensors.hpp"
#include "gnn/model_file.hpp"
#include "tools/plugins/gnn_plugin_api.hpp"

// Generated in the build folder (tools/plugins/build_id.cmake), hence the angle brackets.
#include <hulk/build_id.hpp>

namespace {

std::unique_ptr<hulk::Placer> make_placer(const std::string& model_path, const hulk::gnn::SamplingOptions& sampling) {
  return std::make_unique<hulk::gnn::GnnPlacer>(model_path, sampling);
}

void save_untrained_model(const std::string& path, std::uint64_t seed) {
  torch::manual_seed(seed);  // as gnn::train_model before it builds a fresh model
  hulk::gnn::PlacementGnn model{hulk::gnn::ModelConfig{}};
  hulk::gnn::MoveScorer moves{hulk::gnn::MoveModelConfig{}};
  hulk::gnn::save_model(model, path, moves);
}

const hulk::cli::GnnPluginApi kApi{hulk::cli::kGnnPluginAbi, &make_placer, &hulk::gnn::train_from_dir,
                                   &hulk::gnn::train_moves_from_dir, &hulk::gnn::report_move_policy,
                                   &save_untrained_model};

}  // namespace

/** @brief This build's identity, read from the file by the program's loader before it loads the plugin
 *  (tools/cli/gnn_plugin_loader.cpp): kept in the file, found by its prefix. */
extern "C" __attribute__((visibility("default"), used)) const char hulk_gnn_plugin_build_id[] =
    "hulk-build-id:" HULK_BUILD_ID;

extern "C" __attribute__((visibility("default"))) const hulk::cli::GnnPluginApi* hulk_gnn_plugin_api() {
  hulk::gnn::use_huge_page_tensors();  // before any tensor: placement, training and the untrained model alike
  hulk::gnn::use_one_blas_thread();
  return &kApi;
}
