#pragma once
// Test files written on the fly: the text in FOLDER/NAME under the test framework's temporary directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace hulk_test {

/** Writes `text` to TempDir()/hulk-PID/folder/name (folders created) and returns the path. The process id keeps
 *  tests that ctest runs side by side (one process each) from writing and reading the same file at once: one read
 *  another's half-written ov.yaml as an empty scenario. */
inline std::string write_temp_file(const std::string& folder, const std::string& name, const std::string& text) {
  const std::string dir = testing::TempDir() + "/hulk-" + std::to_string(::getpid()) + "/" + folder;
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace hulk_test
