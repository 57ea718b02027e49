#include "sim/topology/host_route.hpp"

#include <algorithm>
#include <utility>

namespace hulk {

HostRoute route_between(const PlatformSpec& platform, int a, int b) {
  const HostSpec& ha = platform.hosts.at(a);
  const HostSpec& hb = platform.hosts.at(b);
  HostRoute r;
  if (a == b) return HostRoute{ha.intra_link.latency_s, ha.intra_link.bandwidth_Bps};
  r.latency_s = ha.host_link.latency_s + hb.host_link.latency_s;
  r.bandwidth_Bps = std::min(ha.host_link.bandwidth_Bps, hb.host_link.bandwidth_Bps);
  if (ha.region != hb.region) {
    const LinkSpec& w = platform.wan.at(ha.region).at(hb.region);
    r.latency_s += w.latency_s;
    r.bandwidth_Bps = std::min(r.bandwidth_Bps, w.bandwidth_Bps);
  }
  const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
  if (auto it = platform.host_pair_latency_s.find(key); it != platform.host_pair_latency_s.end())
    r.latency_s = it->second;
  if (auto it = platform.host_pair_bandwidth_Bps.find(key); it != platform.host_pair_bandwidth_Bps.end())
    r.bandwidth_Bps = it->second;
  return r;
}

}  // namespace hulk
