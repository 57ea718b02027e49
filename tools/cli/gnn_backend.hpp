#pragma once
/** @file gnn_backend.hpp
 *  @brief The program's wiring of gnn/ into the method registry (sim/methods may not depend on gnn/). */
#include "sim/methods/method_registry.hpp"

namespace hulk::cli {

/** @brief MethodOptions with the GNN as the learned placer (defaults otherwise). */
MethodOptions cli_method_options();

}  // namespace hulk::cli
