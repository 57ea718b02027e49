#pragma once
/** @file sg_platform.hpp
 *  @brief SimGrid adapter: the SimGrid platform of a PlatformSpec, built from its RouteModel (route_model.hpp).
 *  Only sim/engine/ includes SimGrid. */
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

/** @brief Creates the platform (or loads platform.simgrid_xml) in the current engine (see engine_startup.hpp).
 *  Built platforms: one full zone; host speed = gpu.peak_flops(precision) * utilisation, core count = gpus (one
 *  exec = one GPU); every link and every route (both directions, a host to itself included) exactly as
 *  RouteModel(platform) defines them: same names, bandwidths, latencies, sharing policies and link order.
 *  @throws InputError if the XML is rejected or a host is missing from it. */
SgPlatform sg_build_platform(const PlatformSpec& platform, const JobSpec& job);

}  // namespace hulk
