#include "sim/features/cluster_graph.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/huge_page_allocator.hpp"

namespace hulk {

namespace {

constexpr double kTiny = 1e-12;

// log10 of a positive quantity; values <= 0 (absent) map to the floor so that features stay finite.
double log10_pos(double x) { return std::log10(std::max(x, kTiny)); }

float clampf(double x, double lo, double hi) { return static_cast<float>(std::min(hi, std::max(lo, x))); }

std::size_t idx(int hosts, int a, int b) { return static_cast<std::size_t>(a) * hosts + b; }

/** Each host's role in the reference placement: GPUs used, sum of stage positions (0 first .. 1 last), whether it
 *  holds the first / last stage. All zero without a reference. */
struct ReferenceRoles {
  std::vector<int> used;
  std::vector<double> pos;
  std::vector<char> first, last;
};

ReferenceRoles reference_roles(const Placement* reference, int H, int pp, int group) {
  ReferenceRoles roles{std::vector<int>(H, 0), std::vector<double>(H, 0.0), std::vector<char>(H, 0),
                       std::vector<char>(H, 0)};
  if (!reference) return roles;
  for (std::size_t r = 0; r < reference->gpu_of_rank.size(); ++r) {
    const int h = reference->gpu_of_rank[r].host, stage = static_cast<int>(r) / group;
    if (h < 0 || h >= H) continue;
    ++roles.used[h];
    roles.pos[h] += pp > 1 ? static_cast<double>(stage) / (pp - 1) : 0.5;
    roles.first[h] |= stage == 0;
    roles.last[h] |= stage == pp - 1;
  }
  return roles;
}

/** Route latency and bottleneck bandwidth of every ordered host pair (H^2; 1M entries at 1,024 hosts, cheap), from
 *  the one route model the engine simulates. */
struct RouteMatrix {
  HugePageVector<double> lat, bw;
};

RouteMatrix route_matrix(const PlatformSpec& P, const RouteModel* network) {
  const int H = static_cast<int>(P.hosts.size());
  RouteMatrix m;
  m.lat.resize(static_cast<std::size_t>(H) * H);
  m.bw.resize(static_cast<std::size_t>(H) * H);
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b) {
      const HostRoute r = network ? route_between(*network, a, b) : route_between(P, a, b);
      m.lat[idx(H, a, b)] = r.latency_s;
      m.bw[idx(H, a, b)] = r.bandwidth_Bps;
    }
  return m;
}

/** Platform-wide totals the node features compare each host with. */
struct PlatformTotals {
  int total_gpus = 1;
  std::vector<int> region_gpus, region_hosts;
  double mean_host_compute = 0;  ///< flop/s of all GPUs of a host, mean over hosts
  double max_stage_mem = 0;      ///< largest per-GPU stage peak memory, bytes
};

PlatformTotals platform_totals(const Scenario& scenario, const ClusterGraph& g) {
  const PlatformSpec& P = scenario.platform;
  const JobSpec& job = scenario.only_job();
  PlatformTotals t;
  t.total_gpus = std::max(1, P.total_gpus());
  const int R = std::max<int>(1, static_cast<int>(P.regions.size()));
  t.region_gpus.assign(R, 0);
  t.region_hosts.assign(R, 0);
  double total_compute = 0;
  for (const HostSpec& h : P.hosts) {
    t.region_gpus.at(h.region) += h.gpus;
    t.region_hosts.at(h.region) += 1;
    total_compute += h.gpus * h.gpu.peak_flops(job.precision) * job.utilisation;
  }
  t.mean_host_compute = total_compute / std::max(1, static_cast<int>(P.hosts.size()));
  for (double m : g.stage_peak_memory_bytes) t.max_stage_mem = std::max(t.max_stage_mem, m);
  return t;
}

/** Node features of host v. */
std::array<float, kNodeFeatures> node_features(const Scenario& scenario, const ClusterGraph& g, const PlatformTotals& t,
                                              const RouteMatrix& routes, const ReferenceRoles& roles, int v) {
  const PlatformSpec& P = scenario.platform;
  const JobSpec& job = scenario.only_job();
  const int H = static_cast<int>(P.hosts.size()), pp = job.par.pp, group = job.par.dp * job.par.tp;
  const HostSpec& h = P.hosts[v];
  const double flops = h.gpu.peak_flops(job.precision) * job.utilisation;
  double sum_lat = 0, sum_lat_other = 0, min_lat_other = 0;
  int n_other = 0;
  for (int u = 0; u < H; ++u) {
    if (u == v) continue;
    const double lat = routes.lat[idx(H, v, u)];
    sum_lat += lat;
    if (P.hosts[u].region != h.region) {
      sum_lat_other += lat;
      min_lat_other = n_other == 0 ? lat : std::min(min_lat_other, lat);
      ++n_other;
    }
  }
  const double mean_lat = H > 1 ? sum_lat / (H - 1) : 0;
  const double mean_lat_other = n_other ? sum_lat_other / n_other : mean_lat;
  if (!n_other) min_lat_other = mean_lat;
  int fits = 0;
  for (double m : g.stage_peak_memory_bytes) fits += m <= h.gpu.memory_bytes ? 1 : 0;
  std::array<float, kNodeFeatures> f{};
  f[0] = static_cast<float>(std::log2(std::max(1, h.gpus)) / 3.0);
  f[1] = clampf(log10_pos(flops) - 14.0, -4, 4);
  f[2] = clampf(log10_pos(h.gpu.memory_bytes) - 10.0, -4, 4);
  f[3] = static_cast<float>(static_cast<double>(t.region_gpus.at(h.region)) / t.total_gpus);
  f[4] = static_cast<float>(static_cast<double>(t.region_hosts.at(h.region)) / std::max(1, H));
  f[5] = clampf(log10_pos(mean_lat) + 2.0, -5, 3);
  f[6] = clampf(log10_pos(mean_lat_other) + 2.0, -5, 3);
  f[7] = clampf(log10_pos(h.host_link.bandwidth_Bps) - 10.0, -4, 4);
  f[8] = clampf(log10_pos(h.intra_link.bandwidth_Bps) - 10.0, -4, 4);
  f[9] = static_cast<float>(static_cast<double>(fits) / std::max(1, pp));
  f[10] = clampf(std::log2(std::max(h.gpu.memory_bytes, 1.0) / std::max(t.max_stage_mem, 1.0)) / 4.0, -1.5, 1.5);
  f[11] = clampf(std::log2(std::max(h.gpus * flops, 1.0) / std::max(t.mean_host_compute, 1.0)) / 3.0, -2, 2);
  f[12] = clampf(log10_pos(min_lat_other) + 2.0, -5, 3);
  f[13] = clampf(std::log2(static_cast<double>(h.gpus) / std::max(1, group)) / 4.0, -2, 2);
  f[14] = static_cast<float>(static_cast<double>(roles.used[v]) / std::max(1, h.gpus));
  f[15] = roles.used[v] ? static_cast<float>(roles.pos[v] / roles.used[v]) : 0.0f;
  f[16] = roles.first[v] ? 1.0f : 0.0f;
  f[17] = roles.last[v] ? 1.0f : 0.0f;
  return f;
}

/** Edge set: each host's k nearest by latency + every pair with traffic, symmetrised (a bitmap keeps it ordered). */
std::vector<char> edge_bitmap(int H, const RouteMatrix& routes, const TrafficMatrix* traffic, int k) {
  std::vector<char> adj(static_cast<std::size_t>(H) * H, 0);
  std::vector<int> order(H);
  for (int v = 0; v < H; ++v) {
    if (k <= 0 || k >= H - 1) {
      for (int u = 0; u < H; ++u) adj[idx(H, v, u)] = u != v;
      continue;
    }
    order.resize(H);
    std::iota(order.begin(), order.end(), 0);
    order.erase(order.begin() + v);
    auto closer = [&](int x, int y) {
      const double lx = routes.lat[idx(H, v, x)], ly = routes.lat[idx(H, v, y)];
      return lx != ly ? lx < ly : x < y;
    };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), closer);
    for (int i = 0; i < k; ++i) adj[idx(H, v, order[i])] = adj[idx(H, order[i], v)] = 1;
    for (int u = 0; u < H; ++u) {
      if (u == v) continue;
      if (traffic && traffic->any_between(v, u))
        adj[idx(H, v, u)] = adj[idx(H, u, v)] = 1;
    }
  }
  return adj;
}

