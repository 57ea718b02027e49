#include "tools/cli/gnn_plugin_loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "sim/core/errors.hpp"

// Generated in the build folder (tools/plugins/build_id.cmake), hence the angle brackets.
#include <hulk/build_id.hpp>

namespace hulk::cli {
namespace {

std::string plugin_path() {
  if (const char* env = std::getenv("HULK_GNN_PLUGIN"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ((ec ? std::filesystem::path(".") : exe.parent_path()) / "libhulk_gnn_plugin.so").string();
}

// Inference runs on small tensors, placement after placement. perf of a scratch loop of inferences on a 47-host
// paper graph showed most of its time in the kernel: OpenBLAS's worker threads yielding (sched_yield) and page faults.
// The faults are the plugin's business (gnn/huge_page_tensors.hpp); glibc's mallopt, once called here, does not reach
// this program's allocator (jemalloc, which keeps freed pages for reuse on its own). A user's OPENBLAS_NUM_THREADS is
// kept.
void tune_process_for_inference() {
  // Read by OpenBLAS when it is loaded (with the plugin): one thread, so its gemms on matrices of a few thousand
  // rows neither hand work to spinning workers nor take a core from the simulations running beside them.
  ::setenv("OPENBLAS_NUM_THREADS", "1", /*overwrite=*/0);
}

/** The build id a plugin file carries (tools/plugins/gnn_plugin.cpp's hulk_gnn_plugin_build_id), "" if it holds
 *  none; nullopt if the file cannot be read (dlopen then says why). Read from the bytes, not through dlsym: a
 *  plugin of another build may not even load (a function it calls is gone), and should be named as such. */
std::optional<std::string> plugin_build_id(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::string marker = std::string("hulk-build-id") + ":";  // split: this program's own bytes hold no marker
  const std::size_t at = bytes.find(marker);
  if (at == std::string::npos) return std::string();
  const std::size_t from = at + marker.size();
  return bytes.substr(from, bytes.find('\0', from) - from);
}

/** Refuses a plugin of another build (exit 2, naming the file and both ids). */
void check_build_id(const std::string& path) {
  const std::optional<std::string> id = plugin_build_id(path);
  if (!id || *id == HULK_BUILD_ID) return;
  throw InputError(path, 0, "",
                   "the GNN plugin is of another build than this hulk (plugin build " + (id->empty() ? "none" : *id) +
                       ", hulk build " HULK_BUILD_ID "): its calls into the program would bind to functions of "
                       "other layouts; use the plugin built with this hulk (beside it, or HULK_GNN_PLUGIN)");
}

const GnnPluginApi& load() {
  const std::string path = plugin_path();
  check_build_id(path);
  tune_process_for_inference();
  // RTLD_LOCAL: torch's symbols stay out of the program's namespace. The plugin's calls into sim/ bind to the
  // program's exported functions (one copy of the libraries and of their state).
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
