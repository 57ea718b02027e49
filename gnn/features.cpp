#include "gnn/features.hpp"

#include <cmath>

#include "sim/core/errors.hpp"

namespace hulk::gnn {

GraphTensors to_tensors(const ClusterGraph& g, int p_max) {
  if (g.pp > p_max)
    throw InputError("", 0, "job.parallelism.pp",
                     "the GNN model supports at most " + std::to_string(p_max) + " pipeline stages, the job has " +
                         std::to_string(g.pp));
  const int H = g.hosts, E = static_cast<int>(g.edges.size());
  constexpr int FN = kNodeFeatures + kJobFeatures, FS = kStageFeatures + kJobFeatures;
  GraphTensors t;
  t.pp = g.pp;
  t.p_max = p_max;
  t.nodes = torch::zeros({H, FN});
  auto nodes = t.nodes.accessor<float, 2>();
  for (int v = 0; v < H; ++v) {
    for (int i = 0; i < kNodeFeatures; ++i) nodes[v][i] = g.node_features[v][i];
    for (int i = 0; i < kJobFeatures; ++i) nodes[v][kNodeFeatures + i] = g.job_features[i];
  }
  t.edge_src = torch::empty({E}, torch::kInt64);
  t.edge_dst = torch::empty({E}, torch::kInt64);
  t.edges = torch::empty({E, kEdgeFeatures});
  auto src = t.edge_src.accessor<std::int64_t, 1>();
  auto dst = t.edge_dst.accessor<std::int64_t, 1>();
  auto ef = t.edges.accessor<float, 2>();
  std::vector<float> in_deg(H, 0.0f);
  for (int e = 0; e < E; ++e) {
    src[e] = g.edges[e].src;
    dst[e] = g.edges[e].dst;
    in_deg[g.edges[e].dst] += 1.0f;
    for (int i = 0; i < kEdgeFeatures; ++i) ef[e][i] = g.edges[e].features[i];
  }
  t.inv_in_degree = torch::empty({H, 1});
  auto inv = t.inv_in_degree.accessor<float, 2>();
  for (int v = 0; v < H; ++v) inv[v][0] = 1.0f / std::max(1.0f, in_deg[v]);
  t.stages = torch::zeros({p_max, FS});
  auto st = t.stages.accessor<float, 2>();
  for (int k = 0; k < g.pp; ++k) {
    for (int i = 0; i < kStageFeatures; ++i) st[k][i] = g.stage_features[k][i];
    for (int i = 0; i < kJobFeatures; ++i) st[k][kStageFeatures + i] = g.job_features[i];
  }
  t.role_mask = torch::zeros({p_max + 1}, torch::kBool);
  t.role_mask.slice(0, 0, g.pp).fill_(true);
  t.role_mask[p_max] = true;
  t.host_weight = torch::empty({H});
  auto w = t.host_weight.accessor<float, 1>();
  double total = 0;
  for (int v = 0; v < H; ++v) total += g.host_gpus[v];
  for (int v = 0; v < H; ++v) w[v] = static_cast<float>(g.host_gpus[v] / std::max(1.0, total));
  // Smoothing: a role the reference gives none of a host's GPUs is unlikely, not impossible (log(0.1/...)).
  t.reference_prior = torch::zeros({H, p_max + 1});
  if (!g.reference_counts.empty()) {
    auto prior = t.reference_prior.accessor<float, 2>();
    for (int v = 0; v < H; ++v) {
      const double denom = g.host_gpus[v] + 0.1 * (g.pp + 1);
      for (int k = 0; k < g.pp; ++k) prior[v][k] = static_cast<float>(std::log((g.reference_counts[v][k] + 0.1) / denom));
      prior[v][p_max] = static_cast<float>(std::log((g.reference_counts[v][g.pp] + 0.1) / denom));
    }
  }
  return t;
}

torch::Tensor role_targets(const RoleCounts& counts, int pp, int p_max, bool reversed) {
  const int H = static_cast<int>(counts.size());
  torch::Tensor y = torch::zeros({H, p_max + 1});
  auto a = y.accessor<float, 2>();
  for (int h = 0; h < H; ++h) {
    int total = 0;
    for (int r = 0; r <= pp; ++r) total += counts[h][r];
    if (total == 0) continue;
    for (int k = 0; k < pp; ++k) a[h][reversed ? pp - 1 - k : k] = static_cast<float>(counts[h][k]) / total;
    a[h][p_max] = static_cast<float>(counts[h][pp]) / total;
  }
  return y;
}

RoleScores scores_from_logits(const torch::Tensor& logits, int pp) {
  const int H = static_cast<int>(logits.size(0)), p_max = static_cast<int>(logits.size(1)) - 1;
  torch::Tensor logp = torch::log_softmax(logits.to(torch::kFloat), 1).contiguous();
  auto a = logp.accessor<float, 2>();
  RoleScores s;
  s.hosts = H;
  s.roles = pp + 1;
  s.values.resize(static_cast<std::size_t>(H) * (pp + 1));
  for (int h = 0; h < H; ++h) {
    for (int k = 0; k < pp; ++k) s.values[static_cast<std::size_t>(h) * (pp + 1) + k] = a[h][k];
    s.values[static_cast<std::size_t>(h) * (pp + 1) + pp] = a[h][p_max];
  }
  return s;
}

}  // namespace hulk::gnn
