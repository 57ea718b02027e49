#pragma once
/** @file atomic_file.hpp
 *  @brief The one atomic file writer: readers see either the old file or the complete new one, never half a file. */
#include <functional>
#include <iosfwd>
#include <string>

namespace hulk {

/** @brief Writes `text` to `path` atomically: creates the parent folder if needed, writes a temporary file in the
 *  same folder (so the final rename stays on one file system and is atomic), flushes and checks it, then renames
 *  it over `path`. On any failure the temporary file is removed and the previous `path` (if any) is untouched.
 *  A symbolic link is followed (its target replaced, the link kept); a path that is a device, FIFO or socket (e.g.
 *  /dev/stdout) is written into directly, never replaced; a folder is refused.
 *  @throws InputError naming `path` when the folder, the write or the rename fails. */
void write_file_atomic(const std::string& path, const std::string& text);

/** @brief Same, for writers that produce a stream (e.g. a torch archive): `write` fills the temporary file's
 *  binary stream. An exception thrown by `write` removes the temporary file and propagates unchanged.
 *  @throws InputError naming `path` when the folder, the write or the rename fails. */
void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace hulk
