#include "sim/engine/isolated_run.hpp"

#include "sim/report/outputs.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {

nlohmann::json simulate_isolated(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                 const std::string& out_dir) {
  return run_in_child([&]() {
    SimOptions opts = options;
    if (!out_dir.empty()) {
      opts.record_events = opts.record_spans = true;
      opts.trace_dir = out_dir;  // comm.csv and trace.json streamed by the simulator, in bounded memory
    }
    const SimResult result = simulate(scenario, placement, opts);
    const nlohmann::json j = result_to_json(scenario, result);
    if (!out_dir.empty()) write_file_atomic(out_dir + "/result.json", j.dump(2) + "\n");
    return j;
  });
}

double simulated_iteration_time_s(const Scenario& scenario, const Placement& placement) {
  SimOptions opts;
  opts.record_events = false;
  opts.record_spans = false;
  return simulate_isolated(scenario, placement, opts).at("objective_s").get<double>();
}

}  // namespace hulk
