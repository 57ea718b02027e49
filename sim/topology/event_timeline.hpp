#pragma once
/** @file event_timeline.hpp
 *  @brief Scenario events (Scenario::events) as change points of the route model's links and of the hosts'
 *  speeds: what the engine applies during a run. Pure code (no SimGrid).
 *
 *  Rules, the same for every link and host:
 *  - an event acts on the links of its target (event_links) while it is in force, [at, at + duration);
 *  - a link's bandwidth at time t is its own when no bandwidth-setting event is in force on it, else that of the
 *    latest-started one in force (ties: the later written); a factor scales the link's own bandwidth;
 *  - `down` sets the bandwidth to kDownBandwidthBps and wins over every other event in force (a down link is down);
 *  - latency: as bandwidth, from latency-setting events; it is the link's own one-way latency (on platforms with
 *    measured pair latencies the WAN and NIC links carry none of their own, so a WAN latency event there adds to
 *    the measured latency of every route across the pair);
 *  - a host's speed factor at time t is that of the latest-started straggler event in force on it, else 1.
 *  Times are relative to an origin (a run that resumes after a failure starts at its origin): events that ended
 *  before it are dropped, events in force at it apply from 0. */
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief Bandwidth of a down link, bytes/s: traffic on it makes no measurable progress (1 byte per ~30 years) and
 *  resumes where it stopped when the link comes back; nothing is lost. */
constexpr double kDownBandwidthBps = 1.0;

/** @brief Model link ids an event on `target` acts on: a WAN pair's both halves (capacity `pair`) or every host's
 *  egress cap from one of its regions to the other (capacity `host`); a host link's NIC halves and, capacity `host`,
 *  its egress caps. Empty for a `host` target (no link) and on SimGrid-XML platforms. */
std::vector<int> event_links(const RouteModel& model, const EventTarget& target);

/** @brief The state of one model link from a time on. */
struct LinkChange {
  double at_s = 0;           ///< from this time (relative to the origin)
  int link = -1;             ///< model link id
  double bandwidth_Bps = 0;  ///< bandwidth in force from at_s
  double latency_s = 0;      ///< one-way latency in force from at_s
};

/** @brief Every change of every link touched by a link event (link_change, link_down), in time order (ties: link id
 *  order), each giving the link's full state from then on (a link returns to its own bandwidth and latency when its
 *  last event ends). Only times >= 0 after the origin; a state that differs from the link's own at time 0 is listed
 *  at 0. */
std::vector<LinkChange> link_timeline(const RouteModel& model, const std::vector<EventSpec>& events,
                                      double origin_s = 0);

/** @brief One host's speed factor from a time on. */
struct SpeedChange {
  double at_s = 0;      ///< relative to the origin
  double factor = 1;    ///< fraction of the host's own speed
};

/** @brief Per host (index), its speed changes in time order (empty: always at its own speed); as link_timeline. */
std::vector<std::vector<SpeedChange>> speed_timeline(int hosts, const std::vector<EventSpec>& events,
                                                     double origin_s = 0);

/** @brief Index into events of the earliest host failure at or after origin_s whose host is one of `hosts_used`
 *  (true per host index) and which is not in `handled` (indices of failures already dealt with), or -1. A failure
 *  before origin_s that is still in force at origin_s counts as one at origin_s (the host died during a restart, or
 *  before the job moved onto it); ties go to the first listed. */
int next_failure(const std::vector<EventSpec>& events, const std::vector<bool>& hosts_used, double origin_s,
                 const std::vector<int>& handled = {});

}  // namespace hulk
