#include "sim/lab/plan_run.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>

#include "sim/core/seeding.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/plan_cost.hpp"
#include "sim/methods/plan_journal.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk {
namespace {

/** What identifies a plan in its journal: the scenario file's bytes, the overrides and every option that changes
 *  the answer. */
std::string journal_identity(const PlanRunOptions& a) {
  std::ifstream in(a.file, std::ios::binary);
  std::string id((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::string& set : a.sets) id += "\n--set " + set;
  const PlanOptions& o = a.plan;
  for (const std::string& m : o.methods) id += "\n--methods " + m;
  id += "\n" + std::to_string(o.finalists) + " " + std::to_string(o.searched) + " " + std::to_string(o.screen) + " " +
        std::to_string(o.method_options.budget) + " " + (o.simgrid ? "simgrid" : "no-simgrid") + " " +
        o.method_options.model_path;
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(id)));
  return hex;
}

}  // namespace

std::vector<std::string> finalist_methods(const std::vector<std::string>& methods) {
  std::vector<std::string> out;
  for (const std::string& m : methods)
    if (m != "greedy") out.push_back(m);
  return out;
}

PlanRunReport run_plan_file(PlanRunOptions a) {
  const Scenario s = load_plan_scenario_file(a.file, a.overrides);
  for (const std::string& m : a.plan.methods) check_method_files(m, a.plan.method_options);
  a.plan.journal = plan_journal_path(a.out);
  a.plan.journal_identity = journal_identity(a);
  PlanRunReport r;
  r.plan = run_plan(s, a.plan);
  write_plan(s, r.plan, a.out);
  r.priced = prices_complete(s);
  return r;
}

}  // namespace hulk
