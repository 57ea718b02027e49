#include "sim/evaluate/robust_evaluator.hpp"

#include <random>

#include "sim/core/errors.hpp"

namespace hulk {

std::vector<Scenario> robust_states(const Scenario& scenario, const RobustSpec& distribution, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int regions = static_cast<int>(scenario.platform.regions.size());
  std::vector<Scenario> out;
  for (int s = 0; s < distribution.samples; ++s) {
    Scenario state = scenario;
    state.events.clear();
    for (int a = 0; a < regions; ++a)
      for (int b = a + 1; b < regions; ++b) {
        // Always draw, so that one pair's outcome does not shift the others'.
        if (unit(rng) >= distribution.pair_probability) continue;
        state.platform.wan[a][b].bandwidth_Bps *= distribution.bandwidth_factor;
        state.platform.wan[b][a].bandwidth_Bps *= distribution.bandwidth_factor;
      }
    out.push_back(std::move(state));
  }
  return out;
}

void require_robust_distribution(const Scenario& scenario) {
  if (scenario.robust.samples <= 0)
    throw InputError(scenario.file, 0, "robust",
                     "the robust objective needs the scenario's `robust:` distribution (pair_probability, bandwidth, "
                     "samples)");
}

RobustEvaluator::RobustEvaluator(const Scenario& scenario) {
  require_robust_distribution(scenario);
  for (const Scenario& s : robust_states(scenario, scenario.robust, scenario.robust.seed))
    evaluators_.push_back(std::make_unique<JobsEvaluator>(s));
}

double RobustEvaluator::time_of_hosts(const std::vector<int>& host_of_rank) const {
  double sum = 0;
  for (const auto& ev : evaluators_) sum += ev->objective_of_hosts(host_of_rank);
  return sum / static_cast<double>(evaluators_.size());
}

double RobustEvaluator::iteration_time_s(const Placement& placement) const {
  double sum = 0;
  for (const auto& ev : evaluators_) sum += ev->objective_s(placement);
  return sum / static_cast<double>(evaluators_.size());
}

}  // namespace hulk
