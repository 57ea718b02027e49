#include "sim/engine/isolated_run.hpp"

#include "sim/core/jobs.hpp"
#include "sim/engine/failure_run.hpp"
#include "sim/report/outputs.hpp"
#include "sim/report/sync_result.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {

namespace {

/** simulate() in a child; with out_dir the traces that `opts` records (comm.csv: record_events, trace.json:
 *  record_spans) are streamed there, and (write_result) result.json written. */
nlohmann::json run_child(const Scenario& scenario, const Placement& placement, SimOptions opts,
                         const std::string& out_dir, bool write_result) {
  return run_in_child([&]() {
    if (!out_dir.empty()) opts.trace_dir = out_dir;  // streamed by the simulator, in bounded memory
    const SimResult result = simulate(scenario, placement, opts);
    const nlohmann::json j = result_to_json(scenario, result);
    if (write_result && !out_dir.empty()) write_file_atomic(out_dir + "/result.json", j.dump(2) + "\n");
    return j;
  });
}

}  // namespace

nlohmann::json simulate_isolated(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                 const std::string& out_dir) {
  if (!scenario.events.empty() && options.apply_events)
    return simulate_with_events(scenario, placement, options, out_dir);
  if (!runs_diloco(scenario)) return run_child(scenario, placement, options, out_dir, true);
  // DiLoCo: an inner iteration (its files are the run's comm.csv and trace.json) and the outer all-reduce alone,
  // each in its own child, combined into the outer round (sync_result.hpp).
  const nlohmann::json inner = run_child(scenario, placement, options, out_dir, false);
  SimOptions outer_options = options;
  outer_options.outer_step = true;
  outer_options.record_events = outer_options.record_spans = false;
  outer_options.progress_every_s = 0;
  const nlohmann::json outer = run_child(scenario, placement, outer_options, "", false);
  const nlohmann::json j = diloco_result_json(scenario, placement, inner, outer);
  if (!out_dir.empty()) write_file_atomic(out_dir + "/result.json", j.dump(2) + "\n");
  return j;
}

double simulated_iteration_time_s(const Scenario& scenario, const Placement& placement) {
  SimOptions opts;
  opts.record_events = false;
  opts.record_spans = false;
  return simulate_isolated(scenario, placement, opts).at("objective_s").get<double>();
}

}  // namespace hulk
