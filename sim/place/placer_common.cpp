#include "sim/place/placer_common.hpp"

#include <map>

namespace hulk {

Placement placement_from_hosts(const std::vector<int>& host_of_rank) {
  Placement p;
  std::map<int, int> next_slot;
  p.gpu_of_rank.reserve(host_of_rank.size());
  for (int h : host_of_rank) p.gpu_of_rank.push_back({h, next_slot[h]++});
  return p;
}

std::vector<int> hosts_of(const Placement& placement) {
  std::vector<int> out;
  out.reserve(placement.gpu_of_rank.size());
  for (const auto& g : placement.gpu_of_rank) out.push_back(g.host);
  return out;
}

}  // namespace hulk
