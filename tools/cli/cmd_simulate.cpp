// `hulk simulate`: parses the options, runs sim/lab/simulate_run.hpp and prints the result.
#include <iostream>
#include <memory>

#include <unistd.h>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/fidelity_collective.hpp"
#include "sim/lab/collective_warnings.hpp"
#include "sim/lab/simulate_run.hpp"
#include "sim/scenario/collective_bench_file.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "tools/cli/data_warnings.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/overrides_option.hpp"
#include "tools/cli/result_summary.hpp"

namespace hulk::cli {
namespace {

struct SimulateArgs {
  std::string file;
  std::vector<std::string> sets;
  bool json = false, quiet = false;
  bool no_comm_csv = false;    ///< --no-comm-csv: accepted for old scripts; comm.csv is opt-in now
  SimulateOptions run = [] {
    SimulateOptions o;
    o.methods = cli_method_options();
    return o;
  }();
};

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

/** `hulk simulate`: the placement, its SimGrid run, and what was asked of the result. */
void run_simulate_command(SimulateArgs& args) {
  SimulateOptions& run = args.run;
  if (!run.method.empty()) check_method(run.method, "", "--placement");
  for (const auto& [asked, flag] : {std::pair{run.comm_csv, "--comm-csv"}, std::pair{run.timeline, "--timeline"}})
    if (asked && run.out_dir.empty())
      throw InputError("", 0, flag, "only means something with --out (without it no file is written)");
  if (args.no_comm_csv)
    std::cerr << "hulk: --no-comm-csv is the default now (comm.csv is written only with --comm-csv or --traces)\n";
  if (is_collective_bench_file(args.file)) {  // `collective:` instead of `job:` (scenarios/README.md)
    if (!args.sets.empty()) throw InputError(args.file, 0, "--set", "not for a collective benchmark file");
    const nlohmann::json result = run_collective_bench(args.file, run.out_dir);
    std::cout << (args.json ? result.dump(2) + "\n" : collective_summary(result));
    return;
  }
  Scenario s = load_scenario_file(args.file, parse_set_overrides(args.sets));
  print_data_warnings(s, args.quiet);
  run.progress_every_s = progress_interval_s();
  run.notice = [](const std::string& line) { std::cerr << line << "\n"; };
  run.on_placed = [&](const Placement& placement) {
    if (args.quiet) return;
    for (const std::string& w : unbalanced_hierarchical_warnings(s, placement))
      std::cerr << "hulk: warning: " << w << "\n";
  };
  const nlohmann::json result = run_simulate(s, run);
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
  simulate->add_option("--out", args->run.out_dir,
                       "folder for result.json (and the traces asked for: --comm-csv, --timeline) (default: none)");
  simulate->add_flag("--json", args->json, "print the JSON result on stdout");
  simulate->add_option("--placement", args->run.method,
                       "override the scenario's placement: a method name or file:PATH (default: the scenario's)")
      ->check(method_choices());
  simulate->add_option("--budget", args->run.methods.budget,
                       "search budget in evaluations when the placement is search or gnn+refine "
                       "(0 = the method's own: 20000 for search, 2000 for gnn+refine)")
      ->capture_default_str()
      ->check(budget_range());
  simulate->add_option("--model", args->run.methods.model_path,
                       "GNN model file when the placement is gnn or gnn+refine (default: " + default_model_path() + ")");
  add_set_option(simulate, args->sets);
  add_quiet_flag(simulate, args->quiet);
  simulate->add_flag("--comm-csv", args->run.comm_csv,
                     "with --out, also write comm.csv: one row per message (result.json's `messages` counts them; a "
                     "run above 1 million is announced)");
  simulate->add_flag("--timeline", args->run.timeline,
                     "with --out, also write trace.json: every rank's compute and communication spans, for "
                     "chrome://tracing or Perfetto (several spans per micro-batch and rank)");
  auto* traces = simulate->add_flag_callback(
      "--traces", [args] { args->run.comm_csv = args->run.timeline = true; }, "with --out, write comm.csv and trace.json");
  traces->excludes(simulate->get_option("--comm-csv"))->excludes(simulate->get_option("--timeline"));
  simulate->add_flag("--no-comm-csv", args->no_comm_csv, "(no effect: comm.csv is written only with --comm-csv)")
      ->group("");
  simulate->add_flag("--event-costs", args->run.event_costs,
                     "with events: also measure what each event (each trace file) costs, the wall time with every "
                     "event minus that without it (one more run per event, and one on a quiet network)");
  simulate->add_flag("--estimate", args->run.estimate,
                     "also print the analytic evaluator's estimate of the placement (what the placers rank by) and "
                     "its error against SimGrid");
  simulate->add_flag("--allow-large", args->run.allow_large,
                     "run even when the estimated work is above 100 million messages (refused otherwise)");
  simulate->footer(kSimulateFooter + methods_help());
  simulate->callback([args] { run_simulate_command(*args); });
}

}  // namespace hulk::cli
