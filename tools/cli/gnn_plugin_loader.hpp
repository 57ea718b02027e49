#pragma once
/** @file gnn_plugin.hpp
 *  @brief Loads the GNN plugin (tools/plugins/gnn_plugin_api.hpp) on first use. */
#include "tools/plugins/gnn_plugin_api.hpp"

namespace hulk::cli {

/** @brief The plugin's functions, loading libhulk_gnn_plugin.so from the executable's folder on the first call
 *  ($HULK_GNN_PLUGIN names another file). @throws std::runtime_error naming the file when it cannot be loaded or
 *  is of another version (an installation problem, not bad input). */
const GnnPluginApi& gnn_plugin();

}  // namespace hulk::cli
