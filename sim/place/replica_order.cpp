#include "sim/place/replica_order.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "sim/evaluate/ring_steps.hpp"
#include "sim/place/ring_hop_rate.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

namespace {

/** The proxy of the file comment over one placement: the host of every (stage, replica, TP rank) and the flow
 *  count per link (all zero between calls). */
class RingProxy {
 public:
  RingProxy(const Scenario& scenario, const Placement& placement, const RouteModel& network)
      : par_(scenario.only_job().par),
        network_(network),
        window_(scenario.network.tcp_window_bytes),
        model_{std::max(1, scenario.network.channels_per_peer), scenario.network.model == "CM02"},
        flows_(static_cast<size_t>(network.links()), 0) {
    const ParallelPlan plan(par_);
    hosts_.resize(placement.gpu_of_rank.size());
    for (int s = 0; s < par_.pp; ++s)
      for (int d = 0; d < par_.dp; ++d)
        for (int t = 0; t < par_.tp; ++t) hosts_[index(s, d, t)] = placement.gpu_of_rank[plan.rank_of(s, d, t)].host;
    const JobCost cost = compute_job_cost(scenario.only_job());
    for (int s = 0; s < par_.pp; ++s) chunk_bytes_.push_back(cost.stages[s].dp_grad_bytes / par_.dp);
  }

  /** The hop a -> b alone on the network (latency + chunk at its route's bottleneck and window cap), the slowest
   *  over the stages and TP ranks: the cost the nearest-neighbour rings are built on. */
  double alone_hop_s(int a, int b) const {
    double slowest = 0.0;
    for (int s = 0; s < par_.pp; ++s)
      for (int t = 0; t < par_.tp; ++t) {
        const Route& r = network_.route(hosts_[index(s, a, t)], hosts_[index(s, b, t)]);
        double rate = r.bandwidth_Bps;
        if (window_ > 0 && r.latency_s > 0) rate = std::min(rate, window_ / (2.0 * r.latency_s));
        slowest = std::max(slowest, r.latency_s + (r.n_links > 0 ? chunk_bytes_[s] / rate : 0.0));
      }
    return slowest;
  }

  /** Work of one cost() call: per stage and TP rank, a ring of dp members paced over 2 (dp - 1) steps. */
  long work() const { return static_cast<long>(par_.pp) * par_.tp * par_.dp * 2 * par_.dp; }

  /** The proxy cost of the rings visiting the replicas in `ring` order (seconds): per stage the slowest of its TP
   *  ranks' rings, their hops sharing links, each paced as the evaluator paces a ring (ring_steps.hpp). */
  double cost(const std::vector<int>& ring) {
    double total = 0.0;
    const int n = par_.dp;
    hop_.resize(n);
    lat_.resize(n);
    for (int s = 0; s < par_.pp; ++s) {
      count_hops(s, ring, +1);
      double slowest = 0.0;
      for (int t = 0; t < par_.tp; ++t) {
        for (int i = 0; i < n; ++i) {
          const Route& r = hop(s, ring, i, t);
          lat_[i] = r.latency_s;
          hop_[i] = r.latency_s + chunk_bytes_[s] / ring_hop_rate_Bps(r, network_, flows_, window_);
        }
        slowest = std::max(slowest, ring_steps_s(hop_.data(), lat_.data(), n, 2 * (n - 1), model_, scratch_));
      }
      count_hops(s, ring, -1);
      total += slowest;
    }
    return total;
  }

 private:
  size_t index(int s, int d, int t) const { return (static_cast<size_t>(s) * par_.dp + d) * par_.tp + t; }

  Route hop(int s, const std::vector<int>& ring, int i, int t) const {
    const int next = ring[(i + 1) % par_.dp];
    return network_.route(hosts_[index(s, ring[i], t)], hosts_[index(s, next, t)]);
  }

  void count_hops(int s, const std::vector<int>& ring, int delta) {
    for (int i = 0; i < par_.dp; ++i)
      for (int t = 0; t < par_.tp; ++t) {
        const Route& r = hop(s, ring, i, t);
        for (int k = 0; k < r.n_links; ++k) flows_[r.links[k]] += delta;
      }
  }

