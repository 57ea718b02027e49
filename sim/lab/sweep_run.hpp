#pragma once
/** @file sweep_run.hpp
 *  @brief `hulk sweep`: a grid over any scenario keys, one CSV row per point and method. Rows of a point are appended
 *  (and flushed) together once the point is done, so an interrupted sweep loses at most the point in progress, and a
 *  rerun resumes after the last complete point. A manifest beside each CSV (sweep_manifest.hpp) records its inputs: a
 *  rerun with other inputs is refused unless restart. A shard i/n runs only the points with index % n == i, writing
 *  its own CSV and manifest (`sweep merge` joins them). The CLI parses the options (tools/cli/cmd_sweep.cpp). */
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sim/lab/compare_runner.hpp"
#include "sim/lab/sweep_grid.hpp"

namespace hulk {

/** @brief The grid, the methods and where the rows go. */
struct SweepOptions {
  std::string file;                  ///< the scenario YAML
  std::vector<SweepAxis> axes;
  std::vector<std::string> methods;
  MethodOptions options;
  int shard_index = 0, shard_count = 1;
  std::string out;                   ///< the output folder
  bool restart = false;              ///< discard this shard's rows and recompute
  std::string version;               ///< the program's version, into the manifest
};

/** @brief out/sweep.csv, or out/sweep.shard-i-of-n.csv for a shard of several. */
std::string sweep_csv_path(const SweepOptions& options);

/** @brief Runs the points of the shard not already in its CSV; `progress` gets a line when it starts and one per
 *  point (may be empty). Every point is loaded up front: a bad value fails before any work. @throws InputError for a
 *  CSV of other inputs (without restart); Interrupted with the points saved when cut short. */
void run_sweep(const SweepOptions& options, const std::function<void(const std::string&)>& progress);

/** @brief "greedy 0.03122 s, search failed": each method's SimGrid time per iteration at a point. */
std::string sweep_method_times(const CompareReport& report);

/** @brief "1 h 05 min", "12 min 30 s", "45 s": a duration to the precision a person plans with. */
std::string duration_text(double seconds);

}  // namespace hulk
