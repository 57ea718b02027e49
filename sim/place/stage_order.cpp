#include "sim/place/stage_order.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "sim/place/placer_common.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {

namespace {

using Order = std::vector<int>;
using CostMatrix = std::vector<std::vector<double>>;

/** Proxy evaluations the search of one objective may spend (bounds the work on long pipelines). */
constexpr long kProxyBudget = 200000;
/** Nearest-neighbour chains started per objective (from the first blocks). */
constexpr int kChainStarts = 8;

/** Hand-off time of one message per rank pair from block x to block y, flows sharing links (file comment). */
double handoff_s(const RouteModel& net, const std::vector<int>& host_of_rank, int n, int x, int y, double bytes,
                 std::vector<int>& flows) {
  for (int i = 0; i < n; ++i) {
    const Route& r = net.route(host_of_rank[x * n + i], host_of_rank[y * n + i]);
    for (int k = 0; k < r.n_links; ++k) ++flows[r.links[k]];
  }
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const Route& r = net.route(host_of_rank[x * n + i], host_of_rank[y * n + i]);
    double per_byte = r.flow_cap_Bps > 0 ? 1.0 / r.flow_cap_Bps : 0.0;
    for (int k = 0; k < r.n_links; ++k)
      per_byte = std::max(per_byte, flows[r.links[k]] / net.link_bandwidth_Bps(r.links[k]));
    worst = std::max(worst, r.latency_s + bytes * per_byte);
  }
  for (int i = 0; i < n; ++i) {  // back to all zero for the next pair
    const Route& r = net.route(host_of_rank[x * n + i], host_of_rank[y * n + i]);
    for (int k = 0; k < r.n_links; ++k) flows[r.links[k]] = 0;
  }
  return worst;
}

CostMatrix handoff_costs(const Scenario& scenario, const std::vector<int>& host_of_rank, const RouteModel* network) {
  const Parallelism& par = scenario.only_job().par;
  const int p = par.pp, n = par.dp * par.tp;
  std::optional<RouteModel> own;
  const RouteModel& net = network ? *network : own.emplace(scenario.platform, network_model_factors(scenario.network.model));
  const double bytes = compute_job_cost(scenario.only_job()).pp_message_bytes;
  std::vector<int> flows(static_cast<size_t>(net.links()), 0);
  CostMatrix c(p, std::vector<double>(p, 0.0));
  for (int x = 0; x < p; ++x)
    for (int y = x + 1; y < p; ++y) {
      const double t = std::max(handoff_s(net, host_of_rank, n, x, y, bytes, flows),
                                handoff_s(net, host_of_rank, n, y, x, bytes, flows));
      c[x][y] = c[y][x] = t;
    }
  return c;
}

/** Cost of an order: bottleneck_weight x its slowest hand-off + the sum of its hand-offs. */
double order_cost(const CostMatrix& c, const Order& o, double bottleneck_weight) {
  double worst = 0, sum = 0;
  for (size_t i = 0; i + 1 < o.size(); ++i) {
    const double t = c[o[i]][o[i + 1]];
    worst = std::max(worst, t);
    sum += t;
  }
  return bottleneck_weight * worst + sum;
}

/** Chain from block `first`, each next block the unvisited one with the cheapest hand-off (lowest index on ties). */
Order nearest_neighbour_chain(const CostMatrix& c, int first) {
  const int p = static_cast<int>(c.size());
  Order o{first};
  std::vector<bool> used(p, false);
  used[first] = true;
  while (static_cast<int>(o.size()) < p) {
    int next = -1;
    for (int y = 0; y < p; ++y)
      if (!used[y] && (next < 0 || c[o.back()][y] < c[o.back()][next])) next = y;
    used[next] = true;
    o.push_back(next);
  }
  return o;
}

