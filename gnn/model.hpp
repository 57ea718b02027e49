#pragma once
/** @file model.hpp
 *  @brief The placement GNN: edge-aware message passing over the cluster graph, then per-host scores over roles
 *  {stage 0..p_max-1, unused}, masked to the job's pp.
 *
 *  Layer l (residual + LayerNorm, as in the brief):
 *      m_uv   = MLP_e([h_u, h_v, e_uv])                    (message from u to v, edge features e_uv)
 *      a_v    = mean_{u -> v} m_uv                          (mean, so that scores do not scale with degree)
 *      h_v'   = LayerNorm(h_v + MLP_n([h_v, a_v]))
 *  Readout: g = mean_v h_v; stage embeddings z_k = MLP_s(stage features k, job features);
 *      score(v, k)      = MLP_o([h_v, z_k, g])  for k < p_max
 *      score(v, unused) = MLP_u([h_v, g])
 *  plus a residual prior: logits += prior_scale x reference_prior (log share of the host's GPUs per role in the
 *  greedy reference placement; prior_scale learned, starting at 1). The model thus starts from the reference
 *  and learns where to depart from it, instead of rediscovering TP-in-a-host and DP-in-a-region from scratch.
 *  Stage columns k >= pp are set to -1e9 (masked: softmax gives them probability 0 without NaN). */
#include <torch/torch.h>

#include "gnn/features.hpp"

namespace hulk::gnn {

/** @brief Hyper-parameters; stored in the model file. */
struct ModelConfig {
  int hidden = 64;               ///< width of node/edge/stage embeddings
  int layers = 3;                ///< message-passing layers
  int p_max = 16;                ///< largest pipeline depth the model can place
  int nearest_neighbours = 24;   ///< graph construction (GraphOptions), so that inference builds the same graph
};

/** @brief One edge-aware message-passing layer. */
class MessageLayerImpl : public torch::nn::Module {
 public:
  MessageLayerImpl(int hidden, int edge_features);
  /** @brief h [H, d] -> [H, d]. */
  torch::Tensor forward(const torch::Tensor& h, const GraphTensors& g);

 private:
  torch::nn::Linear edge_src_{nullptr}, edge_dst_{nullptr}, edge_feat_{nullptr}, edge_out_{nullptr};
  torch::nn::Linear node_in_{nullptr}, node_out_{nullptr};
  torch::nn::LayerNorm norm_{nullptr};
};
TORCH_MODULE(MessageLayer);

/** @brief The whole model. */
class PlacementGnnImpl : public torch::nn::Module {
 public:
  explicit PlacementGnnImpl(const ModelConfig& config);
  /** @brief Logits [H, p_max + 1], masked columns = -1e9. */
  torch::Tensor forward(const GraphTensors& g);
  const ModelConfig& config() const { return config_; }

 private:
  ModelConfig config_;
  torch::nn::Sequential node_enc_{nullptr}, stage_enc_{nullptr};
  torch::nn::ModuleList layers_{nullptr};
  std::vector<MessageLayer> layer_list_;
  torch::nn::Linear out_node_{nullptr}, out_stage_{nullptr}, out_global_{nullptr}, out_final_{nullptr};
  torch::nn::Sequential unused_{nullptr};
  torch::Tensor prior_scale_;
};
TORCH_MODULE(PlacementGnn);

/** @brief Per-graph standardisation of a feature matrix's columns (zero mean, unit spread with a floor), so that
 *  the network sees how a host or route differs from the others of its cluster (model.cpp says why). */
torch::Tensor standardise(const torch::Tensor& x);

/** @brief Inference: eval mode, NoGradGuard, logits -> RoleScores for the job's pp + 1 roles. */
RoleScores predict_scores(PlacementGnn& model, const ClusterGraph& graph);

}  // namespace hulk::gnn
