#include "sim/lab/robust_check.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/robust_evaluator.hpp"

namespace hulk {

double expected_time_under_robust_s(const Scenario& scenario, const Placement& placement, int states) {
  if (scenario.robust.samples <= 0)
    throw InputError(scenario.file, 0, "robust", "no `robust:` distribution in the scenario to draw states from");
  RobustSpec draw = scenario.robust;
  draw.samples = states;
  double sum = 0;
  const auto drawn = robust_states(scenario, draw, component_seed(scenario.robust.seed, "robust-check"));
  for (const Scenario& state : drawn) sum += simulated_iteration_time_s(state, placement);
  return sum / static_cast<double>(drawn.size());
}

}  // namespace hulk
