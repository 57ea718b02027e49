#include "sim/core/data_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>


namespace hulk {

namespace fs = std::filesystem;

DataRoot choose_data_root(const std::string& env, const std::string& exe, const std::string& source_tree) {
  if (!env.empty()) return {env, "from $HULK_DATA_DIR"};
  std::string share;
  if (!exe.empty()) {
    share = (fs::path(exe).parent_path().parent_path() / "share" / "hulk").string();
    std::error_code ec;
    if (fs::is_directory(fs::path(share) / "platforms", ec)) return {share, "the installed data beside " + exe};
  }
  // Every place looked at is named, so that a missing file's message says why the source tree was chosen.
  const std::string skipped = share.empty() ? "" : ", no " + share + "/platforms";
  return {source_tree, "the source tree this hulk was built from: no $HULK_DATA_DIR" + skipped};
}

DataRoot data_root() {
  const char* env = std::getenv("HULK_DATA_DIR");
  // The program's path is read once: it does not change while the program runs.
  static const std::string exe = [] {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : p.string();
  }();
  return choose_data_root(env == nullptr ? "" : env, exe, HULK_SOURCE_DIR);
}

std::string data_dir() { return data_root().dir; }

std::string data_path(const std::string& relative) { return data_dir() + "/" + relative; }

std::string data_file(const std::string& relative) {
  const DataRoot root = data_root();
  const std::string path = root.dir + "/" + relative;
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return path;
  throw MissingDataFile(path, 0, "", "hulk's data file " + relative + " is missing (looked in " + root.dir + ", " +
                                    root.origin + "; set HULK_DATA_DIR to a folder holding platforms/, models/ "
                                    "and scenarios/)");
}

}  // namespace hulk
