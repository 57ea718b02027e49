#include "sim/methods/scenario_loading.hpp"

#include "sim/engine/simgrid_xml.hpp"

namespace hulk {

Scenario load_scenario_file(const std::string& path, const std::vector<Override>& overrides) {
  return load_scenario(path, overrides, describe_simgrid_xml);
}

}  // namespace hulk
