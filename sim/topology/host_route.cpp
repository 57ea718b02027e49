#include "sim/topology/host_route.hpp"

namespace hulk {

HostRoute route_between(const PlatformSpec& platform, int a, int b) {
  const RouteLinks r = route_links(platform, a, b);
  return HostRoute{r.latency_s, r.bandwidth_Bps};
}

}  // namespace hulk