/** First-improvement descent by position swaps and segment reversals, within `budget` proxy evaluations. */
Order improve(const CostMatrix& c, Order o, double bottleneck_weight, long& budget) {
  const int p = static_cast<int>(o.size());
  double best = order_cost(c, o, bottleneck_weight);
  bool improved = true;
  while (improved && budget > 0) {
    improved = false;
    for (int i = 0; i < p && !improved && budget > 0; ++i)
      for (int j = i + 1; j < p && !improved && budget > 0; ++j)
        for (int move = 0; move < 2 && !improved; ++move) {
          Order t = o;
          if (move == 0) std::swap(t[i], t[j]);
          else if (j > i + 1) std::reverse(t.begin() + i, t.begin() + j + 1);
          else continue;  // a reversal of two is the swap
          --budget;
          const double v = order_cost(c, t, bottleneck_weight);
          if (v < best) {
            best = v;
            o = std::move(t);
            improved = true;
          }
        }
  }
  return o;
}

/** Placement whose stage s holds the ranks' GPUs of `placement`'s stage order[s] (rank order within a block kept). */
Placement reordered(const Placement& placement, const Order& order, int n) {
  Placement out = placement;
  for (size_t s = 0; s < order.size(); ++s)
    for (int i = 0; i < n; ++i) out.gpu_of_rank[s * n + i] = placement.gpu_of_rank[order[s] * n + i];
  return out;
}

/** The slowest hand-off's weight in the first objective: micro-batches - 1. */
double bottleneck_weight(const Scenario& scenario) {
  return std::max(1, compute_job_cost(scenario.only_job()).micro_batches) - 1.0;
}

Order identity_order(int p) {
  Order identity(p);
  for (int s = 0; s < p; ++s) identity[s] = s;
  return identity;
}

}  // namespace

double stage_order_cost(const Scenario& scenario, const Placement& placement) {
  const Parallelism& par = scenario.only_job().par;
  if (par.pp < 2 || static_cast<int>(placement.gpu_of_rank.size()) != par.ranks()) return 0.0;
  const CostMatrix c = handoff_costs(scenario, hosts_of(placement), nullptr);
  return order_cost(c, identity_order(par.pp), bottleneck_weight(scenario));
}

std::vector<Placement> stage_order_candidates(const Scenario& scenario, const Placement& placement, int limit,
                                              const RouteModel* network) {
  const Parallelism& par = scenario.only_job().par;
  const int p = par.pp, n = par.dp * par.tp;
  if (p < 2 || limit <= 0 || static_cast<int>(placement.gpu_of_rank.size()) != par.ranks()) return {};
  const std::vector<int> host_of_rank = hosts_of(placement);
  const CostMatrix c = handoff_costs(scenario, host_of_rank, network);
  const double bottleneck_weights[] = {bottleneck_weight(scenario), 0.0};
  const Order identity = identity_order(p);
  // Candidate orders by the first objective (the second only diversifies), ties in discovery order.
  std::vector<std::pair<double, Order>> found;
  for (double w : bottleneck_weights) {
    long budget = kProxyBudget;
    std::vector<Order> starts{identity};
    for (int first = 0; first < std::min(p, kChainStarts); ++first) starts.push_back(nearest_neighbour_chain(c, first));
    for (const Order& start : starts) {
      Order o = improve(c, start, w, budget);
      found.emplace_back(order_cost(c, o, bottleneck_weights[0]), std::move(o));
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  // Distinct by the hosts of the ranks: blocks on the same hosts are interchangeable.
  std::set<std::vector<int>> seen{host_of_rank};
  std::vector<Placement> out;
  for (const auto& entry : found) {
    Order forward = entry.second, backward(entry.second.rbegin(), entry.second.rend());
    for (const Order* o : {&forward, &backward}) {
      if (static_cast<int>(out.size()) >= limit) return out;
      Placement candidate = reordered(placement, *o, n);
      if (seen.insert(hosts_of(candidate)).second) out.push_back(std::move(candidate));
    }
  }
  return out;
}

TimedPlacement fastest_stage_order(const Scenario& scenario, const Placement& start, double start_time_s, int limit,
                                   const std::function<double(const Placement&)>& time_s, const RouteModel* network,
                                   const PlacementBound& bound) {
  TimedPlacement best{start, start_time_s};
  for (Placement& candidate : stage_order_candidates(scenario, start, limit, network)) {
    if (!placement_problem(scenario, candidate, scenario.only_job().check_memory).empty()) continue;
    if (bound && cannot_beat(bound(candidate), best.time_s)) continue;
    const double t = time_s(candidate);
    if (t < best.time_s) best = {std::move(candidate), t};
  }
  return best;
}

}  // namespace hulk
