#include "sim/methods/scenario_loading.hpp"

#include "sim/methods/jobs_memory_fit.hpp"

#include "sim/engine/simgrid_xml.hpp"

namespace hulk {

Scenario load_scenario_file(const std::string& path, const std::vector<Override>& overrides) {
  Scenario s = load_scenario(path, overrides, describe_simgrid_xml);
  check_jobs_fit_memory(s);
  return s;
}

}  // namespace hulk
