// `hulk reproduce [DIR]`: the paper reproduction. For every scenario in DIR (default scenarios/paper) it compares
// round-robin, greedy, search, gnn and gnn+refine with SimGrid, prints one table, states the assumptions, tests the
// paper's ">20% faster" claim against what the simulator measured, and writes CSV + JSON + plots.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "sim/core/data_dir.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/lab/reproduce_summary.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/core/jobs.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/outputs.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "tools/cli/data_warnings.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/out_check.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

struct ReproduceArgs {
  std::string dir = data_path("scenarios/paper");
  std::string out = "runs/reproduce";
  std::string html;
  std::string methods = "round-robin,greedy,search,gnn,gnn+refine";
  MethodOptions options = cli_method_options();
  bool no_plots = false, quiet = false;
};

/** Scenarios with their compare reports, kept apart by kind (one job, several jobs). */
struct ScenarioGroup {
  std::vector<Scenario> scenarios;
  std::vector<CompareReport> reports;
  void add(const Scenario& s, const CompareReport& r) {
    scenarios.push_back(s);
    reports.push_back(r);
  }
};

std::vector<std::string> scenario_files(const std::string& dir) {
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "", "not a folder of scenario YAML files");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError(dir, 0, "", "no .yaml scenarios in this folder");
  return files;
}

/** "5 paper scenarios" for the bundled reproduction, "3 scenarios in DIR" for a user's folder. */
std::string scenario_set_name(const std::string& dir, size_t count) {
  std::error_code ec;
  const bool paper = fs::equivalent(dir, data_path("scenarios/paper"), ec);
  const std::string noun = count == 1 ? " scenario" : " scenarios";
  return std::to_string(count) + (paper ? " paper" + noun : noun + " in " + dir);
}

/** Refuses, before any work, an --out folder where one of the files reproduce writes is a folder (found at the end
 *  before, after every scenario had run and reproduce.json was written). */
void check_out_files(const std::string& out) {
  for (const char* name : {"reproduce.json", "reproduce.csv", "reproduce.partial.csv"}) {
    const fs::path file = fs::path(out) / name;
    std::error_code ec;
    if (fs::is_directory(file, ec))
      throw InputError(file.string(), 0, "--out", std::string("is a folder where reproduce writes its file ") + name +
                                                      " (expected a file or nothing there)");
  }
}

