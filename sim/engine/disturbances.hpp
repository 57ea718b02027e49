#pragma once
/** @file disturbances.hpp
 *  @brief Scenario events during one SimGrid run: link bandwidth and latency changes, links down,
 *  straggling hosts (sim/topology/event_timeline.hpp gives the change points), and the stop at a host failure. */
#include <limits>
#include <map>
#include <string>

#include "sim/core/spec.hpp"
#include "sim/engine/sg_platform.hpp"

namespace hulk {

/** @brief The bandwidth changes of the scenario's events (times relative to origin_s): per route-model link id, its
 *  bandwidth at creation and a SimGrid bandwidth profile text for its later changes ("time bandwidth" lines, bytes/s:
 *  SimGrid 3.32's network models read link bandwidth profiles as absolute values, whatever its header says), for
 *  sg_build_platform to set before it seals the links: SimGrid applies profiles in its kernel, so transfers in
 *  flight speed up or slow down at each change. Empty without events (and on XML platforms). */
std::map<int, LinkProfile> bandwidth_profiles(const Scenario& scenario, double origin_s);

/** @brief Sets the hosts' speed profiles and starts a daemon actor that applies latency changes at their times (relative to
 *  origin_s) to the route latencies the receiver applies (SgPlatform::latency_at_receiver), else to SimGrid's links
 *  (then for transfers that start later). If stop_at_s is finite, the actor
 *  kills every other actor at that time and sets *stopped. Call after sg_build_platform and before the run; `sg`
 *  must outlive the run. A TCP window's per-flow cap keeps the route latency a connection was opened with. */
void start_disturbances(const Scenario& scenario, SgPlatform& sg, double origin_s,
                        double stop_at_s = std::numeric_limits<double>::infinity(), bool* stopped = nullptr);

}  // namespace hulk
