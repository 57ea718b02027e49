#pragma once
/** @file host_route.hpp
 *  @brief Latency and bottleneck bandwidth of the route between two hosts: a view of RouteModel (route_model.hpp),
 *  the one route model the engine simulates. */
#include "sim/core/spec.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief Latency (s) and bottleneck bandwidth (bytes/s) of the route from one host to another. */
struct HostRoute {
  double latency_s = 0;
  double bandwidth_Bps = 0;
};

/** @brief The route from host a to host b in a model (a == b: inside the host). */
inline HostRoute route_between(const RouteModel& model, int a, int b) {
  const Route& r = model.route(a, b);
  return HostRoute{r.latency_s, r.bandwidth_Bps};
}

/** @brief The route from host a to host b of a platform, without building a RouteModel (route_links: the same
 *  definition, O(log pairs) per call). */
HostRoute route_between(const PlatformSpec& platform, int a, int b);

}  // namespace hulk
