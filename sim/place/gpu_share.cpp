#include "sim/place/gpu_share.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "sim/core/jobs.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

/** Renumbers a host-pair map (keys a < b) to share host indices; pairs with a dropped host go. The map is
 *  increasing, so a < b stays a < b. */
template <class V>
std::map<std::pair<int, int>, V> renumber_pairs(const std::map<std::pair<int, int>, V>& pairs,
                                                const std::vector<int>& sub_of_host) {
  std::map<std::pair<int, int>, V> out;
  for (const auto& [key, value] : pairs) {
    const int a = sub_of_host.at(key.first), b = sub_of_host.at(key.second);
    if (a >= 0 && b >= 0) out[{a, b}] = value;
  }
  return out;
}

}  // namespace

GpuSlot GpuShare::to_original(const GpuSlot& sub) const { return original.at(sub.host).at(sub.slot); }

Placement GpuShare::to_original(const Placement& sub) const {
  Placement out;
  out.gpu_of_rank.reserve(sub.gpu_of_rank.size());
  for (const GpuSlot& g : sub.gpu_of_rank) out.gpu_of_rank.push_back(to_original(g));
  return out;
}

Placement GpuShare::to_share(const Placement& placed) const {
  std::map<GpuSlot, GpuSlot> share_of;
  for (int h = 0; h < static_cast<int>(original.size()); ++h)
    for (int k = 0; k < static_cast<int>(original[h].size()); ++k) share_of.emplace(original[h][k], GpuSlot{h, k});
  Placement out;
  out.gpu_of_rank.reserve(placed.gpu_of_rank.size());
  for (const GpuSlot& g : placed.gpu_of_rank) out.gpu_of_rank.push_back(share_of.at(g));
  return out;
}

GpuShare make_gpu_share(const Scenario& s, int j, const std::vector<GpuSlot>& gpus) {
  const PlatformSpec& p = s.platform;
  const int H = static_cast<int>(p.hosts.size());
  std::vector<GpuSlot> sorted = gpus;
  std::sort(sorted.begin(), sorted.end());
  for (const GpuSlot& g : sorted)
    if (g.host < 0 || g.host >= H || g.slot < 0 || g.slot >= p.hosts[g.host].gpus)
      throw std::out_of_range("GPU (" + std::to_string(g.host) + ", " + std::to_string(g.slot) +
                              ") is not on the platform");
  GpuShare share;
  share.scenario = job_view(s, j);
  PlatformSpec& sub = share.scenario.platform;
  sub.hosts.clear();
  std::vector<int> sub_of_host(H, -1);
  for (const GpuSlot& g : sorted) {
    if (sub_of_host[g.host] < 0) {
      sub_of_host[g.host] = static_cast<int>(sub.hosts.size());
      sub.hosts.push_back(p.hosts[g.host]);
      sub.hosts.back().gpus = 0;
      share.original.emplace_back();
      share.original_host.push_back(g.host);
    }
    const int h = sub_of_host[g.host];
    if (!share.original[h].empty() && share.original[h].back() == g) continue;  // a duplicate entry
    ++sub.hosts[h].gpus;
    share.original[h].push_back(g);
  }
  sub.host_pair_latency_s = renumber_pairs(p.host_pair_latency_s, sub_of_host);
  sub.host_pair_bandwidth_Bps = renumber_pairs(p.host_pair_bandwidth_Bps, sub_of_host);
  return share;
}

std::vector<GpuSlot> free_gpus(const PlatformSpec& platform, const std::vector<GpuSlot>& used) {
  std::vector<GpuSlot> taken = used;
  std::sort(taken.begin(), taken.end());
  std::vector<GpuSlot> out;
  for (const GpuSlot& g : all_gpus(platform))
    if (!std::binary_search(taken.begin(), taken.end(), g)) out.push_back(g);
  return out;
}

}  // namespace hulk
