#include "gnn/loss.hpp"

namespace hulk::gnn {

RoleTargets make_targets(const RoleCounts& counts, int pp, int p_max) {
  return RoleTargets{role_targets(counts, pp, p_max, false), role_targets(counts, pp, p_max, true)};
}

torch::Tensor placement_loss(const torch::Tensor& logits, const RoleTargets& t, const torch::Tensor& w) {
  const torch::Tensor logp = torch::log_softmax(logits, 1);
  // Masked columns have logp ~ -1e9 but target 0 there: 0 * finite = 0, no NaN.
  const torch::Tensor ce = -(t.direct * logp).sum(1);
  const torch::Tensor ce_m = -(t.mirrored * logp).sum(1);
  return torch::min((ce * w).sum(), (ce_m * w).sum());
}

double loss_lower_bound(const RoleTargets& t, const torch::Tensor& w) {
  const torch::Tensor y = t.direct;
  const torch::Tensor ent = -(y * torch::log(y.clamp_min(1e-30))).sum(1);
  return (ent * w).sum().item<double>();
}

}  // namespace hulk::gnn
