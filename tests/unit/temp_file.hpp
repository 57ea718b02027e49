#pragma once
// Test files written on the fly: the text in FOLDER/NAME under the test framework's temporary directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace hulk_test {

/** Writes `text` to TempDir()/folder/name (folder created) and returns the path. */
inline std::string write_temp_file(const std::string& folder, const std::string& name, const std::string& text) {
  const std::string dir = testing::TempDir() + "/" + folder;
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace hulk_test