void run_reproduce(const ReproduceArgs& args) {
  check_out_files(args.out);
  const std::string plot_script = args.no_plots ? "" : data_file("tools/scripts/plot.py");  // before hours of work
  std::vector<std::string> html_folders;
  if (!args.html.empty()) prepare_out(args.html, OutKind::file, html_folders, "--html");
  const std::vector<std::string> methods = parse_method_list(args.methods);
  const std::vector<std::string> files = scenario_files(args.dir);
  std::vector<Scenario> scenarios;
  for (const auto& f : files) scenarios.push_back(load_scenario_file(f));  // fail fast on any bad file
  // The report's rows are keyed by the scenario's name: two files of one name (a copy left unrenamed) gave rows that
  // could not be told apart.
  std::map<std::string, std::string> file_of_name;
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    if (const auto [it, fresh] = file_of_name.emplace(scenarios[i].name, files[i]); !fresh)
      throw InputError(files[i], 0, "name",
                       "'" + scenarios[i].name + "' is also the name of " + it->second +
                           " (expected one name per scenario: the report's rows are keyed by it)");
  for (const auto& s : scenarios) print_data_warnings(s, args.quiet);
  for (const std::string& m : methods) check_method_files(m, args.options);  // before hours of work
  std::vector<CompareReport> reports;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    std::cerr << "reproduce: [" << i + 1 << "/" << scenarios.size() << "] " << scenarios[i].name << "\n";
    // round-robin as a reference whatever --methods says: the paper's claim is against it.
    CompareReport report = run_compare(scenarios[i], methods, args.options, true, true);
    if (interrupt_requested()) {  // its methods were cut short: not a result; no verdict on part of the set
      write_file_atomic(args.out + "/reproduce.partial.csv", reproduce_csv(reports));
      throw Interrupted(std::to_string(reports.size()) + " of " + std::to_string(scenarios.size()) +
                        " scenarios finished, their rows in " + args.out + "/reproduce.partial.csv (no verdict, " +
                        "reproduce.csv and .json untouched); a rerun starts over");
    }
    reports.push_back(std::move(report));
    std::cout << report_table(reports.back()) << "\n";
  }
  // The paper's claim is tested on gnn when it ran, else on the last requested method; scenarios of one job and of
  // several jobs sharing the cluster are summarised (and the claim tested) apart: their times are not comparable.
  const std::string claim_method =
      std::find(methods.begin(), methods.end(), "gnn") != methods.end() ? "gnn" : methods.back();
  ScenarioGroup one, several;
  for (size_t i = 0; i < scenarios.size(); ++i)
    (has_several_jobs(scenarios[i]) ? several : one).add(scenarios[i], reports[i]);
  nlohmann::json doc;
  if (!one.reports.empty()) {
    const ClaimVerdict claim = claim_verdict(one.reports, claim_method);
    std::cout << summary_text(one.reports, methods, scenario_set_name(args.dir, one.reports.size()), claim);
    doc = reproduce_json(one.scenarios, one.reports, methods, claim);
  }
  if (!several.reports.empty()) {
    const ClaimVerdict claim = claim_verdict(several.reports, claim_method);
    const std::string name = std::to_string(several.reports.size()) + " scenario" +
                             (several.reports.size() == 1 ? "" : "s") + " of several jobs sharing one cluster" +
                             " (times: the weighted mean iteration time of the jobs)";
    std::cout << (one.reports.empty() ? "" : "\n") << summary_text(several.reports, methods, name, claim);
    nlohmann::json part = reproduce_json(several.scenarios, several.reports, methods, claim);
    if (!doc.contains("scenarios")) doc["scenarios"] = nlohmann::json::array();
    for (const nlohmann::json& scn : part["scenarios"]) doc["scenarios"].push_back(scn);
    part.erase("scenarios");
    doc["several_jobs"] = part;
  }
  const std::string assumptions_file = args.dir + "/ASSUMPTIONS.md";
  std::ifstream assumptions(assumptions_file);
  if (assumptions) std::cout << "\nAssumptions (" << assumptions_file << "):\n" << assumptions.rdbuf() << "\n";
  write_file_atomic(args.out + "/reproduce.json", doc.dump(2) + "\n");
  write_file_atomic(args.out + "/reproduce.csv", reproduce_csv(reports));
  if (!args.html.empty()) write_file_atomic(args.html, reproduce_html(scenarios, doc));
  std::error_code stale;
  std::filesystem::remove(args.out + "/reproduce.partial.csv", stale);  // of an earlier, interrupted run
  std::cerr << "reproduce: wrote " << args.out << "/reproduce.json and reproduce.csv\n";
  if (!args.no_plots) {
    // Debian's matplotlib belongs to /usr/bin/python3; a python3 earlier on PATH (pyenv, venv) may lack it.
    const std::string python = std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    const std::string cmd = python + " " + plot_script + " reproduce " + args.out +
                            "/reproduce.json --out " + args.out + " 1>&2";
    if (std::system(cmd.c_str()) != 0)
      std::cerr << "reproduce: plots skipped (python3 with matplotlib not available or plot failed)\n";
  }
  // Outputs are kept (each failure's reason is in them), but a run in which nothing ran is not a success.
  if (std::none_of(reports.begin(), reports.end(), [](const CompareReport& r) { return any_method_ok(r); }))
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
                  "search budget in evaluations (0 = the method's own: 20000 for search, 2000 for gnn+refine)")
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_option("--model", a->options.model_path, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--html", a->html, "also write a self-contained HTML report (tables, verdict, placement pictures)");
  cmd->add_flag("--no-plots", a->no_plots, "skip the matplotlib plots");
  add_quiet_flag(cmd, a->quiet);
  cmd->callback([a] { run_reproduce(*a); });
}

}  // namespace hulk::cli
