#pragma once
/** @file data_dir.hpp
 *  @brief Where hulk's bundled data is (platforms/, models/, scenarios/, tools/scripts/plot.py): the same tree from the
 *  build folder and from an installed copy, never the working directory. */
#include <string>

namespace hulk {

/** @brief The root of hulk's bundled data: $HULK_DATA_DIR if set; else, for an installed program
 *  (PREFIX/bin/hulk), PREFIX/share/hulk when it holds platforms/; else the source tree the program was built from.
 *  Relative paths below it: "platforms/gpus.yaml", "models/hulk-gnn.pt", "scenarios/paper". */
std::string data_dir();

/** @brief data_dir() + "/" + relative. */
std::string data_path(const std::string& relative);

}  // namespace hulk
