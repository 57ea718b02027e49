#pragma once
/** @file host_route.hpp
 *  @brief Latency and bottleneck bandwidth of the route between two hosts, for features and decoding. */
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Latency and bottleneck bandwidth of the route between two hosts (DESIGN.md platform model):
 *  same host: intra_link; same region: NIC_a + NIC_b (latency sum, bandwidth min); different regions:
 *  NIC_a + WAN[ra][rb] + NIC_b. host_pair_latency_s / host_pair_bandwidth_Bps override when present. */
struct HostRoute {
  double latency_s = 0;
  double bandwidth_Bps = 0;
};
/** @brief The route between hosts a and b (order does not matter). */
HostRoute route_between(const PlatformSpec& platform, int a, int b);

}  // namespace hulk
