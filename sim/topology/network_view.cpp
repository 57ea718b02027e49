#include "sim/topology/network_view.hpp"

#include <algorithm>
#include <limits>

namespace hulk {
namespace {

// A zero or negative bandwidth would divide by zero in the evaluator; a tiny one makes such routes look awful,
// which is the right signal for a placer.
double positive_bw(double bw) { return bw > 0 ? bw : 1.0; }

}  // namespace

NetworkView::NetworkView(const PlatformSpec& platform) {
  hosts_ = static_cast<int>(platform.hosts.size());
  regions_ = std::max<int>(1, static_cast<int>(platform.regions.size()));
  for (const auto& h : platform.hosts) regions_ = std::max(regions_, h.region + 1);
  const int H = hosts_, R = regions_;
  const bool xml = !platform.simgrid_xml.empty();

  region_.resize(H);
  for (int h = 0; h < H; ++h) region_[h] = platform.hosts[h].region;

  // Link ids: [0,H) NIC up, [H,2H) NIC down, [2H,3H) intra-host, then WAN a->b (R*R) or, for XML platforms,
  // one private link per ordered host pair (H*H).
  const int base = 3 * H;
  link_bandwidth_Bps_.assign(static_cast<size_t>(base) + (xml ? H * H : R * R), 1.0);
  for (int h = 0; h < H; ++h) {
    const HostSpec& hs = platform.hosts[h];
    link_bandwidth_Bps_[h] = positive_bw(hs.host_link.bandwidth_Bps);
    link_bandwidth_Bps_[H + h] = positive_bw(hs.host_link.bandwidth_Bps);
    link_bandwidth_Bps_[2 * H + h] = positive_bw(hs.intra_link.bandwidth_Bps * hs.gpus);
  }
  if (!xml) {
    for (int a = 0; a < R; ++a)
      for (int b = 0; b < R; ++b) {
        double bw = 1.0;
        const int lo = std::min(a, b), hi = std::max(a, b);  // the simulator builds link {lo, hi} from wan[lo][hi]
        if (a != b && hi < static_cast<int>(platform.wan.size()) && hi < static_cast<int>(platform.wan[lo].size()))
          bw = positive_bw(platform.wan[lo][hi].bandwidth_Bps);
        link_bandwidth_Bps_[base + a * R + b] = bw;
      }
  }

  routes_.assign(static_cast<size_t>(H) * H, Route{});
  for (int a = 0; a < H; ++a) {
    const HostSpec& ha = platform.hosts[a];
    for (int b = 0; b < H; ++b) {
      const HostSpec& hb = platform.hosts[b];
      Route r;
      r.flow_cap_Bps = std::numeric_limits<double>::infinity();
      if (a == b) {
        r.links[0] = 2 * H + a;
        r.n_links = 1;
        r.latency_s = ha.intra_link.latency_s;
        r.flow_cap_Bps = positive_bw(ha.intra_link.bandwidth_Bps);
      } else if (xml) {
        r.links[0] = base + a * H + b;
        r.n_links = 1;
        const auto key = std::make_pair(std::min(a, b), std::max(a, b));
        auto lat = platform.host_pair_latency_s.find(key);
        r.latency_s = lat != platform.host_pair_latency_s.end() ? lat->second : 0.0;
        auto bw = platform.host_pair_bandwidth_Bps.find(key);
        link_bandwidth_Bps_[r.links[0]] = positive_bw(bw != platform.host_pair_bandwidth_Bps.end() ? bw->second : 0);
      } else {
        r.links[0] = a;        // NIC up of a
        r.links[1] = H + b;    // NIC down of b
        r.n_links = 2;
        r.latency_s = ha.host_link.latency_s + hb.host_link.latency_s;
        if (ha.region != hb.region) {
          const int w = base + ha.region * R + hb.region;
          r.links[2] = w;
          r.n_links = 3;
          const auto& wan = platform.wan;
          const int lo = std::min(ha.region, hb.region), hi = std::max(ha.region, hb.region);
          if (hi < static_cast<int>(wan.size()) && hi < static_cast<int>(wan[lo].size()))
            r.latency_s += wan[lo][hi].latency_s;
        }
        auto lat = platform.host_pair_latency_s.find(std::make_pair(std::min(a, b), std::max(a, b)));
        if (lat != platform.host_pair_latency_s.end()) r.latency_s = lat->second;
      }
      r.bandwidth_Bps = std::min(r.flow_cap_Bps, link_bandwidth_Bps_[r.links[0]]);
      for (int i = 1; i < r.n_links; ++i) r.bandwidth_Bps = std::min(r.bandwidth_Bps, link_bandwidth_Bps_[r.links[i]]);
      routes_[static_cast<size_t>(a) * H + b] = r;
    }
  }

  // Region-level summaries for placers (chain ordering): means over host pairs.
  region_latency_s_.assign(static_cast<size_t>(R) * R, 0.0);
  region_bandwidth_Bps_.assign(static_cast<size_t>(R) * R, 0.0);
  std::vector<double> count(static_cast<size_t>(R) * R, 0.0);
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b) {
      if (a == b) continue;
      const size_t k = static_cast<size_t>(region_[a]) * R + region_[b];
      region_latency_s_[k] += route(a, b).latency_s;
      region_bandwidth_Bps_[k] += route(a, b).bandwidth_Bps;
      count[k] += 1;
    }
  for (size_t k = 0; k < count.size(); ++k) {
    if (count[k] > 0) {
      region_latency_s_[k] /= count[k];
      region_bandwidth_Bps_[k] /= count[k];
    }
  }
  // A region with a single host has no distinct host pair inside: use that host's intra-host route.
  for (int h = 0; h < H; ++h) {
    const size_t k = static_cast<size_t>(region_[h]) * R + region_[h];
    if (count[k] == 0) {
      region_latency_s_[k] = route(h, h).latency_s;
      region_bandwidth_Bps_[k] = route(h, h).bandwidth_Bps;
    }
  }
}

}  // namespace hulk
