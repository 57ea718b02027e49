#include "tools/cli/gnn_backend.hpp"

#include "tools/cli/gnn_plugin_loader.hpp"

namespace hulk::cli {

MethodOptions cli_method_options() {
  MethodOptions options;
  options.learned = [](const Scenario& scenario, const std::string& model_path, const Placement* greedy) {
    return place_learned(*gnn_plugin().make_placer(model_path, gnn::SamplingOptions{}), scenario, greedy);
  };
  options.prepare_learned = [] { gnn_plugin(); };
  options.check_learned_model = [](const std::string& model_path) {
    gnn_plugin().make_placer(model_path, gnn::SamplingOptions{});  // loads (and so checks) the model file
  };
  return options;
}

}  // namespace hulk::cli
