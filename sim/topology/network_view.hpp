#pragma once
/** @file network_view.hpp
 *  @brief Per host pair route facts (latency, links, bottleneck bandwidth) derived from a PlatformSpec, mirroring
 *  the SimGrid platform the simulator builds. Pure code (no SimGrid): used by the analytic evaluator and placers.
 *
 *  The model (identical to the simulator's platform, see the placement brief / DESIGN.md):
 *  - every host has a full-duplex NIC (HostSpec::host_link): one "up" and one "down" link, each of the NIC's
 *    bandwidth;
 *  - every host has one intra-host link shared by all its GPUs (both directions), bandwidth intra_link.bw * gpus,
 *    plus a per-GPU port: each flow inside the server is capped at intra_link.bw and has latency
 *    intra_link.latency (simcore: a SHARED aggregate link + a FATPIPE port link);
 *  - every region pair a < b has one WAN link of wan[a][b] bandwidth and latency (split duplex: one capacity per
 *    direction);
 *  - route between hosts of one region: NIC up(src) + NIC down(dst), latency = sum of the two latencies;
 *    between regions: NIC up(src) + WAN(ra->rb) + NIC down(dst), latency = sum of the three;
 *  - PlatformSpec::host_pair_latency_s, when it holds the pair, IS the route latency (bandwidths unchanged);
 *  - SimGrid-XML platforms (simgrid_xml non-empty): host_pair_latency_s / host_pair_bandwidth_Bps give every
 *    pair and each ordered pair is treated as its own private link (no sharing between pairs is known). */
#include <array>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief One route: up to three directed link ids, its latency and its bottleneck bandwidth. */
struct Route {
  std::array<int, 3> links{{-1, -1, -1}};  ///< link ids (index into NetworkView::link_bandwidth_Bps)
  int n_links = 0;                         ///< number of valid entries in links
  double latency_s = 0;                    ///< one-way route latency, seconds
  double bandwidth_Bps = 0;                ///< min bandwidth over the links and the per-flow cap, bytes/s
  double flow_cap_Bps = 0;                 ///< per-flow cap (a GPU's own intra-host port), +inf if none
};

/** @brief Route table for all ordered host pairs (including a host to itself = its intra-host link). */
class NetworkView {
 public:
  /** @brief Builds the tables. Hosts without a positive link bandwidth get the tiny fallback 1 byte/s so that
   *  placements using them look terrible rather than dividing by zero. */
  explicit NetworkView(const PlatformSpec& platform);

  /** @brief Number of hosts. */
  int hosts() const { return hosts_; }
  /** @brief Number of distinct link ids. */
  int links() const { return static_cast<int>(link_bandwidth_Bps_.size()); }
  /** @brief The route from host a to host b (a == b: the intra-host link of a). */
  const Route& route(int a, int b) const { return routes_[static_cast<size_t>(a) * hosts_ + b]; }
  /** @brief Capacity of one link id, bytes/s. */
  double link_bandwidth_Bps(int link) const { return link_bandwidth_Bps_[link]; }
  /** @brief Region of a host. */
  int region_of(int host) const { return region_[host]; }
  /** @brief Number of regions. */
  int regions() const { return regions_; }
  /** @brief Mean route latency (s) between hosts of region a and hosts of region b (a != b: inter-region routes;
   *  a == b: routes between distinct hosts of a, or the intra-host latency if a has one host). 0 if a region has
   *  no host. */
  double region_latency_s(int a, int b) const { return region_latency_s_[static_cast<size_t>(a) * regions_ + b]; }
  /** @brief Mean bottleneck bandwidth (bytes/s) of the routes counted in region_latency_s. */
  double region_bandwidth_Bps(int a, int b) const {
    return region_bandwidth_Bps_[static_cast<size_t>(a) * regions_ + b];
  }

 private:
  int hosts_ = 0;
  int regions_ = 0;
  std::vector<int> region_;
  std::vector<Route> routes_;
  std::vector<double> link_bandwidth_Bps_;
  std::vector<double> region_latency_s_;
  std::vector<double> region_bandwidth_Bps_;
};

}  // namespace hulk
