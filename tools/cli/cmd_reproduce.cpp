// `hulk reproduce [DIR]`: checks the options, runs sim/lab/reproduce_run.hpp, prints each scenario's table, the
// summaries with the paper's claim tested, the folder's assumptions, and writes the HTML report when asked.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

#include "sim/core/data_dir.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "sim/lab/reproduce_run.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/report/html_report.hpp"
#include "tools/cli/data_warnings.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/out_check.hpp"

namespace hulk::cli {
namespace {

struct ReproduceArgs {
  std::string dir = data_path("scenarios/paper");
  std::string out = "runs/reproduce";
  std::string html;
  std::string methods = "round-robin,greedy,search,gnn,gnn+refine";
  MethodOptions options = cli_method_options();
  bool no_plots = false, quiet = false;
};

void run_reproduce_command(const ReproduceArgs& args) {
  check_reproduce_out(args.out);
  const std::string plot_script = args.no_plots ? "" : data_file("tools/scripts/plot.py");  // before hours of work
  std::vector<std::string> html_folders;
  if (!args.html.empty()) prepare_out(args.html, OutKind::file, html_folders, "--html");
  const std::vector<std::string> methods = parse_method_list(args.methods);
  const std::vector<Scenario> scenarios = load_reproduce_scenarios(reproduce_scenario_files(args.dir));
  for (const auto& s : scenarios) print_data_warnings(s, args.quiet);
  for (const std::string& m : methods) check_method_files(m, args.options);  // before hours of work
  const ReproduceReport r = run_reproduce(
      scenarios, methods, args.options, args.dir, args.out, [](const std::string& line) { std::cerr << line << "\n"; },
      [](const CompareReport& report) { std::cout << report_table(report) << "\n"; });
  for (std::size_t g = 0; g < r.groups.size(); ++g)
    std::cout << (g ? "\n" : "") << summary_text(r.groups[g].reports, methods, r.groups[g].what, r.groups[g].claim);
  const std::string assumptions_file = args.dir + "/ASSUMPTIONS.md";
  std::ifstream assumptions(assumptions_file);
  if (assumptions) std::cout << "\nAssumptions (" << assumptions_file << "):\n" << assumptions.rdbuf() << "\n";
  if (!args.html.empty()) write_file_atomic(args.html, reproduce_html(scenarios, r.doc));
  std::cerr << "reproduce: wrote " << args.out << "/reproduce.json and reproduce.csv\n";
  if (!args.no_plots && !plot_reproduce(plot_script, args.out))
    std::cerr << "reproduce: plots skipped (python3 with matplotlib not available or plot failed)\n";
  // Outputs are kept (each failure's reason is in them), but a run in which nothing ran is not a success.
  if (std::none_of(r.reports.begin(), r.reports.end(), [](const CompareReport& c) { return any_method_ok(c); }))
    throw InputError(args.dir, 0, "--methods", "every method failed on every scenario (reasons above)");
}

}  // namespace

void register_reproduce_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("reproduce", "Reproduce the paper's claim on the paper scenarios, or on a folder of scenarios (the main job)");
  auto a = std::make_shared<ReproduceArgs>();
  cmd->add_option("dir", a->dir, "folder of scenarios")->capture_default_str();
  cmd->add_option("--out", a->out, "output folder")->capture_default_str();
  cmd->add_option("--methods", a->methods, "comma-separated methods")
      ->capture_default_str()
      ->check(method_choices(true));
  cmd->footer(R"(Examples:
  hulk reproduce                                   (the paper scenarios, scenarios/paper; several minutes)
  hulk reproduce scenarios/examples --out runs/examples --methods round-robin,greedy,search --no-plots

Writes OUT/reproduce.json, reproduce.csv and, unless --no-plots, the plots (tools/scripts/plot.py with /usr/bin/python3).

Methods (--methods, comma-separated):
)" + methods_help());
  cmd->add_option("--budget", a->options.budget,
                  kSearchBudgetHelp)
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_option("--model", a->options.model_path, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--html", a->html, "also write a self-contained HTML report (tables, verdict, placement pictures)");
  cmd->add_flag("--no-plots", a->no_plots, "skip the matplotlib plots");
  add_quiet_flag(cmd, a->quiet);
  cmd->callback([a] { run_reproduce_command(*a); });
}

}  // namespace hulk::cli
