#include "sim/methods/scenario_loading.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/scenario/yaml_access.hpp"
#include "sim/workload/jobs_memory_fit.hpp"

#include "sim/engine/simgrid_xml.hpp"

namespace hulk {
namespace {

/** Throws InputError naming the file, the line and the key of the job (`job.parallelism`, or `jobs[i]` with
 *  several) when no placement can hold its stages within the GPUs' memory, or the jobs cannot share the GPUs
 *  (jobs_memory_fit.hpp). Every placer would fail on it, so `validate` must not call the scenario ok. */
void check_jobs_fit_memory(const Scenario& s) {
  int j = -1;
  const std::string problem = jobs_memory_problem(s, j);
  if (problem.empty()) return;
  const bool several = has_several_jobs(s);
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

}  // namespace


Scenario load_scenario_file(const std::string& path, const std::vector<Override>& overrides, bool require_memory_fit) {
  Scenario s = load_scenario(path, overrides, describe_simgrid_xml);
  if (require_memory_fit) check_jobs_fit_memory(s);
  return s;
}

}  // namespace hulk
