#pragma once
/** @file out_check.hpp
 *  @brief The `--out` of every command is checked before any work: created (a folder, or a file's folder) and
 *  test-written, so that an unwritable path is one line naming it and exit code 2 at once, never an internal error
 *  after minutes of work. Folders created here and still empty when the command fails or is interrupted are
 *  removed again, as are the temporary files of children killed by an interrupt. */
#include <string>
#include <vector>

namespace hulk::cli {

/** @brief What a command's --out names. */
enum class OutKind { folder, file };

/** @brief Creates `path` (folder) or its parent folder (file) and checks that a file can be written there.
 *  Records the folders it created in `created` (outermost first).
 *  @throws InputError naming `option` (the command's --out, or bench's --csv) and the path. */
void prepare_out(const std::string& path, OutKind kind, std::vector<std::string>& created,
                 const std::string& option = "--out");

/** @brief Refuses a file --out that is one of the command's inputs or lies in an input folder (`inputs`: the values
 *  of its other options and arguments; those that name no existing file or folder are ignored), which the command
 *  would overwrite. @throws InputError naming `option`, the path and the input. */
void refuse_input_as_out(const std::string& path, OutKind kind, const std::vector<std::string>& inputs,
                         const std::string& option = "--out");

/** @brief After a failed or interrupted command: removes the temporary files ("NAME.tmp.PID") that the killed
 *  children `pids` left in the --out folder, then the folders of `created` that are empty (innermost first). */
void clean_out(const std::string& path, OutKind kind, const std::vector<int>& pids,
               const std::vector<std::string>& created);

}  // namespace hulk::cli
