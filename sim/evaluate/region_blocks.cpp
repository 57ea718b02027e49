#include "sim/evaluate/region_blocks.hpp"

#include <algorithm>

namespace hulk {

void RegionBlocks::group(const RouteModel& net, const int* hosts, int n) {
  // Blocks numbered by first appearance through a table indexed by region id, then members placed by a counting
  // sort (stable: group order inside each block): O(n + regions) for groups spread over hundreds of regions.
  region_ids_.clear();
  block_of_.resize(n);
  for (int i = 0; i < n; ++i) {
    const int reg = net.region_of(hosts[i]);
    if (reg >= static_cast<int>(block_of_region_.size())) block_of_region_.resize(reg + 1, -1);
    int& b = block_of_region_[reg];
    if (b < 0) {
      b = static_cast<int>(region_ids_.size());
      region_ids_.push_back(reg);
    }
    block_of_[i] = b;
  }
  regions = static_cast<int>(region_ids_.size());
  count_.assign(regions + 1, 0);
  for (int i = 0; i < n; ++i) ++count_[block_of_[i] + 1];
  per_region = regions > 0 ? count_[1] : 0;
  bool equal = true;
  for (int b = 0; b < regions; ++b) {
    equal = equal && count_[b + 1] == per_region;
    count_[b + 1] += count_[b];  // count_[b]: first slot of block b
  }
  order.resize(n);
  for (int i = 0; i < n; ++i) order[count_[block_of_[i]]++] = i;
  for (int reg : region_ids_) block_of_region_[reg] = -1;
  if (!equal) per_region = 0;
}

}  // namespace hulk
