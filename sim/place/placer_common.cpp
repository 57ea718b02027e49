#include "sim/place/placer_common.hpp"

#include <algorithm>
#include <map>

#include "sim/evaluate/evaluator.hpp"

namespace hulk {

Placement placement_from_hosts(const std::vector<int>& host_of_rank) {
  Placement p;
  std::map<int, int> next_slot;
  p.gpu_of_rank.reserve(host_of_rank.size());
  for (int h : host_of_rank) p.gpu_of_rank.push_back({h, next_slot[h]++});
  return p;
}

void sort_hosts(std::vector<int>& hosts, const Evaluator& evaluator, HostOrder order) {
  const auto& spec = evaluator.scenario().platform.hosts;
  std::stable_sort(hosts.begin(), hosts.end(), [&](int a, int b) {
    const double sa = evaluator.gpu_speed_flops(a), sb = evaluator.gpu_speed_flops(b);
    const int ga = spec[a].gpus, gb = spec[b].gpus;
    if (order == HostOrder::kSpeed) return sa != sb ? sa > sb : ga > gb;
    return ga != gb ? ga > gb : sa > sb;
  });
}

std::vector<int> hosts_of(const Placement& placement) {
  std::vector<int> out;
  out.reserve(placement.gpu_of_rank.size());
  for (const auto& g : placement.gpu_of_rank) out.push_back(g.host);
  return out;
}

}  // namespace hulk
