#include "sim/engine/private_ring.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>
#include <utility>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "sim/engine/collectives.hpp"
#include "sim/engine/rank_actor.hpp"
#include "sim/engine/sg_endpoint.hpp"
#include "sim/engine/trace_recorder.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

std::vector<double> ring_step_timeline(const std::vector<double>& entry_s, int steps, double transfer_s, int channels,
                                       const std::function<void(const RingStepTransfer&)>& on_transfer) {
  return ring_hop_timeline(entry_s, steps, std::vector<RingHop>(entry_s.size(), RingHop{transfer_s, 0.0}), channels,
                           on_transfer);
}

std::vector<double> ring_hop_timeline(const std::vector<double>& entry_s, int steps, const std::vector<RingHop>& hops,
                                      int channels, const std::function<void(const RingStepTransfer&)>& on_transfer) {
  const int n = static_cast<int>(entry_s.size());
  if (n < 2 || steps <= 0) return entry_s;
  // ready[i][s]: when member i has completed its receive of step s (the loop of ring_steps moves on).
  std::vector<std::vector<double>> ready(n, std::vector<double>(steps));
  std::vector<std::deque<double>> leaving(n);  // end times of the member's sends still on its connection
  std::vector<double> posted(n), arrival(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {  // send(): waits until one of the connection's channels is free
      double t = s == 0 ? entry_s[i] : ready[i][s - 1];
      while (static_cast<int>(leaving[i].size()) >= channels) {
        t = std::max(t, leaving[i].front());
        leaving[i].pop_front();
      }
      posted[i] = t;
    }
    for (int i = 0; i < n; ++i) {  // the transfer starts once the next member's receive of this step is posted
      const int next = (i + 1) % n;
      const double recv_posted = s < kRingRecvWindow ? entry_s[next] : ready[next][s - kRingRecvWindow];
      const double left = std::max(posted[i], recv_posted) + hops[i].transfer_s;
      leaving[i].push_back(left);
      arrival[next] = left + hops[i].receiver_latency_s;
      if (on_transfer) on_transfer(RingStepTransfer{s, i, next, posted[i], arrival[next]});
    }
    for (int i = 0; i < n; ++i) ready[i][s] = std::max(posted[i], arrival[i]);  // complete(): waits for arrival
  }
  std::vector<double> exit_s(n);
  for (int i = 0; i < n; ++i) {  // wait_sends(): the last sends must have left
    exit_s[i] = ready[i][steps - 1];
    for (double end : leaving[i]) exit_s[i] = std::max(exit_s[i], end);
  }
  return exit_s;
}

int PrivateRingPlan::eligible_groups() const {
  return static_cast<int>(std::count(eligible.begin(), eligible.end(), 1));
}

namespace {

/** Flows that can ever be in flight at once on each host's intra-host link: per rank, channels_per_peer per distinct
 *  (same-host peer, kind) connection it may send on (TP: the ring's next member; PP: both neighbours; DP: any member
 *  of its data-parallel group, whatever the algorithm). */
std::vector<long long> intra_host_flow_bound(const Scenario& scenario, const ParallelPlan& plan,
                                             const std::vector<int>& host_of_rank) {
  std::vector<long long> flows(scenario.platform.hosts.size(), 0);
  const int ranks = static_cast<int>(host_of_rank.size());
  for (int r = 0; r < ranks; ++r) {
    const int h = host_of_rank[r];
    std::set<std::pair<int, int>> connections;  // (peer, kind)
    const auto add = [&](int peer, int kind) {
      if (peer >= 0 && peer != r && host_of_rank[peer] == h) connections.emplace(peer, kind);
    };
    const std::vector<int> tp = plan.tp_group(r);
    if (tp.size() > 1) {
      const auto pos = std::find(tp.begin(), tp.end(), r) - tp.begin();
      add(tp[(pos + 1) % tp.size()], 0);
    }
    add(plan.pp_next(r), 1);
    add(plan.pp_prev(r), 1);
    if (scenario.only_job().virtual_stages > 1) {  // interleaved 1F1B: the last stage and the first exchange too
      const RankCoord c = plan.coord_of(r);
      const int last = plan.parallelism().pp - 1;
      if (c.pp == last) add(plan.rank_of(0, c.dp, c.tp), 1);
      if (c.pp == 0) add(plan.rank_of(last, c.dp, c.tp), 1);
    }
    for (int peer : plan.dp_group(r)) add(peer, 2);
    flows[h] += static_cast<long long>(connections.size()) * scenario.network.channels_per_peer;
  }
  return flows;
}

}  // namespace

