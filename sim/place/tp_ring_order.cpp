#include "sim/place/tp_ring_order.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "sim/evaluate/ring_steps.hpp"
#include "sim/place/ring_hop_rate.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/workload/cost_model.hpp"

namespace hulk {

namespace {

/** Proxy time of one group's ring all-reduce, alone on the network: its hops (member t -> t + 1) all send at once,
 *  flows counted on the links they share and each flow capped by its route's FATPIPE links and the TCP window, and
 *  the 2 (n - 1) steps then paced as the evaluator paces a ring (ring_steps.hpp). */
class RingCosts {
 public:
  RingCosts(const Scenario& scenario, const RouteModel& net)
      : net_(net),
        chunk_(compute_job_cost(scenario.only_job()).tp_allreduce_bytes / std::max(1, scenario.only_job().par.tp)),
        window_(scenario.network.tcp_window_bytes),
        model_{std::max(1, scenario.network.channels_per_peer), scenario.network.model == "CM02"},
        flows_(static_cast<size_t>(net.links()), 0) {}

  double of(const std::vector<int>& ring) {
    const size_t n = ring.size();
    hop_.resize(n);
    lat_.resize(n);
    const auto route = [&](size_t i) -> Route { return net_.route(ring[i], ring[(i + 1) % n]); };
    for (size_t i = 0; i < n; ++i) {
      const Route r = route(i);
      for (int k = 0; k < r.n_links; ++k) ++flows_[r.links[k]];
    }
    for (size_t i = 0; i < n; ++i) {
      const Route& r = route(i);
      lat_[i] = r.latency_s;
      hop_[i] = r.latency_s + chunk_ / ring_hop_rate_Bps(r, net_, flows_, window_);
    }
    for (size_t i = 0; i < n; ++i) {  // back to all zero for the next ring
      const Route r = route(i);
      for (int k = 0; k < r.n_links; ++k) flows_[r.links[k]] = 0;
    }
    return ring_steps_s(hop_.data(), lat_.data(), static_cast<int>(n), 2 * (static_cast<int>(n) - 1), model_,
                        scratch_);
  }

 private:
  const RouteModel& net_;
  double chunk_, window_;
  RingModel model_;
  std::vector<int> flows_;
  std::vector<double> hop_, lat_, scratch_;
};

/** Distinct sequences of hosts[1..] (hosts[0] stays first), capped at `cap` + 1. */
long distinct_sequences(std::vector<int> rest, long cap) {
  std::sort(rest.begin(), rest.end());
  long count = 1;
  for (size_t i = 0, same = 0; i < rest.size(); ++i) {  // n! / prod(k!) built factor by factor, exact at every step
    same = i > 0 && rest[i] == rest[i - 1] ? same + 1 : 1;
    count = count * static_cast<long>(i + 1) / static_cast<long>(same);
    if (count > cap) return cap + 1;
  }
  return count;
}

/** The cheapest ring over the members' hosts (`hosts[t]`: member t's host), member 0's host first: every distinct
 *  sequence when there are at most kTpRingExactSequences (a host may be visited more than once: a host holding
 *  several members can relay between two hosts whose direct hop is slow), else each host's members consecutive,
 *  the hosts chained by nearest neighbour from member 0's. The given sequence wins ties. */
std::vector<int> cheapest_ring(RingCosts& costs, const std::vector<int>& hosts) {
  std::vector<int> best = hosts;
  double best_c = costs.of(hosts);
  std::vector<int> ring = hosts;
  if (distinct_sequences({hosts.begin() + 1, hosts.end()}, kTpRingExactSequences) <= kTpRingExactSequences) {
    std::sort(ring.begin() + 1, ring.end());
    do {
      const double c = costs.of(ring);
      if (c < best_c) best = ring, best_c = c;
    } while (std::next_permutation(ring.begin() + 1, ring.end()));
    return best;
  }
  // Nearest neighbour over the distinct hosts; each host's members then come together.
  std::vector<int> left(hosts.begin() + 1, hosts.end());
  ring.assign(1, hosts[0]);
  const auto take_all = [&](int h) {
    for (auto it = left.begin(); it != left.end();)
      if (*it == h) ring.push_back(h), it = left.erase(it);
      else ++it;
  };
  take_all(hosts[0]);
  while (!left.empty()) {
    int next = left.front();
    double next_s = costs.of({ring.back(), next});
    for (int h : left) {
      const double t = costs.of({ring.back(), h});
      if (t < next_s) next = h, next_s = t;
    }
    take_all(next);
  }
  return costs.of(ring) < best_c ? ring : best;
}

}  // namespace

Placement tp_ring_rechained(const Scenario& scenario, const Placement& placement, const RouteModel* network) {
  const Parallelism& par = scenario.only_job().par;
  const int tp = par.tp, groups = par.pp * par.dp;
  if (tp < 2 || static_cast<int>(placement.gpu_of_rank.size()) != groups * tp) return placement;
  std::optional<RouteModel> own;
  const RouteModel& net = network ? *network : own.emplace(scenario.platform, network_model_factors(scenario.network.model));
  RingCosts costs(scenario, net);
  Placement out = placement;
  for (int g = 0; g < groups; ++g) {
    const auto first = placement.gpu_of_rank.begin() + static_cast<long>(g) * tp;
    const std::vector<GpuSlot> members(first, first + tp);
    std::vector<int> hosts;
    for (const GpuSlot& m : members) hosts.push_back(m.host);
    if (std::all_of(hosts.begin(), hosts.end(), [&](int h) { return h == hosts[0]; })) continue;
    const std::vector<int> ring = cheapest_ring(costs, hosts);
    std::vector<bool> placed(members.size(), false);
    for (int t = 0; t < tp; ++t)  // each host's members in their own order, where the ring visits the host
      for (size_t i = 0; i < members.size(); ++i)
        if (!placed[i] && members[i].host == ring[t]) {
          out.gpu_of_rank[static_cast<size_t>(g) * tp + t] = members[i];
          placed[i] = true;
          break;
        }
  }
  return out;
}

TimedPlacement fastest_tp_ring_order(const Scenario& scenario, const Placement& start, double start_time_s,
                                     const std::function<double(const Placement&)>& time_s, const RouteModel* network) {
  Placement candidate = tp_ring_rechained(scenario, start, network);
  if (candidate.gpu_of_rank == start.gpu_of_rank) return {start, start_time_s};
  const double t = time_s(candidate);
  if (t < start_time_s) return {std::move(candidate), t};
  return {start, start_time_s};
}

}  // namespace hulk
