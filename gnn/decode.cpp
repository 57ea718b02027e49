#include "gnn/decode.hpp"

#include "sim/place/placer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>
#include <utility>

#include "sim/features/cluster_graph.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"

namespace hulk::gnn {

namespace {

// Min-cost flow with successive shortest paths. A source's own edges may cost less than zero: add_supply gives
// each new source a potential that makes them non-negative, so no Dijkstra needs Bellman-Ford; potentials keep
// later reduced costs non-negative.
//
// Why not Boost.Graph's successive_shortest_path_nonnegative_weights (Boost 1.74): measured on the 2-core
// build machine, g++ -O2, both solving the same match_roles-shaped network (Boost with a super source), random real
// scores, two runs each (hand-written vs Boost): 8 hosts x 4 GPUs, pp 2: 0.008-0.010 vs 0.008-0.022 ms;
// 16 x 8, pp 4: 0.02-0.04 vs 0.04-0.10 ms; 64 x 8, pp 4: 0.21-0.57 vs 0.73-0.88 ms; 256 x 4, pp 8: 4.0-5.1 vs
// 8.0-10.7 ms; 1,024 x 1, pp 8: 77-85 vs 199-200 ms. Boost is 1.1-3.4x slower, typically 2-2.6x: it runs a full
// Dijkstra from the super source per augmenting path, this one adds one host's supply at a time and stops each
// search at the sink. It would also change decoded placements: with tied costs (identical hosts get identical
// scores; scores on a 0.25 grid) Boost returns another optimum of the same cost (16 of 2,304 host->role flows
// differed at 256 hosts, 80 of 9,216 at 1,024). And Boost's Dijkstra throws negative_edge if rounding makes a
// reduced cost slightly negative (not seen in these runs), which the clamp below absorbs. Kept hand-written.
// (Measured on the network of then, whose sources were the hosts; match_roles' sources are now the stages.)
class MinCostFlow {
 public:
  explicit MinCostFlow(int n) : graph_(n) {}
  int add_edge(int from, int to, int cap, double cost) {
    graph_[from].push_back(static_cast<int>(edges_.size()));
    edges_.push_back({to, cap, cost});
    graph_[to].push_back(static_cast<int>(edges_.size()));
    edges_.push_back({from, 0, -cost});
    return static_cast<int>(edges_.size()) - 2;
  }
  int flow_on(int edge) const { return edges_[edge ^ 1].cap; }
  /** Adds the supply of node `src` (`amount` units) to a min-cost flow and routes it to t along successive
   *  shortest paths from src (the incremental form of successive shortest paths, as the Hungarian method adds
   *  one row at a time: the flow stays min-cost for the supplies added so far). Returns the units routed.
   *  Searching from one source, with an early exit at t, touches fewer nodes than a search from a super
   *  source over all of them. */
  int add_supply(int src, int t, int amount) {
    const int n = static_cast<int>(graph_.size());
    if (pot_.size() != static_cast<std::size_t>(n)) pot_.assign(n, 0.0);
    // src has no incoming residual edge yet (no flow through it): any potential making its outgoing reduced
    // costs non-negative keeps the invariant.
    double p = -std::numeric_limits<double>::infinity();
    for (int id : graph_[src])
      if (edges_[id].cap > 0) p = std::max(p, pot_[edges_[id].to] - edges_[id].cost);
    pot_[src] = std::isfinite(p) ? p : 0.0;
    std::vector<double> dist(n);
    std::vector<int> prev_edge(n);
    const double inf = std::numeric_limits<double>::infinity();
    int routed = 0;
    while (routed < amount) {
      std::fill(dist.begin(), dist.end(), inf);
      std::fill(prev_edge.begin(), prev_edge.end(), -1);
      dist[src] = 0;
      using Item = std::pair<double, int>;
      std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
      pq.push({0.0, src});
      while (!pq.empty()) {
        auto [d, u] = pq.top();
        pq.pop();
        if (d > dist[u]) continue;
        if (u == t) break;  // early exit: nodes not settled get potential += dist[t] below (still feasible)
        for (int id : graph_[u]) {
          const Edge& e = edges_[id];
          if (e.cap <= 0) continue;
          // Rounding can make a reduced cost slightly negative; clamping keeps Dijkstra's invariant.
          const double nd = d + std::max(0.0, e.cost + pot_[u] - pot_[e.to]);
          if (nd < dist[e.to]) {
            dist[e.to] = nd;
            prev_edge[e.to] = id;
            pq.push({nd, e.to});
          }
        }
      }
      if (dist[t] == inf) break;
      // Johnson potentials with early exit: settled nodes (dist <= dist[t]) get their distance, all others
      // dist[t]; reduced costs stay non-negative on every residual edge.
      for (int v = 0; v < n; ++v) pot_[v] += std::min(dist[v], dist[t]);
      int push = amount - routed;
      for (int v = t; v != src; v = edges_[prev_edge[v] ^ 1].to) push = std::min(push, edges_[prev_edge[v]].cap);
      for (int v = t; v != src; v = edges_[prev_edge[v] ^ 1].to) {
        edges_[prev_edge[v]].cap -= push;
        edges_[prev_edge[v] ^ 1].cap += push;
      }
      routed += push;
    }
    return routed;
  }

