#pragma once
/** @file sweep_columns.hpp
 *  @brief The columns of sweep.csv that hold a point's swept values: one per swept key whose values are plain, and
 *  one per leaf of a key's YAML map or list values (`regions.x.host_link={bandwidth: 25Gbps, latency: 10us}` gives
 *  `regions.x.host_link.bandwidth` and `regions.x.host_link.latency`), so that no field holds a quoted map and a
 *  plot or a spreadsheet can use each leaf as a number. Also the rows of the CSV layout that had one column per key
 *  and a compute_utilisation column, which a resumed sweep converts. */
#include <cstddef>
#include <string>
#include <vector>

#include "sim/lab/sweep_grid.hpp"

namespace hulk {

/** @brief One value column: the swept key's (`leaf` empty: the value's text as given) or a leaf of its map or list
 *  values (`leaf`: the path below the key, its parts joined by '.', list entries by index). */
struct SweepColumn {
  std::string name;  ///< the CSV header name: key, or key.leaf
  std::size_t axis = 0;
  std::vector<std::string> leaf;
};

/** @brief The value columns of a grid, axis by axis: a key with a plain value (a scalar, or text that is not YAML)
 *  has its own column; each leaf of its map or list values has one, in the order the values name them. */
std::vector<SweepColumn> sweep_value_columns(const std::vector<SweepAxis>& axes);

/** @brief A point's fields in those columns: the plain value's text, or the leaf's scalar; "" where the point's
 *  value has no such leaf (or is a map where the column is the plain value). */
std::vector<std::string> sweep_point_fields(const std::vector<SweepAxis>& axes,
                                            const std::vector<SweepColumn>& columns, std::size_t point);

/** @brief The columns after the values, in order: method, ok, iteration_time_s, speedup_vs_round_robin,
 *  speedup_vs_greedy, gap_to_lower_bound, lower_bound_s, method_wall_s, compute_time_share, mfu, error. */
const std::vector<std::string>& sweep_result_columns();

/** @brief The header of the earlier layout: point, one column per key (its values quoted as given), method, ok,
 *  iteration_time_s, speedup_vs_round_robin, speedup_vs_greedy, gap_to_lower_bound, lower_bound_s,
 *  method_wall_s, compute_utilisation, error. */
std::string legacy_sweep_csv_header(const std::vector<SweepAxis>& axes);

/** @brief One row of the earlier layout in the current one, or "" if it is no row of this grid (another point
 *  index, other values, another field count). Its compute_utilisation is the compute_time_share (the same number);
 *  its mfu, which it lacks, is empty; its speedup_vs_round_robin is emptied when round-robin is not among
 *  `methods` (that layout always filled it; the current one only when round-robin is a method). */
std::string convert_legacy_sweep_row(const std::vector<SweepAxis>& axes, const std::vector<std::string>& fields,
                                     const std::vector<std::string>& methods);

}  // namespace hulk
