#pragma once
/** @file sg_platform.hpp
 *  @brief SimGrid adapter: engine configuration and the SimGrid platform of a PlatformSpec.
 *  Only sim/sg_*.cpp, sim/collectives.cpp, sim/rank_actor.cpp and sim/simulator.cpp include SimGrid. */
#include <vector>

#include "sim/core/spec.hpp"

namespace simgrid {
namespace s4u {
class Host;
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
};

/** @brief Network model, TCP window, cross-traffic, actor stack size and log threshold. Must be called after the
 *  Engine exists and before the platform is created. */
void sg_configure_engine(const NetworkSpec& network);

/** @brief Creates the platform (or loads platform.simgrid_xml) in the current engine.
 *  Built platforms: one full zone with explicit routes in both directions:
 *  - host speed = gpu.peak_flops(precision) * utilisation, core count = gpus (one exec = one GPU);
 *  - per host a SPLITDUPLEX NIC (host_link), per region pair a SPLITDUPLEX WAN link (wan[a][b], UP = from the
 *    lower region index to the higher);
 *  - same-host route (loopback): a SHARED link of bandwidth intra.bw * gpus (aggregate) plus a FATPIPE link of
 *    bandwidth intra.bw (per-flow cap, one GPU's NVLink/PCIe port) carrying the latency;
 *  - a->b same region: [nic_a UP, nic_b DOWN]; different regions: [nic_a UP, wan, nic_b DOWN];
 *  - if host_pair_latency_s is non-empty: NIC and WAN links get zero latency and every inter-host route gets its
 *    own FATPIPE latency-only link (bandwidth 1e18 B/s) whose latency is the pair's value when given, else the
 *    latency the route would have had (nic_a + [wan] + nic_b). Route latency then equals the measured value
 *    exactly while bandwidth sharing on NIC/WAN links is unchanged.
 *  @throws InputError if the XML is rejected or a host is missing from it. */
SgPlatform sg_build_platform(const PlatformSpec& platform, const JobSpec& job);

}  // namespace hulk
