#include "sim/core/input_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include "sim/core/errors.hpp"

namespace hulk {

std::string input_file_problem(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return "not found";
  if (S_ISDIR(st.st_mode)) return "is a folder";
  if (!S_ISREG(st.st_mode)) return "is not a regular file (a device or a pipe)";
  if (access(path.c_str(), R_OK) != 0) return "cannot be read";
  return "";
}

std::ifstream open_input_file(const std::string& path, const std::string& what, const std::string& expected,
                              std::ios::openmode mode) {
  std::string problem = input_file_problem(path);
  std::ifstream in;
  if (problem.empty()) {
    in.open(path, mode);
    if (!in) problem = "cannot be opened";
  }
  if (!problem.empty()) throw InputError(path, 0, "", what + " " + problem + "; expected " + expected);
  return in;
}

}  // namespace hulk