  const Parallelism par_;
  const RouteModel& network_;
  const double window_;
  const RingModel model_;
  std::vector<int> hosts_;
  std::vector<double> chunk_bytes_;
  std::vector<int> flows_;
  std::vector<double> hop_, lat_, scratch_;
};

/** The ring from `start` that always goes on to the nearest replica not yet visited (by alone hop time; the lowest
 *  index on ties). */
std::vector<int> nearest_neighbour_ring(const std::vector<double>& hop_s, int dp, int start) {
  std::vector<int> ring{start};
  std::vector<bool> visited(dp, false);
  visited[start] = true;
  while (static_cast<int>(ring.size()) < dp) {
    int next = -1;
    for (int b = 0; b < dp; ++b)
      if (!visited[b] && (next < 0 || hop_s[ring.back() * dp + b] < hop_s[ring.back() * dp + next])) next = b;
    visited[next] = true;
    ring.push_back(next);
  }
  return ring;
}

/** The ring order (position -> replica) of the file comment: the better by the proxy of the current order and
 *  nearest-neighbour rings from up to kNearestNeighbourStarts replicas (spread over the indices), then the local
 *  search from it within kReplicaOrderProxyWork. Why the rings: at dp 58 one pass of the local search costs 3,306
 *  proxy calls, far beyond the work cap, and they start it near a good order. */
std::vector<int> proxy_ring_order(RingProxy& proxy, int dp) {
  constexpr int kNearestNeighbourStarts = 8;
  std::vector<int> ring(dp);
  std::iota(ring.begin(), ring.end(), 0);
  if (2 * proxy.work() > kReplicaOrderProxyWork) return ring;  // not even one trial affordable
  double best = proxy.cost(ring);
  long spent = proxy.work();
  std::vector<double> hop_s(static_cast<size_t>(dp) * dp);
  for (int a = 0; a < dp; ++a)
    for (int b = 0; b < dp; ++b) hop_s[static_cast<size_t>(a) * dp + b] = a == b ? 0.0 : proxy.alone_hop_s(a, b);
  const int starts = std::min(dp, kNearestNeighbourStarts);
  for (int k = 0; k < starts && spent + proxy.work() <= kReplicaOrderProxyWork; ++k) {
    std::vector<int> trial = nearest_neighbour_ring(hop_s, dp, k * dp / starts);
    const double c = proxy.cost(trial);
    spent += proxy.work();
    if (c < best * (1.0 - 1e-12)) {
      best = c;
      ring = std::move(trial);
    }
  }
  for (bool improved = true; improved;) {
    improved = false;
    for (int i = 0; i < dp; ++i)
      for (int j = i + 1; j < dp; ++j)
        for (const bool reverse : {false, true}) {
          if (spent + proxy.work() > kReplicaOrderProxyWork) return ring;
          std::vector<int> trial = ring;
          if (reverse)
            std::reverse(trial.begin() + i, trial.begin() + j + 1);
          else
            std::swap(trial[i], trial[j]);
          const double c = proxy.cost(trial);
          spent += proxy.work();
          if (c < best * (1.0 - 1e-12)) {  // strictly better beyond rounding: the search cannot cycle
            best = c;
            ring = std::move(trial);
            improved = true;
          }
        }
  }
  return ring;
}

bool has_job_ranks(const Scenario& scenario, const Placement& placement) {
  return static_cast<int>(placement.gpu_of_rank.size()) == scenario.only_job().par.ranks();
}

}  // namespace

Placement replicas_renumbered(const Scenario& scenario, const Placement& placement, const std::vector<int>& new_index) {
  const Parallelism& par = scenario.only_job().par;
  const ParallelPlan plan(par);
  Placement out = placement;
  for (int s = 0; s < par.pp; ++s)
    for (int d = 0; d < par.dp; ++d)
      for (int t = 0; t < par.tp; ++t)
        out.gpu_of_rank[plan.rank_of(s, new_index[d], t)] = placement.gpu_of_rank[plan.rank_of(s, d, t)];
  return out;
}

double replica_ring_proxy_s(const Scenario& scenario, const Placement& placement, const RouteModel& network) {
  if (scenario.only_job().par.dp < 2 || !has_job_ranks(scenario, placement)) return 0.0;
  RingProxy proxy(scenario, placement, network);
  std::vector<int> ring(scenario.only_job().par.dp);
  std::iota(ring.begin(), ring.end(), 0);
  return proxy.cost(ring);
}

Placement replicas_reordered(const Scenario& scenario, const Placement& placement, const RouteModel& network) {
  const int dp = scenario.only_job().par.dp;
  if (dp < 3 || !has_job_ranks(scenario, placement)) return placement;
  RingProxy proxy(scenario, placement, network);
  const std::vector<int> ring = proxy_ring_order(proxy, dp);
  std::vector<int> new_index(dp);
  for (int position = 0; position < dp; ++position) new_index[ring[position]] = position;
  return replicas_renumbered(scenario, placement, new_index);
}

TimedPlacement fastest_replica_order(const Scenario& scenario, const Placement& start, double start_time_s,
                                     const std::function<double(const Placement&)>& time_s,
                                     const RouteModel& network, const PlacementBound& bound) {
  Placement reordered = replicas_reordered(scenario, start, network);
  if (reordered.gpu_of_rank == start.gpu_of_rank) return {start, start_time_s};
  if (bound && cannot_beat(bound(reordered), start_time_s)) return {start, start_time_s};
  const double t = time_s(reordered);
  if (t < start_time_s) return {std::move(reordered), t};
  return {start, start_time_s};
}

}  // namespace hulk