 private:
  struct Edge {
    int to;
    int cap;
    double cost;
  };
  std::vector<std::vector<int>> graph_;
  std::vector<Edge> edges_;
  std::vector<double> pot_;
};

std::vector<double> stage_memory(const Scenario& s) {
  std::vector<double> mem;
  for (const StageCost& st : compute_job_cost(s.only_job()).stages) mem.push_back(st.peak_memory_bytes);
  return mem;
}

bool fits(const Scenario& s, const std::vector<double>& mem, int stage, int host) {
  return !s.only_job().check_memory || mem[stage] <= s.platform.hosts[host].gpu.memory_bytes;
}

std::string fmt_gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  return buf;
}

/** Replica groups of stage k (k >= 1) in dp order: group g becomes replica d so that the total cost of the
 *  hand-offs (stage k-1, d, t) -> (stage k, d, t) is minimal (an assignment problem, solved exactly by min-cost
 *  flow). Measured platforms have very uneven host-pair latencies: pairing replicas by region only can put a
 *  pipeline on a slow pair while a fast one sits unused. Cost of a pair: route latency + message / bandwidth. */
std::vector<std::vector<GpuSlot>> follow_previous_stage(const Scenario& s, const Placement& p, int k,
                                                        std::vector<std::vector<GpuSlot>> groups, double pp_bytes) {
  const int dp = s.only_job().par.dp, tp = s.only_job().par.tp;
  if (dp < 2) return groups;
  auto cost = [&](int d, const std::vector<GpuSlot>& g) {
    double c = 0;
    for (int t = 0; t < tp; ++t) {
      const HostRoute r =
          route_between(s.platform, p.gpu_of_rank[(static_cast<std::size_t>(k - 1) * dp + d) * tp + t].host, g[t].host);
      c += r.latency_s + (r.bandwidth_Bps > 0 ? pp_bytes / r.bandwidth_Bps : 0.0);
    }
    return c;
  };
  // Nodes: replicas 0..dp-1, groups dp..2dp-1, sink 2dp.
  MinCostFlow mcf(2 * dp + 1);
  std::vector<std::vector<int>> edge(dp, std::vector<int>(dp));
  for (int d = 0; d < dp; ++d)
    for (int g = 0; g < dp; ++g) edge[d][g] = mcf.add_edge(d, dp + g, 1, cost(d, groups[g]));
  for (int g = 0; g < dp; ++g) mcf.add_edge(dp + g, 2 * dp, 1, 0.0);
  for (int d = 0; d < dp; ++d) mcf.add_supply(d, 2 * dp, 1);
  std::vector<std::vector<GpuSlot>> ordered(dp);
  for (int d = 0; d < dp; ++d)
    for (int g = 0; g < dp; ++g)
      if (mcf.flow_on(edge[d][g]) > 0) ordered[d] = groups[g];
  return ordered;
}

}  // namespace

