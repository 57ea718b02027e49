#pragma once
/** @file ring_hop_rate.hpp
 *  @brief The rate of one ring hop whose chunk is on the network at the same time as other hops' chunks: the proxy
 *  rate of the ring re-orderings (tp_ring_order.hpp, replica_order.hpp). */
#include <algorithm>
#include <vector>

#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief Bytes/s of a flow on route `r` while flows_on_link[id] flows cross each shared link id: its fair share of
 *  each shared link it crosses, capped by the route's FATPIPE links and, with a TCP window (window_bytes > 0), by
 *  window / round trip. @pre every shared link of r counts the flow itself (flows_on_link >= 1 there). */
inline double ring_hop_rate_Bps(const Route& r, const RouteModel& network, const std::vector<int>& flows_on_link,
                                double window_bytes) {
  double share = r.flow_cap_Bps;
  if (window_bytes > 0 && r.latency_s > 0) share = std::min(share, window_bytes / (2.0 * r.latency_s));
  for (int k = 0; k < r.n_links; ++k)
    share = std::min(share, network.link_bandwidth_Bps(r.links[k]) / flows_on_link[r.links[k]]);
  return share;
}

}  // namespace hulk
