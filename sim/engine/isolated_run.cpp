#include "sim/engine/isolated_run.hpp"

#include "sim/report/outputs.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {

nlohmann::json simulate_isolated(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                 const std::string& out_dir) {
  return run_in_child([&]() {
    SimOptions opts = options;
    if (!out_dir.empty()) opts.record_events = opts.record_spans = true;
    SimResult result = simulate(scenario, placement, opts);
    if (!out_dir.empty()) write_run_outputs(out_dir, scenario, result);
    return result_to_json(scenario, result);
  });
}

double simulated_iteration_time_s(const Scenario& scenario, const Placement& placement) {
  SimOptions opts;
  opts.record_events = false;
  opts.record_spans = false;
  return simulate_isolated(scenario, placement, opts).at("iteration_time_s").get<double>();
}

}  // namespace hulk
