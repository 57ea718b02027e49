#include "gnn/reinforce.hpp"

#include <cmath>
#include <vector>

#include "gnn/dataset.hpp"
#include "gnn/decode.hpp"
#include "gnn/features.hpp"
#include "gnn/sampled_decode.hpp"
#include "sim/core/errors.hpp"

namespace hulk::gnn {

torch::Tensor reinforce_loss(const torch::Tensor& logits, const Scenario& scenario, const torch::Tensor& host_weight,
                             int candidates, std::uint64_t seed,
                             const std::function<double(const Placement&)>& cost) {
  const int pp = scenario.only_job().par.pp, p_max = static_cast<int>(logits.size(1)) - 1;
  RoleScores scores;
  {
    torch::NoGradGuard no_grad;
    scores = scores_from_logits(logits.detach(), pp);
  }
  std::vector<RoleCounts> counts;
  std::vector<double> reward;
  for (int c = 0; c < candidates; ++c) {
    const RoleScores s = c == 0 ? scores : perturb_scores(scores, 1.0, sample_seed(seed, static_cast<std::uint64_t>(c)));
    try {
      RoleCounts rc = match_roles(scenario, s);
      const double t = cost(layout_placement(scenario, rc));
      if (!std::isfinite(t) || t <= 0) continue;
      counts.push_back(std::move(rc));
      reward.push_back(-std::log(t));
    } catch (const InputError&) {
      continue;  // no valid placement from these scores: no sample
    }
  }
  // Zero but part of the graph (backward() works on it whatever the samples were).
  torch::Tensor total = logits.sum() * 0.0;
  if (counts.size() < 2) return total;
  double mean = 0;
  for (double r : reward) mean += r;
  mean /= static_cast<double>(reward.size());
  const torch::Tensor logp = torch::log_softmax(logits, 1);
  for (std::size_t k = 0; k < counts.size(); ++k) {
    const double advantage = reward[k] - mean;
    if (std::fabs(advantage) < 1e-12) continue;
    const torch::Tensor y = role_targets(counts[k], pp, p_max, false);
    const torch::Tensor ce = (-(y * logp).sum(1) * host_weight).sum();  // masked columns: 0 x finite
    total = total + advantage * ce;
  }
  return total / static_cast<double>(counts.size());
}

}  // namespace hulk::gnn
