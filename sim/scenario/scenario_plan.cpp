// The parts of a scenario `hulk plan` reads: `auto` job values and the `plan:` constraints (scenarios/README.md,
// "Planning"). The loader keeps the job's other checks; the layout-dependent ones wait for the plan's layouts.
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/scenario/bounds.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk::detail {

bool auto_value(const YamlReader& r, const YAML::Node& node, const std::string& key, PlanSpec* plan,
                bool PlanSpec::*what) {
  if (!node.IsScalar() || node.Scalar() != "auto") return false;
  r.record(key, node);
  if (plan == nullptr)
    r.fail(node, key, "auto is chosen by `hulk plan` for a one-job scenario (job:) only (expected a value here)");
  plan->*what = true;
  return true;
}

void parse_plan(const YamlReader& r, const YAML::Node& node, PlanSpec& plan) {
  r.record("plan", node);
  r.expect_map(node, "plan");
  r.check_keys(node, "plan", {"min_gpus", "max_gpus", "tp_max", "pp_max", "objective"});
  const auto count = [&](const char* k, int& out) {
    if (!node[k]) return;
    r.collect([&] { out = static_cast<int>(r.integer(node[k], std::string("plan.") + k, 1, bounds::kMaxDegree)); });
  };
  count("min_gpus", plan.min_gpus);
  count("max_gpus", plan.max_gpus);
  count("tp_max", plan.tp_max);
  count("pp_max", plan.pp_max);
  // cost needs `prices:` (checked once the platform and the prices are read: check_prices_for_cost).
  if (node["objective"])
    r.collect([&] { plan.objective = r.one_of(node["objective"], "plan.objective", {"time", "cost"}); });
}

void check_plan(const Scenario& s, const YamlReader& r) {
  if (has_several_jobs(s)) {
    if (r.line_for("plan") > 0) r.fail_key("plan", "plan: chooses the layout of one job (expected job:, not jobs:)");
    return;
  }
  const PlanSpec& p = s.plan;
  const int gpus = s.platform.total_gpus();
  if (p.max_gpus > gpus)
    r.fail_key("plan.max_gpus", "max_gpus " + std::to_string(p.max_gpus) + " is more than the platform's " +
                                    std::to_string(gpus) + " GPUs (expected at most " + std::to_string(gpus) + ")");
  if (p.min_gpus > gpus)
    r.fail_key("plan.min_gpus", "min_gpus " + std::to_string(p.min_gpus) + " is more than the platform's " +
                                    std::to_string(gpus) + " GPUs (expected at most " + std::to_string(gpus) + ")");
  if (p.max_gpus > 0 && p.min_gpus > p.max_gpus)
    r.fail_key("plan.min_gpus", "min_gpus " + std::to_string(p.min_gpus) + " is more than max_gpus " +
                                    std::to_string(p.max_gpus) + " (expected min_gpus <= max_gpus)");
  if (!p.parallelism && r.line_for("plan") > 0) {
    // The constraints bound the layouts plan chooses; with the degrees given they must hold for those.
    const int ranks = s.job.par.ranks();
    if (ranks < p.min_gpus || (p.max_gpus > 0 && ranks > p.max_gpus))
      r.fail_key("plan", "job.parallelism uses " + std::to_string(ranks) +
                             " GPUs, outside plan's min_gpus..max_gpus (expected parallelism: auto, or bounds that "
                             "hold the given degrees)");
  }
}

}  // namespace hulk::detail
