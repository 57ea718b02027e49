// `hulk validate` and `hulk simulate`.
#include <iomanip>
#include <memory>
#include <iostream>
#include <sstream>

#include "tools/commands.hpp"
#include "tools/gnn_backend.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/core/errors.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk::cli {
namespace {

struct SimulateArgs {
  std::string file, out_dir, method;
  bool json = false;
  MethodOptions options = cli_method_options();
};

void print_warnings(const Scenario& s) {
  for (const auto& w : s.platform.warnings) std::cerr << "hulk: warning: " << w << "\n";
}

void run_validate(const std::string& file) {
  Scenario s = load_scenario_file(file);
  print_warnings(s);
  std::cout << "ok: " << s.name << ": " << s.platform.hosts.size() << " hosts, " << s.platform.total_gpus()
            << " GPUs, " << s.platform.regions.size() << " regions, job dp " << s.job.par.dp << " x tp "
            << s.job.par.tp << " x pp " << s.job.par.pp << "\n";
}

std::string human_bytes(double b) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << b / 1e9 << " GB";
  return os.str();
}

void print_summary(const nlohmann::json& r) {
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "scenario          " << r.value("scenario", "") << "\n"
            << "iteration time    " << r["iteration_time_s"].get<double>() << " s\n"
            << "  compute         " << r["compute_s"].get<double>() << " s\n"
            << "  comm dp/tp/pp   " << r["comm_s"]["dp"].get<double>() << " / " << r["comm_s"]["tp"].get<double>()
            << " / " << r["comm_s"]["pp"].get<double>() << " s\n"
            << "  bubble          " << r["bubble_s"].get<double>() << " s\n"
            << "bytes/iteration   intra-host " << human_bytes(r["bytes"]["intra_host"].get<double>())
            << ", intra-region " << human_bytes(r["bytes"]["intra_region"].get<double>()) << ", inter-region "
            << human_bytes(r["bytes"]["inter_region"].get<double>()) << "\n";
}

}  // namespace

void register_simulate_commands(CLI::App& app) {
  auto* validate = app.add_subcommand("validate", "Parse and validate a scenario; print a summary and warnings");
  auto validate_file = std::make_shared<std::string>();
  validate->add_option("scenario", *validate_file, "scenario YAML file")->required();
  validate->callback([validate_file] { run_validate(*validate_file); });

  auto* simulate = app.add_subcommand("simulate", "Simulate training iterations of a scenario with SimGrid");
  auto args = std::make_shared<SimulateArgs>();
  simulate->add_option("scenario", args->file, "scenario YAML file")->required();
  simulate->add_option("--out", args->out_dir, "folder for result.json, comm.csv and trace.json");
  simulate->add_flag("--json", args->json, "print the JSON result on stdout");
  simulate->add_option("--placement", args->method, "override the scenario's placement (method name or file:PATH)");
  simulate->add_option("--budget", args->options.budget, "search budget (evaluations) when the placement is search");
  simulate->add_option("--model", args->options.model_path, "GNN model file when the placement is gnn");
  simulate->callback([args] {
    if (!args->method.empty()) check_method(args->method, "", "--placement");
    Scenario s = load_scenario_file(args->file);
    print_warnings(s);
    const std::string m = args->method.empty() ? s.placement : args->method;
    PlacementOutcome placed = compute_placement(s, m, args->options);
    SimOptions sim_options;
    sim_options.record_events = sim_options.record_spans = !args->out_dir.empty();
    nlohmann::json result = simulate_isolated(s, placed.placement, sim_options, args->out_dir);
    if (args->json)
      std::cout << result.dump(2) << "\n";
    else
      print_summary(result);
  });
}

}  // namespace hulk::cli
