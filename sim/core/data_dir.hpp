#pragma once
/** @file data_dir.hpp
 *  @brief The one resolver of hulk's bundled data (platforms/, models/, scenarios/, tools/scripts/plot.py): the same
 *  tree from the build folder and from an installed copy, never the working directory. */
#include <string>

#include "sim/core/errors.hpp"

namespace hulk {

/** @brief A bundled data file that is not where the data root says: the installation's problem, not the input's, so
 *  a reader that collects input errors (the scenario loader) stops at it instead of listing it once per use. Exit 2
 *  as any InputError. */
class MissingDataFile : public InputError {
 public:
  using InputError::InputError;
};

/** @brief The data root and how it was chosen. */
struct DataRoot {
  std::string dir;     ///< the folder holding platforms/, models/, scenarios/
  std::string origin;  ///< why this folder, for messages: "$HULK_DATA_DIR", "the installed data beside PROGRAM", ...
};

/** @brief The resolution rule, in order: `env` when not empty (an explicit choice, used even if it holds nothing);
 *  else PREFIX/share/hulk when `exe` is PREFIX/bin/NAME and that folder holds platforms/ (an installed program,
 *  wherever the prefix was copied to); else `source_tree` (a program run from its build folder).
 *  @param env the value of $HULK_DATA_DIR ("" when unset), @param exe the running program's path ("" if unknown),
 *  @param source_tree the checkout the program was built from. */
DataRoot choose_data_root(const std::string& env, const std::string& exe, const std::string& source_tree);

/** @brief choose_data_root() for this process: $HULK_DATA_DIR, /proc/self/exe, and the source tree compiled into
 *  data_dir.cpp (the only compiled-in path of the program). */
DataRoot data_root();

/** @brief data_root().dir. */
std::string data_dir();

/** @brief data_dir() + "/" + relative, whether or not it exists (for defaults shown in help texts). */
std::string data_path(const std::string& relative);

/** @brief data_path(relative) of a file that must exist. @throws MissingDataFile (one line: the file, the root it was
 *  looked for in and why that root, and HULK_DATA_DIR as the remedy) when it does not. */
std::string data_file(const std::string& relative);

}  // namespace hulk
