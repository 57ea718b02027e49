#include "tools/cli/out_check.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/core/errors.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& why) {
  throw InputError("", 0, option, "cannot write to '" + path + "': " + why);
}

fs::path folder_of(const std::string& path, OutKind kind) {
  if (kind == OutKind::folder) return fs::path(path);
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

}  // namespace

void prepare_out(const std::string& path, OutKind kind, std::vector<std::string>& created,
                 const std::string& option) {
  // fs::path("") has no file name either: without this, '' was refused as a path that "ends with '/'".
  if (path.empty())
    throw InputError("", 0, option, std::string("an empty path was given (expected a ") +
                                         (kind == OutKind::file ? "file" : "folder") + " path)");
  std::error_code ec;
  if (kind == OutKind::file && fs::is_directory(path, ec))
    refuse(option, path, "it is a folder, a file name is expected");
  if (kind == OutKind::file && !fs::path(path).has_filename())  // "runs/new/": checked now, not after the work
    refuse(option, path, "it ends with '/', a file name is expected");
  const fs::path dir = folder_of(path, kind);
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) refuse(option, path, dir.string() + " is not a folder");
  // Remember which folders do not exist yet, to remove them again if the command fails before writing.
  std::vector<std::string> missing;
  for (fs::path p = dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.insert(missing.begin(), p.string());
    if (p == p.parent_path()) break;
  }
  fs::create_directories(dir, ec);
  if (ec) refuse(option, path, ec.message());
  created.insert(created.end(), missing.begin(), missing.end());
  const fs::path probe = dir / (".hulk-write-test." + std::to_string(::getpid()));
  errno = 0;
  {
    std::ofstream out(probe);
    out << "x";
    out.close();
    if (!out) {
      const std::string why = errno ? std::strerror(errno) : "not writable";
      fs::remove(probe, ec);
      refuse(option, path, why);
    }
  }
  fs::remove(probe, ec);
}

void refuse_input_as_out(const std::string& path, OutKind kind, const std::vector<std::string>& inputs,
                         const std::string& option) {
  if (kind != OutKind::file) return;
  std::error_code ec;
  const fs::path out = fs::weakly_canonical(path, ec);
  if (ec) return;
  for (const std::string& input : inputs) {
    if (input.empty() || !fs::exists(input, ec)) continue;
    const fs::path in = fs::weakly_canonical(input, ec);
    if (ec) continue;
    if (in == out) refuse(option, path, "it is an input of the command ('" + input + "'), which it would overwrite");
    if (fs::is_directory(in, ec)) {
      const auto rel = out.lexically_relative(in);
      if (!rel.empty() && *rel.begin() != "..")
        refuse(option, path, "it is inside the input folder '" + input + "', whose files it could overwrite");
    }
  }
}

void clean_out(const std::string& path, OutKind kind, const std::vector<int>& pids,
               const std::vector<std::string>& created) {
  std::error_code ec;
  const fs::path dir = folder_of(path, kind);
  if (!pids.empty() && fs::is_directory(dir, ec)) {
    std::vector<fs::path> stale;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const std::string name = it->path().filename().string();
      for (int pid : pids) {
        const std::string tail = ".tmp." + std::to_string(pid);
        if (name.size() > tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0)
          stale.push_back(it->path());
      }
    }
    for (const auto& p : stale) fs::remove(p, ec);
  }
  for (auto it = created.rbegin(); it != created.rend(); ++it)
    if (fs::is_directory(*it, ec) && fs::is_empty(*it, ec)) fs::remove(*it, ec);
}

}  // namespace hulk::cli
