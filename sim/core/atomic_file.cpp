#include "sim/core/atomic_file.hpp"

#include <fcntl.h>
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

/** Writes through `write` into the already open temporary file at `open_path`; InputError naming `path` on failure. */
void fill(const std::string& open_path, const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream out(open_path, std::ios::binary | std::ios::trunc);
  if (!out) throw InputError(path, 0, "", std::string("cannot write the file: ") + std::strerror(errno));
  write(out);
  errno = 0;
  out.flush();
  out.close();
  if (!out)
    throw OutputError(path, std::string("writing the file failed: ") +
                                (errno ? std::strerror(errno) : "the system gave no reason (a full disk?)"));
}

void rename_into_place(const std::string& from, const std::string& path) {
  if (std::rename(from.c_str(), path.c_str()) != 0)
    throw InputError(path, 0, "", std::string("cannot rename the temporary file into place: ") + std::strerror(errno));
}

/** The file is written unnamed (O_TMPFILE) in the target's folder and named only once complete: a process killed
 *  while writing (a Ctrl-C makes the parent SIGKILL its simulating child, which may be writing a large comm.csv)
 *  leaves nothing. False, before anything is written, if the file system has no unnamed files or /proc is missing
 *  (then the caller writes a named temporary: `write` may run only once, e.g. when it drains a recorder). */
bool write_unnamed(const std::string& path, const std::string& tmp_name,
                   const std::function<void(std::ostream&)>& write) {
  // The unnamed file is reopened and named through /proc/self/fd: without /proc (some sandboxes), use a named one.
  if (::access("/proc/self/fd", X_OK) != 0) return false;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const int fd = ::open(parent.empty() ? "." : parent.c_str(), O_TMPFILE | O_WRONLY, 0666);
  if (fd < 0) return false;
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } close_fd{fd};
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  fill(self, path, write);
  // Named next to the target, then renamed over it (rename replaces atomically; linkat would not).
  std::remove(tmp_name.c_str());  // a leftover of a process that had this pid
  if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp_name.c_str(), AT_SYMLINK_FOLLOW) != 0)
    throw InputError(path, 0, "", std::string("cannot name the written file: ") + std::strerror(errno));
  TempFile named(tmp_name);
  rename_into_place(tmp_name, path);
  named.release();
  return true;
}

/** The file a write to `path` must replace: `path`, or for a symbolic link the file it finally names (so the link
 *  stays a link, even when its target does not exist yet). Empty when `path` is, or leads to, something that is not
 *  a regular file and cannot be replaced (a device such as /dev/null, a FIFO, a pipe behind /dev/stdout, a socket):
 *  the bytes are then written into it. A folder is refused. */
std::string file_to_replace(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows links
  if (fs::exists(st)) {
    if (fs::is_directory(st)) throw InputError(path, 0, "", "is a folder; expected a file name");
    if (!fs::is_regular_file(st)) return "";
    if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
    const fs::path target = fs::canonical(path, ec);
    if (ec) throw InputError(path, 0, "", "cannot follow the symbolic link: " + ec.message());
    return target.string();
  }
  fs::path link = path;  // a dangling link (chain): the file its last link names
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(link, ec)); ++hops) {
    const fs::path next = fs::read_symlink(link, ec);
    if (ec) throw InputError(path, 0, "", "cannot follow the symbolic link: " + ec.message());
    link = next.is_absolute() ? next : link.parent_path() / next;
  }
  // Still a link after 40 hops: a loop (a -> b -> a), which the rename would have replaced by a plain file.
  if (fs::is_symlink(fs::symlink_status(link, ec)))
    throw InputError(path, 0, "", "cannot follow the symbolic link: too many levels of symbolic links (a loop?)");
  return link.string();
}

}  // namespace

void write_file_atomic(const std::string& requested, const std::function<void(std::ostream&)>& write) {
  const std::string path = file_to_replace(requested);
  if (path.empty()) {  // a stream, not a file that could be replaced: no temporary, no rename
    fill(requested, requested, write);
    return;
  }
  create_parent_folder(path);
  // Same folder as the target so rename() is atomic (same file system); the pid keeps two processes writing the
  // same path from sharing a temporary file.
  const std::string tmp_name = path + ".tmp." + std::to_string(::getpid());
  if (write_unnamed(path, tmp_name, write)) return;
  TempFile tmp(tmp_name);
  fill(tmp.path(), path, write);
  rename_into_place(tmp.path(), path);
  tmp.release();
}

void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, [&text](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

}  // namespace hulk
