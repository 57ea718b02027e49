#pragma once
/** @file loss.hpp
 *  @brief The symmetric placement loss.
 *
 *  Why this form: the label is ONE of many equally good placements. (1) GPUs of a host are interchangeable, and
 *  so are DP replicas: which GPU of a host or which replica index serves a stage does not change the iteration
 *  time, so the target is not "GPU g -> stage k" but, per host, the fraction of its GPUs in each role (stage or
 *  unused). (2) A pipeline can be laid out in either direction along the same chain of regions (stage k on the
 *  hosts of stage pp-1-k): the traffic is identical and only the first/last stage's embedding/logit work swaps,
 *  so the search could as well have returned the mirror. We take the minimum of the cross-entropies against the
 *  label and against its mirror, so the model is never penalised for predicting the mirrored pipeline.
 *  Per host, the cross-entropy is weighted by the host's share of the platform's GPUs (sums to 1), so the loss
 *  of a perfect model equals the weighted entropy of the targets (the bound the overfitting test uses). */
#include <torch/torch.h>

#include "gnn/decode.hpp"
#include "gnn/features.hpp"

namespace hulk::gnn {

/** @brief Targets of one sample: label role fractions and the mirrored ones, each [H, P + 1]. */
struct RoleTargets {
  torch::Tensor direct;
  torch::Tensor mirrored;
};

/** @brief Targets from the label's role counts. */
RoleTargets make_targets(const RoleCounts& counts, int pp, int p_max);

/** @brief min(CE(label), CE(mirror)), CE = sum_h w_h * (-sum_r y_hr log softmax(logits_h)_r). Scalar tensor. */
torch::Tensor placement_loss(const torch::Tensor& logits, const RoleTargets& targets, const torch::Tensor& host_weight);

/** @brief The smallest value placement_loss can take for these targets: sum_h w_h H(y_h) (nats). */
double loss_lower_bound(const RoleTargets& targets, const torch::Tensor& host_weight);

}  // namespace hulk::gnn