/** The edge a -> b with its raw values and features. */
GraphEdge make_edge(const PlatformSpec& P, const RouteMatrix& routes, const TrafficMatrix* traffic, int a, int b) {
  const int H = static_cast<int>(P.hosts.size());
  GraphEdge e;
  e.src = a;
  e.dst = b;
  e.latency_s = routes.lat[idx(H, a, b)];
  e.bandwidth_Bps = routes.bw[idx(H, a, b)];
  e.same_region = P.hosts[a].region == P.hosts[b].region;
  for (int c = 0; c < kCommKinds; ++c) {
    e.traffic_bytes[c] = traffic ? traffic->bytes[c][idx(H, a, b)] : 0.0;
    e.traffic_busy_s[c] = traffic ? traffic->busy_s[c][idx(H, a, b)] : 0.0;
  }
  auto& f = e.features;
  f[0] = clampf(log10_pos(e.latency_s) + 2.0, -5, 3);
  f[1] = clampf(log10_pos(e.bandwidth_Bps) - 10.0, -4, 4);
  f[2] = e.same_region ? 1.0f : 0.0f;
  // Time to move 100 MB (a typical gradient bucket): mixes latency and bandwidth on one scale.
  f[3] = clampf(log10_pos(e.latency_s + 1e8 / std::max(e.bandwidth_Bps, 1.0)) + 1.0, -5, 5);
  for (int c = 0; c < kCommKinds; ++c) {
    f[4 + c] = static_cast<float>(std::log10(1.0 + e.traffic_bytes[c] / 1e6) / 3.0);
    f[7 + c] = static_cast<float>(std::log10(1.0 + e.traffic_busy_s[c] * 1e3) / 3.0);
  }
  f[10] = traffic ? 1.0f : 0.0f;
  const double nic = std::min(P.hosts[a].host_link.bandwidth_Bps, P.hosts[b].host_link.bandwidth_Bps);
  f[11] = clampf(std::log2(std::max(e.bandwidth_Bps, 1.0) / std::max(nic, 1.0)) / 4.0, -4, 1);
  return e;
}

