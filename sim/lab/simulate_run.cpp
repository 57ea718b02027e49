#include "sim/lab/simulate_run.hpp"

#include <filesystem>

#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/engine/failure_run.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/workload/work_estimate.hpp"

namespace hulk {
namespace {

/** Above this many messages the estimate is announced before the run, so a long silence has an explanation. */
constexpr double kAnnounceMessages = 1e6;

/** The files a simulate run writes into its --out folder (and into attempt-N/ after a failure). */
const char* const kSimulateOutputs[] = {"result.json", "comm.csv", "trace.json", "iterations.csv"};

/** Removes what an earlier simulate run left in `dir` (its output files, and attempt-N/ folders holding only
 *  them), saying so: they would not belong to this run's result.json (a run without failures writes no
 *  iterations.csv, one without --comm-csv no comm.csv). Other files are left alone. */
void remove_earlier_run(const std::string& dir, const std::function<void(const std::string&)>& notice) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::vector<std::string> removed;
  const auto remove_outputs = [&](const fs::path& folder, const std::string& prefix) {
    for (const char* name : kSimulateOutputs)
      if (fs::remove(folder / name, ec)) removed.push_back(prefix + name);
  };
  remove_outputs(dir, "");
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory(ec) || name.rfind("attempt-", 0) != 0) continue;
    remove_outputs(entry.path(), name + "/");
    if (fs::is_empty(entry.path(), ec) && fs::remove(entry.path(), ec)) removed.push_back(name + "/");
  }
  if (removed.empty()) return;
  std::string list;
  for (const std::string& r : removed) list += (list.empty() ? "" : ", ") + r;
  if (notice) notice("hulk: removed the outputs of an earlier run in " + dir + ": " + list);
}

/** Refuses an --out folder in which the run would remove or replace one of its own inputs (the scenario, or the
 *  placement file: an earlier run's result.json is one that `file:` accepts): an interrupted run would have
 *  removed it and written nothing in its place. @throws InputError naming it. */
void refuse_replacing_an_input(const std::string& dir, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  std::vector<fs::path> folders{dir};
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory(ec) && entry.path().filename().string().rfind("attempt-", 0) == 0)
      folders.push_back(entry.path());
  for (const fs::path& folder : folders)
    for (const char* name : kSimulateOutputs)
      for (const std::string& input : inputs)
        if (!input.empty() && fs::equivalent(folder / name, input, ec))
          throw InputError("", 0, "--out",
                           "'" + dir + "' holds " + (folder / name).string() + ", an input of this run ('" + input +
                               "'), which the run would remove and replace: write into another folder, or copy it "
                               "out first");
}

/** The analytic evaluator's time of the simulated placement (with several jobs their objective; a DiLoCo job's time
 *  per step by sim/evaluate/sync_evaluator.hpp), the time every placer ranks placements by, and its error against
 *  SimGrid's (estimate / SimGrid - 1). */
void add_estimate(const Scenario& s, const Placement& placement, nlohmann::json& result) {
  const bool diloco = runs_diloco(s);
  const double estimate = diloco ? SyncEvaluator(s).step_time_s(placement) : JobsEvaluator(s).objective_s(placement);
  // A DiLoCo result's iteration_time_s is one inner iteration; its objective_s is the time per step.
  const double simulated = result.contains("iteration_time_s") && !diloco ? result["iteration_time_s"].get<double>()
                                                                            : result["objective_s"].get<double>();
  result["evaluator_estimate_s"] = estimate;
  result["evaluator_error"] = estimate / simulated - 1.0;
}

}  // namespace

void check_run_size(const Scenario& s, const Placement& placement, bool allow_large,
                    const std::function<void(const std::string&)>& notice) {
  WorkEstimate w;
  double compute_steps = 0;  // forward and backward of every micro-batch on every rank: SimGrid executions
  for (int j = 0; j < job_count(s); ++j) {
    const WorkEstimate one = estimate_work(job_at(s, j), s.platform, job_slice(s, placement, j));
    w.messages += one.messages;
    w.micro_batches += one.micro_batches;
    const Parallelism& par = job_at(s, j).par;
    compute_steps += 2.0 * one.micro_batches * par.pp * par.tp;
  }
  if (w.messages > kMaxMessagesWithoutFlag && !allow_large)
    throw InputError(s.file, 0, names_jobs(s) ? "jobs" : "job",
                     "this run would simulate about " + std::to_string(static_cast<long long>(w.messages)) +
                         " messages (" + std::to_string(static_cast<long long>(w.micro_batches)) +
                         " micro-batches), above the limit of 100,000,000 (hours of simulation); check "
                         "job.global_batch, micro_batch and iterations, or pass --allow-large");
  // Compute steps are announced too (not limited: their cost per step was not measured across shapes): a job of
  // one rank and 10,000 micro-batches per iteration ran 2 s per iteration without a word before.
  if ((w.messages > kAnnounceMessages || compute_steps > kAnnounceMessages) && notice)
    notice("hulk: simulating about " + std::to_string(static_cast<long long>(w.messages)) + " messages and " +
           std::to_string(static_cast<long long>(compute_steps)) + " compute steps (" +
           std::to_string(static_cast<long long>(w.micro_batches)) + " micro-batches)");
}

nlohmann::json run_simulate(const Scenario& s, const SimulateOptions& options) {
  // --estimate needs a time the evaluators model: the quiet network. Checked before anything is placed or simulated.
  if (options.estimate && !s.events.empty())
    throw InputError(s.file, 0, "--estimate", "the evaluator estimates the quiet network; this scenario has events");
  const std::string m = options.method.empty() ? s.placement : options.method;
  Scenario quiet = s;
  quiet.events.clear();  // methods place for the quiet network; the events are in the simulation
  PlacementOutcome placed = compute_placement(quiet, m, options.methods);
  check_run_size(s, placed.placement, options.allow_large, options.notice);
  if (options.on_placed) options.on_placed(placed.placement);
  if (options.event_costs && s.events.empty())
    throw InputError(s.file, 0, "--event-costs", "the scenario has no events");
  if (!options.out_dir.empty()) {
    refuse_replacing_an_input(options.out_dir, {s.file, m.rfind("file:", 0) == 0 ? m.substr(5) : ""});
    remove_earlier_run(options.out_dir, options.notice);
  }
  // Output options choose what is written, never what is computed: every path below is simulate_isolated().
  SimOptions sim_options;
  sim_options.record_events = options.comm_csv;
  sim_options.record_spans = options.timeline;
  sim_options.progress_every_s = options.progress_every_s;
  nlohmann::json result = simulate_isolated(s, placed.placement, sim_options, options.out_dir);
  if (options.event_costs) {
    nlohmann::json costs = nlohmann::json::array();
    for (const EventCost& c : event_costs(s, placed.placement, SimOptions{}))
      costs.push_back({{"origin", c.origin}, {"lost_s", c.lost_s}});
    result["events"]["costs"] = costs;
    if (!options.out_dir.empty()) write_file_atomic(options.out_dir + "/result.json", result.dump(2) + "\n");
  }
  if (options.estimate) add_estimate(quiet, placed.placement, result);
  return result;
}

}  // namespace hulk
