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

#include "sim/core/sim_result.hpp"
#include "sim/core/traffic_matrix.hpp"
#include "sim/topology/host_route.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

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
 *  then zero. network: the platform's route model if the caller has one (the same routes, not built again),
 *  else nullptr. @throws InputError if traffic has the wrong host count or reference the wrong rank count. */
ClusterGraph build_cluster_graph(const Scenario& scenario, const TrafficMatrix* traffic,
                                 const GraphOptions& options = {}, const Placement* reference = nullptr,
                                 const RouteModel* network = nullptr);

}  // namespace hulk
