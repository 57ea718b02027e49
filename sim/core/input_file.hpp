#pragma once
/** @file input_file.hpp
 *  @brief Opening a file the user named: a missing path, a folder or an unreadable file is an InputError naming
 *  the path, never a stream error from deep inside a reader (a folder opens as a stream on Linux and fails only at
 *  the first read, with "basic_filebuf::underflow ... Is a directory"). */
#include <fstream>
#include <string>

namespace hulk {

/** @brief Why `path` is not a readable regular file ("not found", "is a folder", "is not a regular file (a device
 *  or a pipe)", "cannot be read"), or "" if it is one. */
std::string input_file_problem(const std::string& path);

/** @brief Opens `path` for reading. @param what names the file in the error ("placement file").
 *  @throws InputError(path, 0, "", "<what> <problem>; expected <expected>") when input_file_problem says why not. */
std::ifstream open_input_file(const std::string& path, const std::string& what, const std::string& expected,
                              std::ios::openmode mode = std::ios::in);

}  // namespace hulk
