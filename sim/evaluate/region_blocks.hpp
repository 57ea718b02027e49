#pragma once
/** @file region_blocks.hpp
 *  @brief A DP group's members region by region, as sim/engine/collectives.cpp's hierarchical all-reduce groups
 *  them (regions in order of first appearance, members in group order). Shared by the evaluator's hierarchical
 *  estimates: the per-stage phases, the all-stage fluid and the DP flows per link. */
#include <vector>

#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief The grouping of one DP group (reusable: group() keeps the buffers). */
struct RegionBlocks {
  std::vector<int> order;  ///< member indices, region by region (block b = order[b * per_region, (b + 1) * ...))
  int regions = 0;         ///< number of regions the members are in
  int per_region = 0;      ///< members in each region when every region has as many (balanced), else 0
  /** @brief True when every region holds the same number of members. */
  bool balanced() const { return per_region > 0; }
  /** @brief Groups members 0..n-1 whose hosts are hosts[0..n), in O(n + regions). */
  void group(const RouteModel& net, const int* hosts, int n);

 private:
  std::vector<int> region_ids_, block_of_;
  std::vector<int> block_of_region_;  ///< per region id: its block, -1 when not among the members (kept all -1)
  std::vector<int> count_;            ///< per block: members placed so far (scratch)
};

}  // namespace hulk
