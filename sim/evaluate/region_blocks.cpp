#include "sim/evaluate/region_blocks.hpp"

#include <algorithm>

namespace hulk {

void RegionBlocks::group(const RouteModel& net, const int* hosts, int n) {
  region_ids_.clear();
  block_of_.resize(n);
  for (int i = 0; i < n; ++i) {
    const int reg = net.region_of(hosts[i]);
    auto it = std::find(region_ids_.begin(), region_ids_.end(), reg);
    if (it == region_ids_.end()) it = region_ids_.insert(region_ids_.end(), reg);
    block_of_[i] = static_cast<int>(it - region_ids_.begin());
  }
  regions = static_cast<int>(region_ids_.size());
  order.clear();
  per_region = 0;
  bool equal = true;
  for (int b = 0; b < regions; ++b) {
    const size_t before = order.size();
    for (int i = 0; i < n; ++i)
      if (block_of_[i] == b) order.push_back(i);
    const int size = static_cast<int>(order.size() - before);
    if (b == 0) per_region = size;
    equal = equal && size == per_region;
  }
  if (!equal) per_region = 0;
}

}  // namespace hulk
