// sim/core's atomic file writer and seed derivation: the one home of each.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"

namespace hulk {
namespace {

namespace fs = std::filesystem;

int entries_in(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    (void)e;
    ++n;
  }
  return n;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / (name + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(AtomicFile, ReplacesTheFileWithExactBytes) {
  const fs::path dir = fresh_dir("hulk_atomic_bytes_");
  const std::string bytes("a\0b\nc", 5);  // embedded NUL: binary-safe
  write_file_atomic((dir / "f").string(), "old");
  write_file_atomic((dir / "f").string(), bytes);
  EXPECT_EQ(read_all(dir / "f"), bytes);
  EXPECT_EQ(entries_in(dir), 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, StreamWriterThatThrowsKeepsTheOldFileAndLeavesNoTemporary) {
  const fs::path dir = fresh_dir("hulk_atomic_throw_");
  write_file_atomic((dir / "f").string(), "old");
  EXPECT_THROW(write_file_atomic((dir / "f").string(),
                                 [](std::ostream& out) {
                                   out << "half";
                                   throw std::runtime_error("writer failed");
                                 }),
               std::runtime_error);
  EXPECT_EQ(read_all(dir / "f"), "old");
  EXPECT_EQ(entries_in(dir), 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, RenameOntoAFolderIsInputErrorNamingThePath) {
  const fs::path dir = fresh_dir("hulk_atomic_rename_");
  fs::create_directories(dir / "target" / "inside");  // a non-empty folder cannot be replaced by a file
  const std::string path = (dir / "target").string();
  try {
    write_file_atomic(path, "x");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
  }
  EXPECT_EQ(entries_in(dir), 1);  // only the folder: no temporary left
  fs::remove_all(dir);
}

TEST(AtomicFile, ASymbolicLinkStaysALinkAndItsTargetGetsTheBytes) {
  const fs::path dir = fresh_dir("hulk_atomic_link_");
  fs::create_symlink("target.json", dir / "link.json");  // dangling first: the target is created, the link kept
  write_file_atomic((dir / "link.json").string(), "first");
  write_file_atomic((dir / "link.json").string(), "second");  // then an existing target, replaced
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir / "link.json")));
  EXPECT_EQ(read_all(dir / "target.json"), "second");
  EXPECT_EQ(entries_in(dir), 2);  // the link and its target, no temporary
  fs::remove_all(dir);
}

TEST(AtomicFile, ALoopOfSymbolicLinksIsRefusedNotReplaced) {
  // a -> b -> a: without the check, the rename replaces `a` by a plain file without a word.
  const fs::path dir = fresh_dir("hulk_atomic_loop_");
  fs::create_symlink("b", dir / "a");
  fs::create_symlink("a", dir / "b");
  EXPECT_THROW(write_file_atomic((dir / "a").string(), "bytes"), InputError);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir / "a")));
  EXPECT_EQ(entries_in(dir), 2);
  fs::remove_all(dir);
}

TEST(AtomicFile, AFifoIsWrittenIntoNotReplaced) {
  // A device (/dev/null, /dev/stdout's pipe) or a FIFO is not a file to replace: renaming over it would remove the
  // device entry (as root, /dev/null itself). A FIFO in a temporary folder stands for them all.
  const fs::path dir = fresh_dir("hulk_atomic_fifo_");
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t reader = ::fork();
  ASSERT_GE(reader, 0);
  if (reader == 0) {  // the child reads what arrives and exits 0 if it is the bytes written
    std::ifstream in(fifo, std::ios::binary);
    std::stringstream got;
    got << in.rdbuf();
    ::_exit(got.str() == "streamed" ? 0 : 1);
  }
  write_file_atomic(fifo.string(), "streamed");
  const bool still_a_fifo = fs::is_fifo(fs::symlink_status(fifo));
  if (!still_a_fifo) ::kill(reader, SIGKILL);  // replaced: no writer will ever open it, the reader would wait
  int status = 0;
  ASSERT_EQ(::waitpid(reader, &status, 0), reader);
  EXPECT_TRUE(still_a_fifo);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(entries_in(dir), 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, WriterKilledWhileWritingLeavesNothing) {
  // A Ctrl-C makes the program SIGKILL its simulating child, which may be writing a large comm.csv: the half-written
  // file must not stay behind. Needs unnamed files (O_TMPFILE) where the folder is, and /proc to name them; skipped
  // without (write_file_atomic then falls back to a named temporary, which a SIGKILL leaves).
  const fs::path dir = fresh_dir("hulk_atomic_killed_");
  const int probe = ::open(dir.c_str(), O_TMPFILE | O_WRONLY, 0600);
  if (probe < 0 || ::access("/proc/self/fd", X_OK) != 0) {
    if (probe >= 0) ::close(probe);
    GTEST_SKIP() << "no O_TMPFILE support in " << dir << " or no /proc/self/fd";
  }
  ::close(probe);
  write_file_atomic((dir / "f").string(), "old");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    write_file_atomic((dir / "f").string(), [](std::ostream& out) {
      out << std::string(1 << 20, 'x');
      out.flush();
      ::raise(SIGKILL);
    });
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(read_all(dir / "f"), "old");
  EXPECT_EQ(entries_in(dir), 1);
  fs::remove_all(dir);
}

TEST(InputErrorFormat, IsOneLineWhateverTheInputEchoed) {
  // A message quoting bad input (a NUL, a newline, an escape) stays one line: the CLI prints it as it is.
  static const char kEchoed[] = "got 'a\nb\rc\0d\x1b\te'";
  const InputError e("f.yaml", 3, "job.name", std::string(kEchoed, sizeof kEchoed - 1));
  EXPECT_EQ(std::string(e.what()), "f.yaml:3: job.name: got 'a\\nb\\rc\\x00d\\x1b e'");
}

TEST(InputErrorFormat, EscapesBytesThatAreNotUtf8AndKeepsUtf8) {
  // A Latin-1 name echoed from a CSV: its byte is escaped (the line stays UTF-8); UTF-8 names are kept as written,
  // and a sequence cut short is escaped byte by byte.
  const InputError e("t.csv", 2, "", "unknown region '\xe9u' near 'M\xc3\xbcnchen' and '\xe2\x82'");
  EXPECT_EQ(std::string(e.what()), "t.csv:2: unknown region '\\xe9u' near 'M\xc3\xbcnchen' and '\\xe2\\x82'");
  EXPECT_EQ(escape_control_chars("\xc3\xa9\xff\xc3"), "\xc3\xa9\\xff\\xc3");
}

TEST(Seeding, Fnv1a64MatchesPublishedVectors) {
  EXPECT_EQ(fnv1a64(""), 14695981039346656037ULL);    // offset basis
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);     // FNV reference test vectors
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(Seeding, SplitMix64MatchesReferenceOutputs) {
  // The first outputs of Vigna's splitmix64.c seeded with 0: stream_seed(0, k) is its k-th output.
  EXPECT_EQ(stream_seed(0, 1), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(stream_seed(0, 2), 0x6e789e6aa1b965f4ULL);
}

TEST(Seeding, ComponentSeedIsAnOddStreamOfTheNameHash) {
  EXPECT_EQ(component_seed(42, "search"), stream_seed(42, fnv1a64("search") | 1));
  EXPECT_NE(component_seed(42, "search"), component_seed(43, "search"));
}

}  // namespace
}  // namespace hulk
