#include "sim/core/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "sim/core/errors.hpp"

namespace hulk {

namespace {

// Removes the temporary file unless released: every early exit (error or exception) leaves no half file behind.
class TempFile {
 public:
  explicit TempFile(std::string path) : path_(std::move(path)) {}
  ~TempFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }
  void release() { path_.clear(); }

 private:
  std::string path_;
};

void create_parent_folder(const std::string& path) {
  const std::filesystem::path target(path);
  if (!target.has_parent_path()) return;
  std::error_code ec;
  std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) throw InputError(path, 0, "", "cannot create the folder: " + ec.message());
}

}  // namespace

void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write) {
  create_parent_folder(path);
  // Same folder as the target so rename() is atomic (same file system); the pid keeps two processes writing the
  // same path from sharing a temporary file.
  TempFile tmp(path + ".tmp." + std::to_string(::getpid()));
  {
    std::ofstream out(tmp.path(), std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, 0, "", std::string("cannot write the file: ") + std::strerror(errno));
    write(out);
    out.flush();
    out.close();
    if (!out) throw InputError(path, 0, "", "writing the file failed");
  }
  if (std::rename(tmp.path().c_str(), path.c_str()) != 0)
    throw InputError(path, 0, "", std::string("cannot rename the temporary file into place: ") + std::strerror(errno));
  tmp.release();
}

void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, [&text](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

}  // namespace hulk