RoleCounts match_roles(const Scenario& s, const RoleScores& scores) {
  const int H = static_cast<int>(s.platform.hosts.size());
  const int pp = s.only_job().par.pp, group = s.only_job().par.dp * s.only_job().par.tp;
  const int total = s.platform.total_gpus();
  if (scores.hosts != H || scores.roles != pp + 1 ||
      scores.values.size() != static_cast<std::size_t>(H) * (pp + 1))
    throw InputError(s.file, 0, "placement",
                     "score matrix is " + std::to_string(scores.hosts) + "x" + std::to_string(scores.roles) +
                         ", expected " + std::to_string(H) + "x" + std::to_string(pp + 1));
  if (pp * group > total)
    throw InputError(s.file, 0, "job.parallelism",
                     "no valid placement: the job needs " + std::to_string(pp * group) + " GPUs, the platform has " +
                         std::to_string(total));
  const std::vector<double> mem = stage_memory(s);

  // Sanitised scores: +-1e6 at most, non-finite ones as the lowest.
  constexpr double kLow = -1e6;
  auto clean = [&](int h, int r) {
    const double v = scores.at(h, r);
    return std::isfinite(v) ? std::max(kLow, std::min(-kLow, v)) : kLow;
  };

  // Every GPU takes a role, so only the GPUs taken by stages are a choice: a host's GPUs are unused unless a stage
  // takes them, and giving one unit of host h to stage r instead costs clean(h, unused) - clean(h, r). The flow
  // runs from the stages (sources, group / unit units each) through the hosts (capacity: their units) to the
  // sink: pp x group / unit units in all, however many hosts there are. Why: routing every host's GPUs, most of
  // them to "unused", cost one shortest-path search per host over all hosts, O(hosts^2) per decode (23 s for
  // the gnn method at 4,094 single-GPU hosts, 70% of it here).
  // Units of `unit` GPUs: first whole TP groups (a TP group split over two hosts runs its per-layer all-reduces
  // over the NICs: observed 600x slower TP on a measured platform), GPUs one by one if groups cannot fill the job.
  RoleCounts failed_counts;  // the GPU-level attempt's partial answer, for the error message
  auto solve = [&](int unit) -> std::optional<RoleCounts> {
    const int sink = pp + H;
    int units = 0;
    for (int h = 0; h < H; ++h) units += s.platform.hosts[h].gpus / unit;
    if (unit > 1 && (group % unit != 0 || units * unit < pp * group)) return std::nullopt;
    MinCostFlow mcf(pp + H + 1);
    std::vector<std::vector<int>> edge_id(H, std::vector<int>(pp, -1));
    for (int r = 0; r < pp; ++r)
      for (int h = 0; h < H; ++h)
        if (fits(s, mem, r, h))
          edge_id[h][r] = mcf.add_edge(r, pp + h, s.platform.hosts[h].gpus / unit, unit * (clean(h, pp) - clean(h, r)));
    for (int h = 0; h < H; ++h) mcf.add_edge(pp + h, sink, s.platform.hosts[h].gpus / unit, 0.0);
    int flow = 0;
    for (int r = 0; r < pp; ++r) flow += mcf.add_supply(r, sink, group / unit);
    RoleCounts counts(H, std::vector<int>(pp + 1, 0));
    for (int h = 0; h < H; ++h) {
      int used = 0;
      for (int r = 0; r < pp; ++r)
        if (edge_id[h][r] >= 0) used += counts[h][r] = unit * mcf.flow_on(edge_id[h][r]);
      counts[h][pp] = s.platform.hosts[h].gpus - used;  // GPUs left over by whole groups are unused too
    }
    if (flow < pp * group / unit) {
      if (unit == 1) failed_counts = counts;
      return std::nullopt;
    }
    return counts;
  };
  if (s.only_job().par.tp > 1)
    if (auto whole = solve(s.only_job().par.tp)) return *whole;
  if (auto single = solve(1)) return *single;
  std::vector<int> filled(pp + 1, 0);
  for (int h = 0; h < H; ++h)
    for (int r = 0; r <= pp; ++r) filled[r] += failed_counts[h][r];
  for (int r = 0; r < pp; ++r)
    if (filled[r] < group)
      throw InputError(s.file, 0, "job",
                       "no valid placement: stage " + std::to_string(r) + " needs " + std::to_string(group) +
                           " GPUs with at least " + fmt_gb(mem[r]) + " of memory, only " + std::to_string(filled[r]) +
                           " can be given to it");
  throw InputError(s.file, 0, "job", "no valid placement exists for this job on this platform");
}