std::array<float, kJobFeatures> job_features(const JobSpec& job, const JobCost& cost, int total_gpus) {
  const int pp = job.par.pp, group = job.par.dp * job.par.tp;
  double total_flops = 0, mean_grad = 0;
  for (const StageCost& s : cost.stages) {
    total_flops += 3.0 * s.fwd_flops_per_mb() * cost.micro_batches * group;
    mean_grad += s.dp_grad_bytes / pp;
  }
  std::array<float, kJobFeatures> j{};
  j[0] = static_cast<float>(std::log2(job.par.dp) / 4.0);
  j[1] = static_cast<float>(std::log2(job.par.tp) / 3.0);
  j[2] = static_cast<float>(std::log2(pp) / 4.0);
  j[3] = static_cast<float>(std::log2(std::max(1, cost.micro_batches)) / 5.0);
  j[4] = clampf(log10_pos(total_flops) - 16.0, -5, 5);
  j[5] = clampf(log10_pos(cost.pp_message_bytes) - 7.0, -5, 5);
  j[6] = clampf(log10_pos(cost.tp_allreduce_bytes) - 7.0, -5, 5);
  j[7] = clampf(log10_pos(mean_grad) - 9.0, -5, 5);
  j[8] = static_cast<float>(static_cast<double>(job.par.ranks()) / total_gpus);
  j[9] = static_cast<float>(std::log2(std::max(1, job.model.layers)) / 6.0);
  j[10] = static_cast<float>(std::log2(std::max(1, job.model.hidden)) / 13.0);
  j[11] = job.schedule == "gpipe" ? 1.0f : 0.0f;
  return j;
}

