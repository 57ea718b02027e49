#pragma once
/** @file sweep_grid.hpp
 *  @brief `sweep`'s grid and CSV: the swept keys and values, the scenario overrides of a grid point, one CSV row per
 *  point and method (an absent value is an empty field, never 0), resuming after the last complete point, the
 *  checked append, and the merge of shard files. The command (tools/cli/cmd_sweep.cpp) only parses and prints. */
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "sim/lab/compare_runner.hpp"
#include "sim/scenario/scenario.hpp"

namespace hulk {

/** @brief One swept key and its values, in the order given. */
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

/** @brief Parses --set KEY=V1,V2,... texts. Values are split on the commas outside {} and [], so a YAML flow map or
 *  list ({bandwidth: 25Gbps, latency: 10us}) is one value. @throws InputError naming --set. */
std::vector<SweepAxis> parse_sweep_axes(const std::vector<std::string>& sets);

/** @brief Number of grid points (product of the value counts). */
std::size_t sweep_point_count(const std::vector<SweepAxis>& axes);

/** @brief The scenario overrides of grid point `point` (first axis varies slowest). */
std::vector<Override> sweep_point_overrides(const std::vector<SweepAxis>& axes, std::size_t point);

/** @brief "key=value key=value" of a point, for progress lines. */
std::string sweep_point_label(const std::vector<SweepAxis>& axes, std::size_t point);

/** @brief The CSV header: point, the value columns (sweep_columns.hpp: one per key with plain values, one per leaf
 *  of a key's map or list values), then sweep_result_columns(): method, ok, iteration_time_s,
 *  speedup_vs_round_robin, speedup_vs_greedy, gap_to_lower_bound, lower_bound_s, method_wall_s,
 *  compute_time_share, mfu, error (docs/outputs.md); with layout_column (a scenario whose job is partly `auto`,
 *  plan_resolve.hpp) a last column, layout: the layout the plan chose at the point. */
std::string sweep_csv_header(const std::vector<SweepAxis>& axes, bool layout_column = false);

/** @brief One line per requested method of a point's report (each ending in a newline); with `layout`, the layout
 *  column's value. */
std::string sweep_csv_rows(const std::vector<SweepAxis>& axes, std::size_t point, const CompareReport& report,
                           const std::string* layout = nullptr);

/** @brief Reads the points already complete in an existing CSV and rewrites it with only those points' rows, so that
 *  appending resumes cleanly. A point is complete when a row for every one of `methods` carries the point's index and
 *  its values in the current grid (rows are keyed by grid point and method, never counted). A file in the earlier
 *  layout (legacy_sweep_csv_header: one quoted column per key, compute_utilisation) is rewritten in the current one.
 *  Empty set if the file does not exist. @throws InputError if its header is neither. */
std::set<std::size_t> completed_sweep_points(const std::string& path, const std::vector<SweepAxis>& axes,
                                             const std::vector<std::string>& methods, bool layout_column = false);

/** @brief Appends a point's rows. @throws InputError naming the file if the write fails (disk full, not
 *  writable): a lost point must stop the sweep, not vanish. */
void append_sweep_rows(const std::string& path, const std::string& rows);

/** @brief What sweep-merge joined. */
struct SweepMerge {
  std::size_t shards = 0, points = 0;  ///< shard files joined, distinct points in them
  std::size_t expected = 0;            ///< n of the shards' i-of-n names
  std::vector<std::size_t> missing;    ///< indices of the shard files absent (only with allow_missing)
  std::size_t grid_points = 0;         ///< points of the sweep's grid (0 without a manifest)
};

/** @brief Joins DIR/sweep.shard-I-of-N.csv into DIR/sweep.csv, rows ordered by point, and their common manifest into
 *  DIR/sweep.manifest.json. @throws InputError for a missing folder, no shard file, shards of different N, missing
 *  shards (unless allow_missing; the message names them), shards with other manifests or headers, a row with
 *  another field count than the header, and (with the manifest) a row of another shard or method, a row twice, a
 *  shard missing some of its points (unless allow_missing), or a DIR/sweep.csv of another sweep. */
SweepMerge merge_sweep_shards(const std::string& dir, bool allow_missing = false);

}  // namespace hulk
