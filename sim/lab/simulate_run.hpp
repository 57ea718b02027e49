#pragma once
/** @file simulate_run.hpp
 *  @brief `hulk simulate`'s run: the placement (for the quiet network), a check of the run's size, the --out folder
 *  made ready, one SimGrid run in a child (simulate_isolated), and what was asked on top of it (each event's cost,
 *  the evaluator's estimate). The CLI loads the scenario, prints warnings and the result
 *  (tools/cli/cmd_simulate.cpp). */
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"
#include "sim/methods/method_registry.hpp"

namespace hulk {

/** @brief What to run and what to write. */
struct SimulateOptions {
  std::string method;          ///< the placement method or file:PATH ("" = the scenario's placement key)
  MethodOptions methods;
  std::string out_dir;         ///< "" = nothing written
  bool comm_csv = false;       ///< with out_dir: comm.csv, one row per message
  bool timeline = false;       ///< with out_dir: trace.json
  bool allow_large = false;    ///< run above kMaxMessagesWithoutFlag
  bool event_costs = false;    ///< each event's cost (one more run per event)
  bool estimate = false;       ///< the analytic evaluator's estimate and its error against SimGrid
  double progress_every_s = 0; ///< SimGrid progress lines (0 = none)
  /** @brief Gets notices meant for the user (the size of a large run, earlier outputs removed); may be empty. */
  std::function<void(const std::string&)> notice;
  /** @brief Called with the placement before it is simulated (the program warns about collectives); may be empty. */
  std::function<void(const Placement&)> on_placed;
};

/** @brief Above this many simulated messages a run needs allow_large: about 20 minutes of SimGrid on this class of
 *  machine (~80,000 messages/s measured on the 1,024- and 4,096-GPU examples), most likely a typo in the job. */
constexpr double kMaxMessagesWithoutFlag = 1e8;

/** @brief Refuses (or announces through `notice`) a run by its estimated size, before any SimGrid work
 *  (sim/workload/work_estimate.hpp); with several jobs, the sum of the jobs' estimates. @throws InputError above
 *  kMaxMessagesWithoutFlag without allow_large. */
void check_run_size(const Scenario& s, const Placement& placement, bool allow_large,
                    const std::function<void(const std::string&)>& notice);

/** @brief Places, simulates and returns result.json's content (also written to out_dir with the traces asked for).
 *  @throws InputError for options the scenario cannot honour (estimate or event costs against its events, an --out
 *  folder holding one of the run's inputs, a run too large). */
nlohmann::json run_simulate(const Scenario& s, const SimulateOptions& options);

}  // namespace hulk
