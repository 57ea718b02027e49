#include "sim/engine/latency_ring.hpp"

#include <algorithm>
#include <cmath>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "sim/engine/private_ring.hpp"
#include "sim/engine/trace_recorder.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

bool zero_byte_ring(double bytes, int members) {
  // start_put sends llround(bytes) bytes; a ring step carries bytes / members.
  return members >= 2 && std::llround(bytes / members) == 0;
}

bool latency_rings_apply(const SgPlatform& sg, bool has_events, bool stops) {
  return sg.latency_at_receiver && sg.routes && !sg.route_up_at && !has_events && !stops;
}

/** The members of one group meeting for their current ring (as PrivateRings::Meeting). */
struct LatencyRings::Meeting {
  int arrived = 0;
  std::vector<double> time_s;  ///< per member: entry, then (after play) exit
  /** Per member: where it waits for the last member. A semaphore, not suspend/resume: see PrivateRings. */
  std::vector<sg4::SemaphorePtr> wake;
};

LatencyRings::LatencyRings(int groups, const SgPlatform& sg, int channels)
    : sg_(&sg), channels_(channels), covered_(groups, -1), meetings_(groups) {}

LatencyRings::~LatencyRings() = default;

bool LatencyRings::covers(const MessageFabric& fabric, int group, const std::vector<int>& members) {
  signed char& c = covered_[group];
  if (c >= 0) return c != 0;
  c = 1;
  const int n = static_cast<int>(members.size());
  for (int i = 0; i < n && c; ++i) {
    const int a = fabric.host_of(members[i]), b = fabric.host_of(members[(i + 1) % n]);
    const Route route = sg_->routes->route(a, b);
    // A link of no bandwidth would hold even an empty transfer; a host to itself without links is SimGrid's
    // loopback, whose latency is not the route model's.
    if (!(route.bandwidth_Bps > 0) || (a == b && route.n_path == 0)) c = 0;
  }
  return c != 0;
}

void LatencyRings::allreduce(Endpoint& ep, int group, const std::vector<int>& members, double bytes,
                             const CommTag& tag, std::vector<RankLedger>& ledgers) {
  const int n = static_cast<int>(members.size());
  const int pos = static_cast<int>(std::find(members.begin(), members.end(), ep.rank()) - members.begin());
  Meeting& m = meetings_[group];
  if (m.time_s.empty()) {
    m.time_s.assign(n, 0.0);
    m.wake.assign(n, nullptr);
  }
  m.time_s[pos] = sg4::Engine::get_clock();
  if (!m.wake[pos]) m.wake[pos] = sg4::Semaphore::create(0);
  if (++m.arrived < n) {
    m.wake[pos]->acquire();  // the last member computes everyone's exit and wakes us (same simulated time)
  } else {
    play(m, ep.fabric(), members, bytes, tag, ledgers);
    m.arrived = 0;
    for (int i = 0; i < n; ++i)
      if (i != pos) m.wake[i]->release();
  }
  // Read before anyone can start the group's next ring (that needs this member to arrive again). Every exit is at
  // or after the last entry: after n - 1 steps a member has received data that passed through every member.
  const double end_s = m.time_s[pos];
  if (end_s > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(end_s);
}

void LatencyRings::play(Meeting& m, const MessageFabric& fabric, const std::vector<int>& members, double bytes,
                        const CommTag& tag, std::vector<RankLedger>& ledgers) {
  const int n = static_cast<int>(members.size());
  const double chunk = bytes / n;
  std::vector<RingHop> hops(n);
  for (int i = 0; i < n; ++i) {
    const int src = members[i], dst = members[(i + 1) % n];
    const int a = fabric.host_of(src), b = fabric.host_of(dst);
    // Between hosts SimGrid's links carry no latency (the transfer leaves at once, the receiver adds the route's);
    // inside a host its links keep theirs and the transfer ends after it.
    hops[i].transfer_s = a == b ? sg_->routes->route(a, a).latency_s : 0.0;
    hops[i].receiver_latency_s = fabric.receiver_latency_s(src, dst);
  }
  const bool record_events = fabric.record_events();
  m.time_s = ring_hop_timeline(m.time_s, 2 * (n - 1), hops, channels_, [&](const RingStepTransfer& x) {
    const int src = members[x.from], dst = members[x.to];
    RankLedger& receiver = ledgers[dst];
    ++receiver.messages;
    ++messages_;
    switch (fabric.link_class(src, dst)) {
      case 0: receiver.bytes.intra_host += chunk; break;
      case 1: receiver.bytes.intra_region += chunk; break;
      default: receiver.bytes.inter_region += chunk; break;
    }
    if (!record_events) return;
    RawEvent e;
    e.iteration = receiver.iteration;
    e.tag = tag;
    e.src = src;
    e.dst = dst;
    e.bytes = chunk;
    e.start_s = x.post_s;
    e.end_s = x.end_s;
    receiver.trace->message(e);
  });
  ++collectives_;
}

}  // namespace hulk