std::array<float, kStageFeatures> stage_features(const PlatformSpec& P, const JobSpec& job, const StageCost& st, int s,
                                                 int total_gpus) {
  const int pp = job.par.pp, group = job.par.dp * job.par.tp;
  int fit_gpus = 0;
  for (const HostSpec& h : P.hosts) fit_gpus += st.peak_memory_bytes <= h.gpu.memory_bytes ? h.gpus : 0;
  std::array<float, kStageFeatures> f{};
  const double denom = std::max(1, pp - 1);
  f[0] = static_cast<float>(s / denom);
  f[1] = s == 0 ? 1.0f : 0.0f;
  f[2] = s == pp - 1 ? 1.0f : 0.0f;
  f[3] = static_cast<float>(2.0 * std::min(s, pp - 1 - s) / denom);
  f[4] = clampf(log10_pos(st.fwd_flops_per_mb()) - 12.0, -5, 5);
  f[5] = clampf(log10_pos(st.peak_memory_bytes) - 10.0, -5, 5);
  f[6] = clampf(log10_pos(st.params) - 9.0, -5, 5);
  f[7] = clampf(log10_pos(st.dp_grad_bytes) - 9.0, -5, 5);
  f[8] = static_cast<float>(static_cast<double>(fit_gpus) / total_gpus);
  f[9] = static_cast<float>(static_cast<double>(group) / total_gpus);
  return f;
}

}  // namespace

ClusterGraph build_cluster_graph(const Scenario& scenario, const TrafficMatrix* traffic, const GraphOptions& options,
                                 const Placement* reference, const RouteModel* network) {
  const PlatformSpec& P = scenario.platform;
  const JobSpec& job = scenario.only_job();
  const int H = static_cast<int>(P.hosts.size());
  if (traffic && traffic->hosts != H)
    throw InputError(scenario.file, 0, "traffic",
                     "traffic matrix has " + std::to_string(traffic->hosts) + " hosts, platform has " +
                         std::to_string(H));
  const JobCost cost = compute_job_cost(job);
  const int pp = job.par.pp, group = job.par.dp * job.par.tp;
  if (reference && static_cast<int>(reference->gpu_of_rank.size()) != job.par.ranks())
    throw InputError(scenario.file, 0, "placement",
                     "reference placement has " + std::to_string(reference->gpu_of_rank.size()) + " ranks, the job has " +
                         std::to_string(job.par.ranks()));
  const ReferenceRoles roles = reference_roles(reference, H, pp, group);
  const int total_gpus = std::max(1, P.total_gpus());

  ClusterGraph g;
  g.hosts = H;
  g.pp = pp;
  for (const StageCost& s : cost.stages) g.stage_peak_memory_bytes.push_back(s.peak_memory_bytes);
  const RouteMatrix routes = route_matrix(P, network);
  const PlatformTotals totals = platform_totals(scenario, g);

  for (int v = 0; v < H; ++v) {
    const HostSpec& h = P.hosts[v];
    g.host_gpus.push_back(h.gpus);
    g.host_gpu_memory_bytes.push_back(h.gpu.memory_bytes);
    g.host_gpu_flops.push_back(h.gpu.peak_flops(job.precision) * job.utilisation);
    if (reference) {
      std::vector<int> counts(pp + 1, 0);
      counts[pp] = h.gpus - roles.used[v];
      g.reference_counts.push_back(counts);
    }
    g.node_features.push_back(node_features(scenario, g, totals, routes, roles, v));
  }
  if (reference)
    for (std::size_t r = 0; r < reference->gpu_of_rank.size(); ++r) {
      const int h = reference->gpu_of_rank[r].host;
      if (h >= 0 && h < H) ++g.reference_counts[h][static_cast<int>(r) / group];
    }

  const std::vector<char> adj = edge_bitmap(H, routes, traffic, options.nearest_neighbours);
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b)
      if (adj[idx(H, a, b)]) g.edges.push_back(make_edge(P, routes, traffic, a, b));

  g.job_features = job_features(job, cost, total_gpus);
  for (int s = 0; s < pp; ++s) g.stage_features.push_back(stage_features(P, job, cost.stages[s], s, total_gpus));
  return g;
}

}  // namespace hulk
