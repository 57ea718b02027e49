#pragma once
/** @file reinforce.hpp
 *  @brief A policy-gradient term with the analytic evaluator as the reward (a training signal beyond
 *  imitation).
 *
 *  The policy is the model's per-host softmax over roles, made a placement by the matching decoder. Per sample and
 *  step, K placements are drawn from it (the argmax decode and K-1 decodes of Gumbel-perturbed log-probabilities at
 *  temperature 1, i.e. per-host samples of the softmax before the matching), each rewarded r = -log(estimated
 *  time). With the mean reward as baseline (REINFORCE with a baseline, Williams 1992; as in Kool et al. 2019), the
 *  loss is mean_k (r_k - mean r) * CE_k, CE_k the host-weighted cross-entropy of the logits against placement k's
 *  role fractions (minus its log-likelihood under the factorised policy). Advantages are not divided by their
 *  spread: a sample where placement matters (large differences in log time) weighs more than one where every
 *  candidate is about as fast, which is the weighting the issue asks for. */
#include <cstdint>
#include <functional>

#include <torch/torch.h>

#include "sim/core/spec.hpp"

namespace hulk::gnn {

/** @brief The policy-gradient loss of one sample (a scalar tensor in the graph of logits; zero when fewer
 *  than two distinct finite rewards exist). logits [H, p_max + 1] as PlacementGnn::forward gives them.
 *  @param cost the evaluator (seconds; +inf for an infeasible placement). Deterministic for a seed. */
torch::Tensor reinforce_loss(const torch::Tensor& logits, const Scenario& scenario, const torch::Tensor& host_weight,
                             int candidates, std::uint64_t seed,
                             const std::function<double(const Placement&)>& cost);

}  // namespace hulk::gnn
