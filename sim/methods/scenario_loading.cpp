#include "sim/methods/scenario_loading.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/scenario/yaml_access.hpp"
#include "sim/workload/jobs_memory_fit.hpp"

#include "sim/engine/simgrid_xml.hpp"

namespace hulk {
namespace {

/** Throws InputError naming the file, the line of the job's `jobs:` entry and the key `jobs[i]` when the jobs cannot
 *  share the GPUs within memory (jobs_memory_fit.hpp); nothing for a one-job scenario (its placers report it). */
void check_jobs_fit_memory(const Scenario& s) {
  if (!has_several_jobs(s)) return;
  int j = -1;
  const std::string problem = jobs_memory_problem(s, j);
  if (problem.empty()) return;
  // The Scenario keeps no line numbers: the job's entry is found again in the file.
  int line = 0;
  try {
    const YAML::Node root = YamlReader::load_file(s.file);
    if (root["jobs"] && root["jobs"].IsSequence() && j < static_cast<int>(root["jobs"].size()))
      line = YamlReader::line_of(root["jobs"][j]);
  } catch (const InputError&) {
  }
  throw InputError(s.file, line, "jobs[" + std::to_string(j) + "]", problem);
}

}  // namespace


Scenario load_scenario_file(const std::string& path, const std::vector<Override>& overrides) {
  Scenario s = load_scenario(path, overrides, describe_simgrid_xml);
  check_jobs_fit_memory(s);
  return s;
}

}  // namespace hulk
