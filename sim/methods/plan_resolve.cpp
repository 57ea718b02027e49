#include "sim/methods/plan_resolve.hpp"

#include "sim/methods/plan.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk {

ResolvedScenario load_resolved_scenario_file(const std::string& path, const std::vector<Override>& overrides,
                                             bool require_memory_fit,
                                             const std::function<void(const std::string&)>& progress) {
  const Scenario planned = load_plan_scenario_file(path, overrides);
  if (!planned.plan.any_auto()) return {load_scenario_file(path, overrides, require_memory_fit), ""};
  PlanOptions o;
  o.methods.clear();  // greedy only: the methods place the chosen layout next
  o.progress = progress;
  const PlanReport report = run_plan(planned, o);
  const Layout chosen = report.chosen().layout;
  return {with_layout(planned, chosen), chosen.name()};
}

}  // namespace hulk