PrivateRingPlan private_ring_groups(const Scenario& scenario, const ParallelPlan& plan,
                                    const std::vector<int>& host_of_rank) {
  const Parallelism& par = plan.parallelism();
  PrivateRingPlan out;
  out.eligible.assign(par.dp * par.pp, 0);
  out.links.assign(par.dp * par.pp, PrivateLink{});
  const bool rates_from_capacities = scenario.network.model == "CM02" && !scenario.network.crosstraffic;
  if (par.tp < 2 || !scenario.platform.simgrid_xml.empty() || !rates_from_capacities) return out;
  const std::vector<long long> flows = intra_host_flow_bound(scenario, plan, host_of_rank);
  for (int g = 0; g < par.dp * par.pp; ++g) {
    const int host = host_of_rank[g * par.tp];
    bool one_host = true;
    for (int t = 1; t < par.tp; ++t) one_host = one_host && host_of_rank[g * par.tp + t] == host;
    if (!one_host) continue;
    const RouteLinks route = route_links(scenario.platform, host, host);
    if (route.n != 2 || route.links[0].kind != LinkKind::intra_aggregate || route.links[1].kind != LinkKind::gpu_port)
      continue;
    const double capacity = route.links[0].bandwidth_Bps, port = route.links[1].bandwidth_Bps;
    if (!(port > 0) || static_cast<double>(flows[host]) * port > capacity) continue;
    out.eligible[g] = 1;
    out.links[g] = PrivateLink{route.latency_s, port};
  }
  return out;
}

/** The members of one group meeting for their current body. */
struct PrivateRings::Meeting {
  int arrived = 0;
  std::vector<double> time_s;  ///< per member: start of the body, then (after play) its end
  /** Per member: where it waits for the last member (created on first use, inside the simulation). A semaphore,
   *  not suspend/resume: a suspended actor's incoming eager messages (mailboxes with a permanent receiver) that
   *  start meanwhile start suspended, and nothing resumes them (SimGrid's CommImpl::start), a deadlock. */
  std::vector<sg4::SemaphorePtr> wake;
};

PrivateRings::PrivateRings(PrivateRingPlan plan, int tp, int channels, int rank_offset)
    : plan_(std::move(plan)), tp_(tp), channels_(channels), rank_offset_(rank_offset),
      meetings_(plan_.eligible.size()) {
  for (Meeting& m : meetings_) {
    m.time_s.assign(tp, 0.0);
    m.wake.assign(tp, nullptr);
  }
}

PrivateRings::~PrivateRings() = default;

void PrivateRings::run_body(Endpoint& ep, const std::vector<int>& members, const std::vector<BodyStep>& body, int mb,
                            const BodyTiming& timing, std::vector<RankLedger>& ledgers, bool record_events,
                            bool record_spans) {
  const int n = static_cast<int>(members.size());
  const int group = (ep.rank() - rank_offset_) / tp_;
  const int pos = static_cast<int>(std::find(members.begin(), members.end(), ep.rank()) - members.begin());
  Meeting& m = meetings_[group];
  m.time_s[pos] = sg4::Engine::get_clock();
  if (!m.wake[pos]) m.wake[pos] = sg4::Semaphore::create(0);
  if (++m.arrived < n) {
    // Not the last: the last member computes everyone's end and wakes us (same simulated time).
    m.wake[pos]->acquire();
  } else {
    play(m, members, body, mb, timing, ledgers, record_events, record_spans, plan_.links[group]);
    m.arrived = 0;
    for (int i = 0; i < n; ++i)
      if (i != pos) m.wake[i]->release();
  }
  // Read before anyone can start the group's next body (that needs this member to arrive again).
  const double end_s = m.time_s[pos];
  if (end_s > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(end_s);
}

void PrivateRings::play(Meeting& m, const std::vector<int>& members, const std::vector<BodyStep>& body, int mb,
                        const BodyTiming& timing, std::vector<RankLedger>& ledgers, bool record_events,
                        bool record_spans, const PrivateLink& link) {
  const int n = static_cast<int>(members.size());
  const double chunk = timing.allreduce_bytes / n;
  // SimGrid transfers whole bytes (start_put rounds): the same size here, at the port's rate, after its latency.
  const double transfer_s = link.latency_s + static_cast<double>(std::llround(chunk)) / link.port_Bps;
  const std::string mb_suffix = " mb" + std::to_string(mb);
  std::vector<double>& t = m.time_s;
  for (const BodyStep& step : body) {
    if (!step.allreduce) {
      // As SimGrid's exec on a free core: the flop amount over the core's speed.
      const double duration_s = (step.flops * timing.flops_scale) / timing.host_speed;
      for (int i = 0; i < n; ++i) {
        const double start = t[i];
        t[i] = start + duration_s;
        RankLedger& ledger = ledgers[members[i]];
        ledger.compute_s += t[i] - start;
        if (record_spans) record_span(ledger, members[i], step.what + mb_suffix, "compute", start, t[i]);
      }
      continue;
    }
    const std::vector<double> exit_s =
        ring_step_timeline(t, 2 * (n - 1), transfer_s, channels_, [&](const RingStepTransfer& x) {
          RankLedger& receiver = ledgers[members[x.to]];
          ++receiver.messages;
          ++messages_;
          receiver.bytes.intra_host += chunk;
          if (!record_events) return;
          RawEvent e;
          e.iteration = receiver.iteration;
          e.tag = step.tag;
          e.src = members[x.from];
          e.dst = members[x.to];
          e.bytes = chunk;
          e.start_s = x.post_s;
          e.end_s = x.end_s;
          receiver.trace->message(e);
        });
    for (int i = 0; i < n; ++i) {
      RankLedger& ledger = ledgers[members[i]];
      ledger.tp_s += exit_s[i] - t[i];
      if (record_spans) record_span(ledger, members[i], "tp allreduce", "tp", t[i], exit_s[i]);
      t[i] = exit_s[i];
    }
    ++collectives_;
  }
}

}  // namespace hulk
