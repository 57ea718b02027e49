#pragma once
/** @file cluster_graph.hpp
 *  @brief The cluster as a graph for the learned placer: hosts are nodes, host pairs are edges, plus job and
 *  per-stage features. Pure code (no SimGrid, no torch): gnn/ turns a ClusterGraph into tensors.
 *
 *  Every feature is a float already normalised here (log scales with fixed offsets so that typical values land
 *  in [-3, 3]); the raw physical values used to compute them are kept next to them (SI units) so tests can check
 *  the route model and the traffic aggregation against closed forms. */
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "sim_result.hpp"
#include "spec.hpp"

namespace hulk {

/** @brief Parallelism kind of a communication, as an index into TrafficMatrix arrays. */
enum class CommKind { dp = 0, tp = 1, pp = 2 };
/** @brief Number of CommKind values. */
constexpr int kCommKinds = 3;

/** @brief "dp" | "tp" | "pp" -> CommKind. @throws InputError (key "kind") for anything else. */
CommKind comm_kind_from_string(const std::string& kind);

/** @brief Traffic between host pairs, per parallelism kind, per iteration (from a simulated reference
 *  placement). Symmetric: entry (a, b) == (b, a) holds the traffic of both directions. Diagonal (same-host
 *  traffic) is kept too. */
struct TrafficMatrix {
  int hosts = 0;
  /** @brief bytes[kind][a * hosts + b]: bytes exchanged between hosts a and b per iteration (both directions). */
  std::array<std::vector<double>, kCommKinds> bytes;
  /** @brief busy_s[kind][a * hosts + b]: seconds per iteration during which at least one message of this kind
   *  was in flight between a and b (union of [start_s, end_s] intervals, both directions). */
  std::array<std::vector<double>, kCommKinds> busy_s;

  /** @brief An all-zero matrix for `hosts` hosts. */
  static TrafficMatrix zeros(int hosts);
  /** @brief Bytes per iteration between a and b of one kind. */
  double bytes_between(CommKind kind, int a, int b) const {
    return bytes[static_cast<int>(kind)][static_cast<std::size_t>(a) * hosts + b];
  }
  /** @brief Busy seconds per iteration between a and b of one kind. */
  double busy_between(CommKind kind, int a, int b) const {
    return busy_s[static_cast<int>(kind)][static_cast<std::size_t>(a) * hosts + b];
  }
  /** @brief True if any traffic (any kind) flows between a and b. */
  bool any_between(int a, int b) const;
};

/** @brief Aggregates communication events (comm.csv rows) into a TrafficMatrix: bytes summed, busy time as the
 *  union of message intervals, both divided by the number of distinct iterations seen.
 *  @throws InputError if an event names an unknown kind or a host outside the platform. */
TrafficMatrix traffic_from_events(const PlatformSpec& platform, const std::vector<CommEvent>& events);

/** @brief Latency and bottleneck bandwidth of the route between two hosts (DESIGN.md platform model):
 *  same host: intra_link; same region: NIC_a + NIC_b (latency sum, bandwidth min); different regions:
 *  NIC_a + WAN[ra][rb] + NIC_b. host_pair_latency_s / host_pair_bandwidth_Bps override when present. */
struct HostRoute {
  double latency_s = 0;
  double bandwidth_Bps = 0;
};
/** @brief The route between hosts a and b (order does not matter). */
HostRoute route_between(const PlatformSpec& platform, int a, int b);

/** @brief Feature vector sizes (fixed: a model file records them and refuses a mismatch). */
constexpr int kNodeFeatures = 18;
constexpr int kEdgeFeatures = 12;
constexpr int kJobFeatures = 12;
constexpr int kStageFeatures = 10;

/** @brief Options of graph construction. */
struct GraphOptions {
  /** @brief Each host gets edges to its k lowest-latency other hosts (ties by index; in practice its own region
   *  first), plus every pair that carries reference traffic; symmetrised. Keeps the edge count ~H*k
   *  instead of H^2 so that inference on 1,024 GPUs stays fast. 0 = complete graph. */
  int nearest_neighbours = 24;
};

/** @brief One directed edge of the graph with its raw and normalised features. */
struct GraphEdge {
  int src = 0;
  int dst = 0;
  double latency_s = 0;       ///< route latency
  double bandwidth_Bps = 0;   ///< route bottleneck bandwidth
  bool same_region = false;
  std::array<double, kCommKinds> traffic_bytes{};  ///< per iteration, from the TrafficMatrix (0 if none)
  std::array<double, kCommKinds> traffic_busy_s{}; ///< per iteration
  std::array<float, kEdgeFeatures> features{};
};

/** @brief The featurised cluster + job. */
struct ClusterGraph {
  int hosts = 0;
  int pp = 1;                                        ///< pipeline stages of the job
  std::vector<std::array<float, kNodeFeatures>> node_features;  ///< [hosts]
  std::vector<GraphEdge> edges;                      ///< directed, both directions present, sorted (src, dst)
  std::array<float, kJobFeatures> job_features{};
  std::vector<std::array<float, kStageFeatures>> stage_features;  ///< [pp]
  std::vector<double> stage_peak_memory_bytes;       ///< [pp] per-GPU peak memory of each stage
  std::vector<int> host_gpus;                        ///< [hosts]
  std::vector<double> host_gpu_memory_bytes;         ///< [hosts] per GPU
  std::vector<double> host_gpu_flops;                ///< [hosts] per GPU, peak at precision x utilisation
  /** @brief [hosts][pp + 1]: GPUs of each host per role in the reference placement (last column = unused);
   *  empty without a reference. */
  std::vector<std::vector<int>> reference_counts;
};

/** @brief Builds the graph of a scenario. traffic may be nullptr (no reference run): traffic features are then
 *  zero and a flag feature says so. reference (the placement whose traffic `traffic` is) may be nullptr: its
 *  per-host role features (share of the host's GPUs used, mean stage position, holds the first / last stage) are
 *  then zero. @throws InputError if traffic has the wrong host count or reference the wrong rank count. */
ClusterGraph build_cluster_graph(const Scenario& scenario, const TrafficMatrix* traffic,
                                 const GraphOptions& options = {}, const Placement* reference = nullptr);

}  // namespace hulk
