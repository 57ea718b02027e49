// `hulk validate` and `hulk simulate`.
#include <filesystem>
#include <iomanip>
#include <memory>
#include <iostream>

#include <unistd.h>
#include <sstream>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/failure_run.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/report/outputs.hpp"
#include "tools/cli/collective_warnings.hpp"
#include "tools/cli/data_warnings.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/overrides_option.hpp"
#include "sim/workload/work_estimate.hpp"

namespace hulk::cli {
namespace {

struct SimulateArgs {
  std::string file, out_dir, method;
  std::vector<std::string> sets;
  bool json = false, quiet = false, allow_large = false, event_costs = false, estimate = false;
  bool comm_csv = false;       ///< --comm-csv: one row per message
  bool timeline = false;       ///< --timeline: trace.json (Chrome trace of compute and communication spans)
  bool no_comm_csv = false;    ///< --no-comm-csv: accepted for old scripts; comm.csv is opt-in now

  MethodOptions options = cli_method_options();
};

/** Above this many simulated messages a run needs --allow-large: about 20 minutes of SimGrid on this class of
 *  machine (~80,000 messages/s measured on the 1,024- and 4,096-GPU examples), most likely a typo in the job. */
constexpr double kMaxMessagesWithoutFlag = 1e8;
/** Above this many messages the estimate is printed before the run, so a long silence has an explanation. */
constexpr double kAnnounceMessages = 1e6;

/** Refuses (or announces) a run by its estimated size, before any SimGrid work (sim/workload/work_estimate.hpp);
 *  with several jobs, the sum of the jobs' estimates. */
void check_run_size(const Scenario& s, const Placement& placement, bool allow_large) {
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
    throw InputError(s.file, 0, has_several_jobs(s) ? "jobs" : "job",
                     "this run would simulate about " + std::to_string(static_cast<long long>(w.messages)) +
                         " messages (" + std::to_string(static_cast<long long>(w.micro_batches)) +
                         " micro-batches), above the limit of 100,000,000 (hours of simulation); check "
                         "job.global_batch, micro_batch and iterations, or pass --allow-large");
  // Compute steps are announced too (not limited: their cost per step was not measured across shapes): a job of
  // one rank and 10,000 micro-batches per iteration ran 2 s per iteration without a word before.
  if (w.messages > kAnnounceMessages || compute_steps > kAnnounceMessages)
    std::cerr << "hulk: simulating about " << static_cast<long long>(w.messages) << " messages and "
              << static_cast<long long>(compute_steps) << " compute steps ("
              << static_cast<long long>(w.micro_batches) << " micro-batches)\n";
}

/** A job whose tensor-parallel groups cannot fit one host is valid (hulk simulates TP over the network) but rarely
 *  meant: validate says so. */
void warn_tp_wider_than_hosts(const Scenario& s) {
  int widest = 0;
  for (const HostSpec& h : s.platform.hosts) widest = std::max(widest, h.gpus);
  for (int j = 0; j < job_count(s); ++j) {
    const JobSpec& job = job_at(s, j);
    if (job.par.tp > widest)
      std::cerr << "hulk: warning: " << job_label(s, j) << ": tp " << job.par.tp << " is wider than the largest host ("
                << widest << " GPUs): every tensor-parallel group spans hosts, its all-reduces crossing the network "
                << "at every layer\n";
  }
}

void run_validate(const std::string& file, const std::vector<std::string>& sets) {
  Scenario s = load_scenario_file(file, parse_set_overrides(sets));
  // The scenario's own placement file is read and checked as simulate does before it runs, so that a file that
  // gives two ranks one GPU, or that is another scenario's, is not "ok".
  if (s.placement.rfind("file:", 0) == 0) check_method_applies(s, s.placement, MethodOptions{});
  print_data_warnings(s, false);  // showing them is what validate is for
  warn_tp_wider_than_hosts(s);
  std::cout << "ok: " << s.name << ": " << s.platform.hosts.size() << " hosts, " << s.platform.total_gpus()
            << " GPUs, " << s.platform.regions.size() << " regions, ";
  if (!has_several_jobs(s)) {
    std::cout << "job " << parallelism_text(s.job);
  } else {
    std::cout << s.jobs.size() << " jobs (" << total_ranks(s) << " GPUs):";
    for (std::size_t k = 0; k < s.jobs.size(); ++k)
      std::cout << (k ? "; " : " ") << s.jobs[k].name << " " << parallelism_text(s.jobs[k]);
  }
  // The events and robust keys, only when present (the line of a scenario without them is unchanged); each trace row counts.
  if (!s.events.empty()) std::cout << ", " << s.events.size() << (s.events.size() == 1 ? " event" : " events");
  if (s.robust.samples > 0) std::cout << ", robust: " << s.robust.samples << " states";
  std::cout << "\n";
}

std::string human_bytes(double b) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << b / 1e9 << " GB";
  return os.str();
}

void print_times(const nlohmann::json& r, const char* indent) {
  std::cout << indent << "  compute         " << r["compute_s"].get<double>() << " s\n"
            << indent << "  comm dp/tp/pp   " << r["comm_s"]["dp"].get<double>() << " / "
            << r["comm_s"]["tp"].get<double>() << " / " << r["comm_s"]["pp"].get<double>() << " s\n"
            << indent << "  bubble          " << r["bubble_s"].get<double>() << " s\n";
}

void print_summary(const nlohmann::json& r) {
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "scenario          " << r.value("scenario", "") << "\n";
  if (r.contains("iteration_time_s")) {
    std::cout << "iteration time    " << r["iteration_time_s"].get<double>() << " s\n";
    print_times(r, "");
  } else {
    std::cout << "objective         " << r["objective_s"].get<double>()
              << " s (weighted mean iteration time of the jobs)\n"
              << "makespan          " << r["makespan_s"].get<double>() << " s\n";
    for (const nlohmann::json& j : r["jobs"]) {
      std::cout << "job " << j["name"].get<std::string>() << " (" << j["gpus"].get<int>() << " GPUs, weight "
                << std::setprecision(3) << j["weight"].get<double>() << std::setprecision(4) << ")\n"
                << "  iteration time  " << j["iteration_time_s"].get<double>() << " s\n";
      print_times(j, "  ");
    }
  }
  // MFU: model FLOP/s over the peak FLOP/s of the GPUs used (docs/outputs.md); with several jobs the cluster's.
  if (r.contains("mfu"))
    std::cout << "MFU               " << std::setprecision(1) << 100 * r["mfu"].get<double>() << std::setprecision(4)
              << "% (model FLOP/s over the peak of the " << r["gpus_used"].get<int>() << " GPUs used)\n";
  if (r.contains("evaluator_estimate_s"))
    std::cout << "estimate          " << r["evaluator_estimate_s"].get<double>() << " s (analytic evaluator, "
              << std::showpos << std::setprecision(1) << 100 * r["evaluator_error"].get<double>() << std::noshowpos
              << std::setprecision(4) << "% against SimGrid)\n";
  if (r.contains("sync")) {
    const nlohmann::json& y = r["sync"];
    std::cout << "outer round       " << y["round_s"].get<double>() << " s (" << y["inner_steps"].get<int>()
              << " inner steps of " << y["inner_iteration_s"].get<double>() << " s, outer all-reduce "
              << y["outer_allreduce_s"].get<double>() << " s, overlap " << y["overlap"].get<std::string>() << ")\n"
              << "  islands         " << y["islands"].get<int>() << ", compression "
              << y["compression"].get<std::string>() << "\n"
              << "  time share      compute " << 100 * y["compute_time_share"].get<double>() << "%, inner steps "
              << 100 * y["inner_time_share"].get<double>() << "% of the round's wall time; MFU over the round "
              << 100 * y["mfu"].get<double>() << "%\n"
              << "  WAN per round   " << human_bytes(y["wan_bytes_per_round"].get<double>()) << " ("
              << y["wan_bytes_per_token"].get<double>() << " bytes per token)\n";
  }
  if (r.contains("events")) {
    const nlohmann::json& e = r["events"];
    std::cout << "events            " << e["count"].get<int>() << ", wall time " << e["wall_s"].get<double>()
              << " s, goodput " << 100 * e["goodput"].get<double>() << "%\n";
    if (e["attempts"].size() > 1)
      std::cout << "  failures        " << e["attempts"].size() - 1 << " restart(s), "
                << e["redone_iterations"].get<int>() << " iteration(s) redone, " << e["restart_s"].get<double>()
                << " s from failure to resumed training\n";
    if (e["checkpoint_s"].get<double>() > 0)
      std::cout << "  checkpoints     " << e["checkpoint_s"].get<double>() << " s\n";
    if (e.contains("costs"))
      for (const nlohmann::json& c : e["costs"])
        std::cout << "  lost to " << std::left << std::setw(24) << c["origin"].get<std::string>() << std::right
                  << c["lost_s"].get<double>() << " s\n";
  }
  std::cout << "bytes/iteration   intra-host " << human_bytes(r["bytes"]["intra_host"].get<double>())
            << ", intra-region " << human_bytes(r["bytes"]["intra_region"].get<double>()) << ", inter-region "
            << human_bytes(r["bytes"]["inter_region"].get<double>()) << "\n";
}

/** Progress lines every 10 s of wall time when stderr is a terminal (a person is waiting); none in pipes and
 *  logs, whose readers want the result lines alone. */
double progress_interval_s() { return ::isatty(STDERR_FILENO) ? 10.0 : 0.0; }

const char* kSimulateFooter = R"(Examples:
  hulk simulate scenarios/examples/two-region-gpt.yaml
  hulk simulate scenarios/examples/two-region-gpt.yaml --placement greedy --out runs/two-region
  hulk simulate scenarios/examples/two-region-gpt.yaml --set wan.pairs.0.bandwidth=10Gbps --json
  hulk simulate scenarios/examples/two-region-gpt.yaml --out runs/two-region --traces   (+ comm.csv, trace.json)

Placements (--placement, default: the scenario's `placement` key):
)";

/** The files a simulate run writes into its --out folder (and into attempt-N/ after a failure). */
const char* const kSimulateOutputs[] = {"result.json", "comm.csv", "trace.json", "iterations.csv"};

/** Removes what an earlier simulate run left in `dir` (its output files, and attempt-N/ folders holding only
 *  them), saying so: they would not belong to this run's result.json (a run without failures writes no
 *  iterations.csv, one without --comm-csv no comm.csv). Other files are left alone. */
void remove_earlier_run(const std::string& dir) {
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
  std::cerr << "hulk: removed the outputs of an earlier run in " << dir << ": " << list << "\n";
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

/** `hulk validate SCENARIO [--set KEY=VALUE]...`. */
void register_validate_command(CLI::App& app) {
  auto* validate = app.add_subcommand("validate", "Parse and validate a scenario; print a summary and warnings");
  auto validate_file = std::make_shared<std::string>();
  validate->add_option("scenario", *validate_file, "scenario YAML file")->required();
  validate->footer("Example:\n  hulk validate scenarios/examples/two-region-gpt.yaml\n\nPrints one summary line on "
                   "stdout and the data warnings on stderr; a bad file is one error line and exit code 2.");
  auto validate_sets = std::make_shared<std::vector<std::string>>();
  add_set_option(validate, *validate_sets);  // a user checks an override before a long run
  validate->callback([validate_file, validate_sets] { run_validate(*validate_file, *validate_sets); });
}

/** --estimate needs a time the evaluators model: the quiet network. Checked before anything is placed or simulated. */
void check_estimate_applies(const Scenario& s) {
  if (!s.events.empty())
    throw InputError(s.file, 0, "--estimate", "the evaluator estimates the quiet network; this scenario has events");
}

/** --estimate: the analytic evaluator's time of the simulated placement (with several jobs their objective; a DiLoCo
 *  job's time per step by sim/evaluate/sync_evaluator.hpp), the time every placer ranks placements by, and its error
 *  against SimGrid's (estimate / SimGrid - 1). */
void add_estimate(const Scenario& s, const Placement& placement, nlohmann::json& result) {
  const bool diloco = !has_several_jobs(s) && s.job.sync.diloco();
  const double estimate = diloco ? SyncEvaluator(s).step_time_s(placement) : JobsEvaluator(s).objective_s(placement);
  // A DiLoCo result's iteration_time_s is one inner iteration; its objective_s is the time per step.
  const double simulated = result.contains("iteration_time_s") && !diloco ? result["iteration_time_s"].get<double>()
                                                                            : result["objective_s"].get<double>();
  result["evaluator_estimate_s"] = estimate;
  result["evaluator_error"] = estimate / simulated - 1.0;
}

/** `hulk simulate`: the placement, its SimGrid run, and what was asked of the result. */
void run_simulate(const SimulateArgs& args) {
  if (!args.method.empty()) check_method(args.method, "", "--placement");
  for (const auto& [asked, flag] : {std::pair{args.comm_csv, "--comm-csv"}, std::pair{args.timeline, "--timeline"}})
    if (asked && args.out_dir.empty())
      throw InputError("", 0, flag, "only means something with --out (without it no file is written)");
  if (args.no_comm_csv)
    std::cerr << "hulk: --no-comm-csv is the default now (comm.csv is written only with --comm-csv or --traces)\n";
  Scenario s = load_scenario_file(args.file, parse_set_overrides(args.sets));
  print_data_warnings(s, args.quiet);
  if (args.estimate) check_estimate_applies(s);
  const std::string m = args.method.empty() ? s.placement : args.method;
  Scenario quiet = s;
  quiet.events.clear();  // methods place for the quiet network; the events are in the simulation
  PlacementOutcome placed = compute_placement(quiet, m, args.options);
  check_run_size(s, placed.placement, args.allow_large);
  warn_unbalanced_hierarchical(s, placed.placement, args.quiet);
  if (args.event_costs && s.events.empty())
    throw InputError(s.file, 0, "--event-costs", "the scenario has no events");
  if (!args.out_dir.empty()) {
    refuse_replacing_an_input(args.out_dir, {args.file, m.rfind("file:", 0) == 0 ? m.substr(5) : ""});
    remove_earlier_run(args.out_dir);
  }
  // Output options choose what is written, never what is computed: every path below is simulate_isolated().
  SimOptions sim_options;
  sim_options.record_events = args.comm_csv;
  sim_options.record_spans = args.timeline;
  sim_options.progress_every_s = progress_interval_s();
  nlohmann::json result = simulate_isolated(s, placed.placement, sim_options, args.out_dir);
  if (args.event_costs) {
    nlohmann::json costs = nlohmann::json::array();
    for (const EventCost& c : event_costs(s, placed.placement, SimOptions{}))
      costs.push_back({{"origin", c.origin}, {"lost_s", c.lost_s}});
    result["events"]["costs"] = costs;
    if (!args.out_dir.empty()) write_file_atomic(args.out_dir + "/result.json", result.dump(2) + "\n");
  }
  if (args.estimate) add_estimate(quiet, placed.placement, result);
  if (args.json)
    std::cout << result.dump(2) << "\n";
  else
    print_summary(result);
}

}  // namespace

void register_simulate_commands(CLI::App& app) {
  register_validate_command(app);

  auto* simulate = app.add_subcommand("simulate", "Simulate training iterations of a scenario with SimGrid");
  auto args = std::make_shared<SimulateArgs>();
  simulate->add_option("scenario", args->file, "scenario YAML file")->required();
  simulate->add_option("--out", args->out_dir,
                       "folder for result.json (and the traces asked for: --comm-csv, --timeline) (default: none)");
  simulate->add_flag("--json", args->json, "print the JSON result on stdout");
  simulate->add_option("--placement", args->method,
                       "override the scenario's placement: a method name or file:PATH (default: the scenario's)")
      ->check(method_choices());
  simulate->add_option("--budget", args->options.budget,
                       "search budget in evaluations when the placement is search or gnn+refine "
                       "(0 = the method's own: 20000 for search, 2000 for gnn+refine)")
      ->capture_default_str()
      ->check(budget_range());
  simulate->add_option("--model", args->options.model_path,
                       "GNN model file when the placement is gnn or gnn+refine (default: " + default_model_path() + ")");
  add_set_option(simulate, args->sets);
  add_quiet_flag(simulate, args->quiet);
  simulate->add_flag("--comm-csv", args->comm_csv,
                     "with --out, also write comm.csv: one row per message (result.json's `messages` counts them; a "
                     "run above 1 million is announced)");
  simulate->add_flag("--timeline", args->timeline,
                     "with --out, also write trace.json: every rank's compute and communication spans, for "
                     "chrome://tracing or Perfetto (several spans per micro-batch and rank)");
  auto* traces = simulate->add_flag_callback(
      "--traces", [args] { args->comm_csv = args->timeline = true; }, "with --out, write comm.csv and trace.json");
  traces->excludes(simulate->get_option("--comm-csv"))->excludes(simulate->get_option("--timeline"));
  simulate->add_flag("--no-comm-csv", args->no_comm_csv, "(no effect: comm.csv is written only with --comm-csv)")
      ->group("");
  simulate->add_flag("--event-costs", args->event_costs,
                     "with events: also measure what each event (each trace file) costs, the wall time with every "
                     "event minus that without it (one more run per event, and one on a quiet network)");
  simulate->add_flag("--estimate", args->estimate,
                     "also print the analytic evaluator's estimate of the placement (what the placers rank by) and "
                     "its error against SimGrid");
  simulate->add_flag("--allow-large", args->allow_large,
                     "run even when the estimated work is above 100 million messages (refused otherwise)");
  simulate->footer(kSimulateFooter + methods_help());
  simulate->callback([args] { run_simulate(*args); });
}

}  // namespace hulk::cli
