#include "gnn/model.hpp"

#include "gnn/single_thread.hpp"

namespace hulk::gnn {

namespace nn = torch::nn;

MessageLayerImpl::MessageLayerImpl(int d, int edge_features) {
  // The first linear layer of MLP_e over [h_u, h_v, e_uv] is split into three (one bias): the same function,
  // but the node terms are computed once per node (H x d) instead of once per edge (E x d).
  edge_src_ = register_module("edge_src", nn::Linear(nn::LinearOptions(d, d).bias(false)));
  edge_dst_ = register_module("edge_dst", nn::Linear(nn::LinearOptions(d, d).bias(false)));
  edge_feat_ = register_module("edge_feat", nn::Linear(edge_features, d));
  edge_out_ = register_module("edge_out", nn::Linear(d, d));
  node_in_ = register_module("node_in", nn::Linear(2 * d, d));
  node_out_ = register_module("node_out", nn::Linear(d, d));
  norm_ = register_module("norm", nn::LayerNorm(nn::LayerNormOptions({d})));
}

torch::Tensor MessageLayerImpl::forward(const torch::Tensor& h, const GraphTensors& g) {
  const torch::Tensor hs = edge_src_(h), hd = edge_dst_(h);
  const torch::Tensor m = torch::relu(hs.index_select(0, g.edge_src) + hd.index_select(0, g.edge_dst) + edge_feat_(g.edges));
  // MLP_e's last layer is linear, so mean_u(W m_uv + b) = W mean_u(m_uv) + b: applying it after the aggregation
  // is the same function (for nodes with at least one edge) at H x d^2 instead of E x d^2 flops.
  const torch::Tensor agg = edge_out_(torch::zeros_like(h).index_add_(0, g.edge_dst, m) * g.inv_in_degree);
  torch::Tensor upd = node_out_(torch::relu(node_in_(torch::cat({h, agg}, 1))));
  return norm_(h + upd);
}

PlacementGnnImpl::PlacementGnnImpl(const ModelConfig& c) : config_(c) {
  const int d = c.hidden;
  node_enc_ = register_module("node_enc", nn::Sequential(nn::Linear(2 * kNodeFeatures + kJobFeatures, d), nn::ReLU(),
                                                         nn::Linear(d, d), nn::LayerNorm(nn::LayerNormOptions({d}))));
  stage_enc_ = register_module("stage_enc",
                               nn::Sequential(nn::Linear(kStageFeatures + kJobFeatures, d), nn::ReLU(), nn::Linear(d, d)));
  layers_ = register_module("layers", nn::ModuleList());
  for (int l = 0; l < c.layers; ++l) {
    layer_list_.push_back(MessageLayer(d, 2 * kEdgeFeatures));
    layers_->push_back(layer_list_.back());
  }
  out_node_ = register_module("out_node", nn::Linear(d, d));
  out_stage_ = register_module("out_stage", nn::Linear(nn::LinearOptions(d, d).bias(false)));
  out_global_ = register_module("out_global", nn::Linear(nn::LinearOptions(d, d).bias(false)));
  out_final_ = register_module("out_final", nn::Linear(d, 1));
  unused_ = register_module("unused", nn::Sequential(nn::Linear(2 * d, d), nn::ReLU(), nn::Linear(d, 1)));
  prior_scale_ = register_parameter("prior_scale", torch::ones({1}));
}

// Per-graph standardisation of feature columns. Placement is relative (which hosts are faster / better connected
// than the others of THIS cluster), but absolute features of hosts in one cluster often differ by a few
// hundredths (e.g. NIC 10 vs 12.5 Gbit/s): without this the first layers see nearly identical inputs, gradients
// for per-host differences nearly cancel and the model collapses to one answer for all hosts (observed).
// The floor on the spread keeps float noise in constant columns from being blown up.
torch::Tensor standardise(const torch::Tensor& x) {
  if (x.size(0) < 2) return torch::zeros_like(x);
  const torch::Tensor mu = x.mean(0, true);
  const torch::Tensor sd = (x - mu).pow(2).mean(0, true).sqrt();
  return (x - mu) / (sd + 0.05);
}

torch::Tensor PlacementGnnImpl::forward(const GraphTensors& g) {
  const torch::Tensor node_rel = standardise(g.nodes.slice(1, 0, kNodeFeatures));
  torch::Tensor h = node_enc_->forward(torch::cat({g.nodes, node_rel}, 1));
  GraphTensors with_rel_edges = g;  // shallow: tensors are shared
  with_rel_edges.edges = torch::cat({g.edges, standardise(g.edges)}, 1);
  for (auto& layer : layer_list_) h = layer->forward(h, with_rel_edges);
  const torch::Tensor glob = h.mean(0, /*keepdim=*/true);  // [1, d]
  const torch::Tensor z = stage_enc_->forward(g.stages);     // [P, d]
  // MLP_o([h_v, z_k, g]) with its first layer split per input: [H,1,d] + [1,P,d] + [1,1,d].
  torch::Tensor pair = out_node_(h).unsqueeze(1) + out_stage_(z).unsqueeze(0) + out_global_(glob).unsqueeze(0);
  torch::Tensor stage_scores = out_final_(torch::relu(pair)).squeeze(2);  // [H, P]
  torch::Tensor unused = unused_->forward(torch::cat({h, glob.expand({h.size(0), h.size(1)})}, 1));  // [H, 1]
  torch::Tensor logits = torch::cat({stage_scores, unused}, 1) + prior_scale_ * g.reference_prior;
  return logits.masked_fill(g.role_mask.logical_not().unsqueeze(0), -1e9);
}

RoleScores predict_scores(PlacementGnn& model, const ClusterGraph& graph) {
  // Inference mode: no autograd bookkeeping per op (most of a pass on a small graph); the same kernels, the same bytes.
  c10::InferenceMode inference;
  SingleThread threads;  // same bytes on any machine, and faster on these small graphs
  model->eval();
  const GraphTensors t = to_tensors(graph, model->config().p_max);
  return scores_from_logits(model->forward(t), graph.pp);
}

}  // namespace hulk::gnn
