// The parts of a scenario `hulk plan` reads: `auto` job values and the `plan:` constraints (scenarios/README.md,
// "Planning"). The loader keeps the job's other checks; the layout-dependent ones wait for the plan's layouts.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

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

namespace {

/** `plan.layouts`: a non-empty list of {dp, tp, pp} (each key optional, default 1). */
std::vector<Parallelism> parse_layouts(const YamlReader& r, const YAML::Node& node) {
  if (!node.IsSequence() || node.size() == 0)
    r.fail(node, "plan.layouts", "expected a non-empty list of {dp, tp, pp}");
  std::vector<Parallelism> out;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string key = "plan.layouts." + std::to_string(i);
    r.expect_map(node[i], key);
    r.check_keys(node[i], key, {"dp", "tp", "pp"});
    Parallelism p;
    for (const auto& [k, out_degree] : {std::pair<const char*, int*>{"dp", &p.dp}, {"tp", &p.tp}, {"pp", &p.pp}})
      if (node[i][k]) *out_degree = static_cast<int>(r.integer(node[i][k], key + "." + k, 1, bounds::kMaxDegree));
    out.push_back(p);
  }
  return out;
}

/** Some GPU count in [lo, hi] is a multiple of `degree`. */
bool divides_some(int degree, int lo, int hi) { return degree > 0 && hi / degree * degree >= lo; }

/** The fixed degrees and the listed layouts against the GPU bounds and the job's given degrees. */
void check_fixed_degrees(const Scenario& s, const YamlReader& r) {
  const PlanSpec& p = s.plan;
  const int lo = p.min_gpus, hi = p.max_gpus > 0 ? p.max_gpus : s.platform.total_gpus();
  const Parallelism& f = p.fixed;
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  for (const auto& [k, d] : {std::pair<const char*, int>{"dp", f.dp}, {"tp", f.tp}, {"pp", f.pp}})
    if (d > 0 && !divides_some(d, lo, hi))
      r.fail_key(std::string("plan.") + k, std::string(k) + " " + std::to_string(d) +
                                               " divides none of the GPU counts " + range +
                                               " the plan may use (expected a degree dividing one of them)");
  const long long product = static_cast<long long>(std::max(f.dp, 1)) * std::max(f.tp, 1) * std::max(f.pp, 1);
  if (product > hi || !divides_some(static_cast<int>(product), lo, hi))
    r.fail_key("plan", "the fixed degrees (product " + std::to_string(product) + ") divide none of the GPU counts " +
                           range + " (expected degrees whose product divides one of them)");
  if (p.tp_max > 0 && f.tp > p.tp_max)
    r.fail_key("plan.tp", "tp " + std::to_string(f.tp) + " is above tp_max " + std::to_string(p.tp_max) +
                              " (expected tp <= tp_max)");
  if (p.pp_max > 0 && f.pp > p.pp_max)
    r.fail_key("plan.pp", "pp " + std::to_string(f.pp) + " is above pp_max " + std::to_string(p.pp_max) +
                              " (expected pp <= pp_max)");
  for (std::size_t i = 0; i < p.layouts.size(); ++i) {
    const int ranks = p.layouts[i].ranks();
    if (ranks < lo || ranks > hi)
      r.fail_key("plan.layouts." + std::to_string(i),
                 "uses " + std::to_string(ranks) + " GPUs (expected a layout of " + range + " GPUs)");
  }
  if ((f.dp || f.tp || f.pp || !p.layouts.empty()) && !p.parallelism)
    r.fail_key("plan", "dp, tp, pp and layouts bound the degrees the plan chooses (expected job.parallelism: auto)");
}

}  // namespace

void parse_plan(const YamlReader& r, const YAML::Node& node, PlanSpec& plan) {
  r.record("plan", node);
  r.expect_map(node, "plan");
  r.check_keys(node, "plan", {"min_gpus", "max_gpus", "tp_max", "pp_max", "objective", "dp", "tp", "pp", "layouts"});
  const auto count = [&](const char* k, int& out) {
    if (!node[k]) return;
    r.collect([&] { out = static_cast<int>(r.integer(node[k], std::string("plan.") + k, 1, bounds::kMaxDegree)); });
  };
  count("min_gpus", plan.min_gpus);
  count("max_gpus", plan.max_gpus);
  count("tp_max", plan.tp_max);
  count("pp_max", plan.pp_max);
  count("dp", plan.fixed.dp);
  count("tp", plan.fixed.tp);
  count("pp", plan.fixed.pp);
  if (node["layouts"]) r.collect([&] { plan.layouts = parse_layouts(r, node["layouts"]); });
  // cost needs `prices:` (checked once the platform and the prices are read: check_prices_for_cost).
  if (node["objective"])
    r.collect([&] { plan.objective = r.one_of(node["objective"], "plan.objective", {"time", "cost"}); });
}

void check_plan(const Scenario& s, const YamlReader& r) {
  if (names_jobs(s)) {
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
  check_fixed_degrees(s, r);
  if (!p.parallelism && r.line_for("plan") > 0) {
    // The constraints bound the layouts plan chooses; with the degrees given they must hold for those.
    const int ranks = s.only_job().par.ranks();
    if (ranks < p.min_gpus || (p.max_gpus > 0 && ranks > p.max_gpus))
      r.fail_key("plan", "job.parallelism uses " + std::to_string(ranks) +
                             " GPUs, outside plan's min_gpus..max_gpus (expected parallelism: auto, or bounds that "
                             "hold the given degrees)");
  }
}

}  // namespace hulk::detail
