#include "tools/gnn_backend.hpp"

#include "gnn/gnn_placer.hpp"

namespace hulk::cli {

MethodOptions cli_method_options() {
  MethodOptions options;
  options.learned = [](const Scenario& scenario, const std::string& model_path) {
    return gnn::GnnPlacer(model_path).place(scenario);
  };
  return options;
}

}  // namespace hulk::cli
