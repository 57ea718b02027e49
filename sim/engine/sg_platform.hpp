#pragma once
/** @file sg_platform.hpp
 *  @brief SimGrid adapter: the SimGrid platform of a PlatformSpec, built from its RouteModel (route_model.hpp).
 *  Only sim/engine/ includes SimGrid. */
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/topology/route_model.hpp"

namespace simgrid {
namespace s4u {
class Host;
class Link;
}
}  // namespace simgrid

namespace hulk {

/** @brief The SimGrid side of a platform: one host per PlatformSpec host (same index). */
struct SgPlatform {
  std::vector<simgrid::s4u::Host*> hosts;
  /** @brief Multiply a GPU's flop count by this before executing it on the SimGrid host, so that the time is
   *  flop / (peak * utilisation) even when the host speed comes from an XML file (1 for built platforms). */
  std::vector<double> flops_scale;
  /** @brief If > 0, every exec on this host is bounded to this rate (flop/s of the host; XML platforms, where a
   *  GPU is a share of the XML host), 0 = unbounded (built platforms: one core per GPU). */
  std::vector<double> exec_bound;
  /** @brief One-way route latency per ordered host pair that the receiver applies, seconds, row-major (hosts x
   *  hosts): with latency_at_receiver, the route's latency for distinct hosts (0 for a host to itself, whose
   *  intra-host links keep theirs in SimGrid); else the route latency, for information. Filled for XML platforms
   *  and by dense_route_latencies(); empty otherwise, and latency_s() reads `routes` (no hosts^2 table). */
  std::vector<double> route_latency_s;
  /** @brief The route model the platform was built from (built platforms; null for XML). */
  std::shared_ptr<const RouteModel> routes;
  /** @brief True when SimGrid's links carry no latency and the receiver adds route_latency_s after a transfer
   *  (see sg_build_platform): a SimGrid comm then ends when its last byte has LEFT the sender. */
  bool latency_at_receiver = false;
  /** @brief The SimGrid link of every route-model link id (a split-duplex half: that half's own link); empty for XML
   *  platforms. */
  std::vector<simgrid::s4u::Link*> model_links;
  /** @brief With scenario events: the earliest simulated time >= now at which no link of the route from host a to
   *  host b is down (sim/engine/disturbances.hpp); empty = never down. */
  std::function<double(int a, int b, double now)> route_up_at;
  /** @brief Route latency from host a to host b, seconds (as route_latency_s describes it). */
  double latency_s(int a, int b) const {
    if (!route_latency_s.empty()) return route_latency_s[static_cast<std::size_t>(a) * hosts.size() + b];
    return a == b && latency_at_receiver ? 0.0 : routes->route(a, b).latency_s;
  }
};

/** @brief A link whose bandwidth changes during the run (scenario events, sim/engine/disturbances.hpp). */
struct LinkProfile {
  double initial_Bps = 0;  ///< bandwidth at creation, bytes/s
  std::string text;        ///< SimGrid profile of the later changes ("time bytes/s" lines; "" = none)
};

/** @brief Fills sg.route_latency_s from its route model if it is empty (latencies that change during the run,
 *  sim/engine/disturbances.cpp, are kept per pair). */
void dense_route_latencies(SgPlatform& sg);

/** @brief Creates the platform (or loads platform.simgrid_xml) in the current engine (see engine_startup.hpp).
 *  Built platforms: one full zone; host speed = gpu.peak_flops(precision) * utilisation, core count = gpus (one
 *  exec = one GPU); every link and every route (both directions, a host to itself included) exactly as
 *  RouteModel(platform) defines them: same names, bandwidths, latencies, sharing policies and link order.
 *  With latency_at_receiver, every SimGrid link between hosts gets latency 0 (XML links: all, after loading) and
 *  the route latencies are kept in SgPlatform::route_latency_s for the receiver to apply: a message then occupies its
 *  connection for its transmission time only, as a TCP connection or NCCL channel that pipelines messages does
 *  (the next message starts when the previous has left, not when it has arrived). Bandwidth sharing is unchanged
 *  under CM02, whose rates do not depend on latency (the TCP window cap does: see MessageFabric::flow_rate_cap).
 *  With region_zones (and latency_at_receiver), where every route between regions is the source host's exit link,
 *  links that depend on the two regions only, and the destination's entry link (the default WAN of region pairs,
 *  no measured pair latencies), each region is a zone of its own with a gateway: SimGrid then composes the same
 *  links in the same order for every host pair but stores per-region routes and one route per region pair, not
 *  hosts^2 routes (memory and build time at tens of thousands of GPUs). Otherwise, one zone with every route.
 *  @throws InputError if the XML is rejected or a host is missing from it. */
SgPlatform sg_build_platform(const PlatformSpec& platform, const JobSpec& job, bool latency_at_receiver = false,
                             const std::map<int, LinkProfile>& bandwidth_profiles = {}, bool region_zones = false);

}  // namespace hulk