Placement layout_placement(const Scenario& s, const RoleCounts& counts) {
  const double pp_bytes = compute_job_cost(s.only_job()).pp_message_bytes;
  const int H = static_cast<int>(s.platform.hosts.size());
  const int pp = s.only_job().par.pp, dp = s.only_job().par.dp, tp = s.only_job().par.tp;
  std::vector<int> next_slot(H, 0);
  // Hosts in (region, index) order: keeps each stage's DP replicas, and equal dp indices of neighbouring stages,
  // grouped by region.
  std::vector<int> host_order(H);
  for (int h = 0; h < H; ++h) host_order[h] = h;
  std::stable_sort(host_order.begin(), host_order.end(),
                   [&](int a, int b) { return s.platform.hosts[a].region < s.platform.hosts[b].region; });
  Placement p;
  p.gpu_of_rank.assign(static_cast<std::size_t>(pp) * dp * tp, GpuSlot{-1, -1});
  for (int k = 0; k < pp; ++k) {
    std::vector<int> left(H);
    for (int h = 0; h < H; ++h) left[h] = counts[h][k];
    std::vector<std::vector<GpuSlot>> groups;
    auto take = [&](int h) {
      --left[h];
      return GpuSlot{h, next_slot[h]++};
    };
    // Whole TP groups on one host first.
    for (int h : host_order)
      while (left[h] >= tp && static_cast<int>(groups.size()) < dp) {
        std::vector<GpuSlot> g;
        for (int t = 0; t < tp; ++t) g.push_back(take(h));
        groups.push_back(g);
      }
    // Leftover GPUs complete the remaining groups (in the same host order).
    std::vector<GpuSlot> rest;
    for (int h : host_order)
      while (left[h] > 0) rest.push_back(take(h));
    if (static_cast<int>(rest.size()) != (dp - static_cast<int>(groups.size())) * tp)
      throw std::logic_error("layout_placement: stage " + std::to_string(k) + " has the wrong number of GPUs");
    for (std::size_t i = 0; i < rest.size(); i += tp)
      groups.emplace_back(rest.begin() + static_cast<long>(i), rest.begin() + static_cast<long>(i + tp));
    if (k == 0) {
      // Order replicas by the region of their first GPU (whole groups and leftovers interleaved by region): DP
      // rings run in dp order, so neighbours in a region keep most ring hops local.
      std::stable_sort(groups.begin(), groups.end(), [&](const auto& a, const auto& b) {
        return s.platform.hosts[a[0].host].region < s.platform.hosts[b[0].host].region;
      });
    } else {
      groups = follow_previous_stage(s, p, k, std::move(groups), pp_bytes);
    }
    for (int d = 0; d < dp; ++d)
      for (int t = 0; t < tp; ++t) p.gpu_of_rank[(static_cast<std::size_t>(k) * dp + d) * tp + t] = groups[d][t];
  }
  return p;
}

Placement decode_placement(const Scenario& s, const RoleScores& scores) {
  Placement p = layout_placement(s, match_roles(s, scores));
  // The decoder's contract is "always valid": check it rather than trust it.
  const std::string problem = placement_violation(s, p);
  if (!problem.empty()) throw std::logic_error("decode_placement produced an invalid placement: " + problem);
  return p;
}

RoleCounts role_counts(const Scenario& s, const Placement& placement) {
  const int H = static_cast<int>(s.platform.hosts.size());
  const int pp = s.only_job().par.pp, group = s.only_job().par.dp * s.only_job().par.tp;
  RoleCounts c(H, std::vector<int>(pp + 1, 0));
  for (std::size_t r = 0; r < placement.gpu_of_rank.size(); ++r) {
    const int h = placement.gpu_of_rank[r].host;
    const int stage = static_cast<int>(r) / group;
    if (h < 0 || h >= H || stage >= pp) continue;
    c[h][stage] += 1;
  }
  for (int h = 0; h < H; ++h) {
    int used = 0;
    for (int k = 0; k < pp; ++k) used += c[h][k];
    c[h][pp] = std::max(0, s.platform.hosts[h].gpus - used);
  }
  return c;
}

std::string placement_violation(const Scenario& s, const Placement& placement) {
  // The project's one definition of a valid placement (sim/workload/placement_check.hpp).
  return placement_problem(s, placement, s.only_job().check_memory);
}

}  // namespace hulk::gnn
