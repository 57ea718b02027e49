#pragma once
// Shared by the fuzz targets (tests/fuzz): scratch files and the contract every input must meet.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/core/errors.hpp"

namespace hulk_fuzz {

/** Writes the bytes to NAME inside this process's scratch folder; returns the path. */
inline std::string scratch_file(const std::string& name, const std::uint8_t* data, std::size_t size) {
  static const std::string dir = std::filesystem::temp_directory_path().string() + "/hulk-fuzz-" +
                                 std::to_string(::getpid());
  const std::string path = dir + "/" + name;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), size);
  return path;
}

/** Runs f: returning or throwing InputError (bad input, one line) is the contract; any other exception aborts so
 *  that libFuzzer (or the replay driver) reports the input. */
template <typename F>
void expect_input_errors_only(F&& f) {
  try {
    f();
  } catch (const hulk::InputError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz: not an InputError: %s\n", e.what());
    std::abort();
  }
}

}  // namespace hulk_fuzz
