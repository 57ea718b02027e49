#include "sim/core/data_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace hulk {

namespace {

/** PREFIX/share/hulk of the running program (PREFIX/bin/hulk), if it holds platforms/; "" otherwise. */
std::string installed_data_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path share = exe.parent_path().parent_path() / "share" / "hulk";
  return fs::is_directory(share / "platforms", ec) ? share.string() : "";
}

}  // namespace

std::string data_dir() {
  if (const char* env = std::getenv("HULK_DATA_DIR"); env != nullptr && *env != '\0') return env;
  static const std::string installed = installed_data_dir();
  return installed.empty() ? std::string(HULK_SOURCE_DIR) : installed;
}

std::string data_path(const std::string& relative) { return data_dir() + "/" + relative; }

}  // namespace hulk
