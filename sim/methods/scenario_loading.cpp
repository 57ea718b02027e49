#include "sim/methods/scenario_loading.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/scenario/yaml_access.hpp"
#include "sim/workload/memory_fit.hpp"

#include "sim/engine/simgrid_xml.hpp"

namespace hulk {
namespace {

/** Throws InputError naming the file, the line and the key of the job (`job.parallelism`, or `jobs[i]` with
 *  several) when no placement can hold its stages within the GPUs' memory, or the jobs cannot share the GPUs
 *  (memory_fit.hpp). Every placer would fail on it, so `validate` must not call the scenario ok. */
void check_jobs_fit_memory(const Scenario& s) {
  int j = -1;
  const std::string problem = memory_fit_problem(s, j);
  if (problem.empty()) return;
  const bool several = names_jobs(s);
  // The Scenario keeps no line numbers: the job's entry is found again in the file (none for a SimGrid XML's).
  int line = 0;
  try {
    const YAML::Node root = YamlReader::load_file(s.file);
    if (several && root["jobs"] && root["jobs"].IsSequence() && j < static_cast<int>(root["jobs"].size()))
      line = YamlReader::line_of(root["jobs"][j]);
    if (!several && root["job"] && root["job"].IsMap())
      line = YamlReader::line_of(root["job"]["parallelism"] ? root["job"]["parallelism"] : root["job"]);
  } catch (const InputError&) {
  }
  throw InputError(s.file, line, several ? "jobs[" + std::to_string(j) + "]" : "job.parallelism", problem);
}

/** Throws InputError at the first `auto` value of the job: only `hulk plan` chooses it. */
void refuse_auto(const Scenario& s) {
  const PlanSpec& p = s.plan;
  const char* key = p.parallelism ? "parallelism"
                    : p.micro_batch ? "micro_batch"
                    : p.schedule    ? "schedule"
                    : p.recompute   ? "recompute"
                    : p.zero        ? "zero"
                                    : "sequence_parallel";
  int line = 0;
  try {
    const YAML::Node root = YamlReader::load_file(s.file);
    if (root["job"] && root["job"].IsMap() && root["job"][key]) line = YamlReader::line_of(root["job"][key]);
  } catch (const InputError&) {
  }
  throw InputError(s.file, line, std::string("job.") + key,
                   "auto is chosen by `hulk plan SCENARIO --out DIR` (expected a value here; or run DIR/best.yaml, the "
                   "scenario the plan writes)");
}

}  // namespace

Scenario load_plan_scenario_file(const std::string& path, const std::vector<Override>& overrides) {
  return load_scenario(path, overrides, describe_simgrid_xml);
}

Scenario load_scenario_file(const std::string& path, const std::vector<Override>& overrides, bool require_memory_fit) {
  Scenario s = load_scenario(path, overrides, describe_simgrid_xml);
  if (s.plan.any_auto()) refuse_auto(s);
  if (require_memory_fit) check_jobs_fit_memory(s);
  return s;
}

}  // namespace hulk
