#include "tools/gnn_plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace hulk::cli {
namespace {

std::string plugin_path() {
  if (const char* env = std::getenv("HULK_GNN_PLUGIN"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ((ec ? std::filesystem::path(".") : exe.parent_path()) / "libhulk_gnn_plugin.so").string();
}

const GnnPluginApi& load() {
  const std::string path = plugin_path();
  // RTLD_LOCAL: the plugin keeps its own copy of the sim libraries it was linked with, and torch's symbols stay
  // out of the program's namespace.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error("cannot load the GNN plugin " + path + ": " + ::dlerror());
  using Entry = const GnnPluginApi* (*)();
  const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "hulk_gnn_plugin_api"));
  if (!entry) throw std::runtime_error("the GNN plugin " + path + " has no hulk_gnn_plugin_api");
  const GnnPluginApi* api = entry();
  if (!api || api->abi != kGnnPluginAbi)
    throw std::runtime_error("the GNN plugin " + path + " is of another version than this hulk (rebuild both)");
  return *api;  // never unloaded: torch's static state lives until exit
}

}  // namespace

const GnnPluginApi& gnn_plugin() {
  static const GnnPluginApi& api = load();
  return api;
}

}  // namespace hulk::cli
