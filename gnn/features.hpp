#pragma once
/** @file features.hpp
 *  @brief Torch-side view of a ClusterGraph: the tensors the model reads, and the training targets. */
#include <torch/torch.h>

#include "gnn/decode.hpp"
#include "sim/features/cluster_graph.hpp"

namespace hulk::gnn {

/** @brief Tensors of one graph. H = hosts, E = directed edges, P = p_max (fixed by the model). */
struct GraphTensors {
  torch::Tensor nodes;       ///< [H, kNodeFeatures + kJobFeatures] float: node features + job features broadcast
  torch::Tensor edge_src;    ///< [E] int64
  torch::Tensor edge_dst;    ///< [E] int64
  torch::Tensor edges;       ///< [E, kEdgeFeatures] float
  torch::Tensor inv_in_degree;  ///< [H, 1] float: 1 / max(1, incoming edges) (mean aggregation)
  torch::Tensor stages;      ///< [P, kStageFeatures + kJobFeatures] float, zero rows for stages >= pp
  torch::Tensor role_mask;   ///< [P + 1] bool: stage k valid iff k < pp; column P (unused) always valid
  torch::Tensor host_weight; ///< [H] float: GPUs of the host / GPUs of the platform (sums to 1)
  torch::Tensor reference_prior;  ///< [H, P + 1] float: log of the smoothed share of each host's GPUs per role in
                                  ///< the reference placement (zeros without a reference, and in masked columns)
  int pp = 1;
  int p_max = 1;
};

/** @brief Builds the tensors. @throws InputError if the job has more stages than the model supports. */
GraphTensors to_tensors(const ClusterGraph& graph, int p_max);

/** @brief Training target: per host, the fraction of its GPUs in each role, [H, P + 1] (stage k in column k,
 *  unused in column P). If reversed, stage k is written to column pp - 1 - k (the mirrored pipeline). */
torch::Tensor role_targets(const RoleCounts& counts, int pp, int p_max, bool reversed);

/** @brief Model logits [H, P + 1] -> RoleScores over the job's pp + 1 roles (log-softmax per host, so that the
 *  decoder maximises the summed log-probability of the GPUs' roles). */
RoleScores scores_from_logits(const torch::Tensor& logits, int pp);

}  // namespace hulk::gnn
