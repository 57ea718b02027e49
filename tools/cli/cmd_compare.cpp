// `hulk compare`: parse the options, run the methods (sim/lab/compare_run.hpp), print and write (`hulk place`:
// cmd_place.cpp).
#include <functional>
#include <iostream>
#include <memory>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/command_groups.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "sim/lab/compare_run.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/core/errors.hpp"
#include "sim/report/html_report.hpp"
#include "sim/report/outputs.hpp"
#include "sim/methods/plan_resolve.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "tools/cli/data_warnings.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/out_check.hpp"
#include "tools/cli/overrides_option.hpp"

namespace hulk::cli {
namespace {

struct CompareArgs {
  std::string file, methods = "greedy,search", out, html;
  std::vector<std::string> sets;
  bool json = false, quiet = false, events = false;
  int robust_states = 0;
  MethodOptions options = cli_method_options();
};

const char* kCompareFooter = R"(Examples:
  hulk compare scenarios/examples/two-region-gpt.yaml
  hulk compare scenarios/examples/two-region-gpt.yaml --methods round-robin,greedy,gnn,gnn+refine --out runs/cmp.json
  hulk compare scenarios/examples/two-region-gpt.yaml --set wan.pairs.0.bandwidth=100Mbps --budget 5000
  hulk compare scenarios/examples/events.yaml --events --methods greedy,search,robust --robust-states 16

round-robin runs only when in --methods (its simulation is the slowest): without it vs_rr is n/a. greedy is
always simulated as the reference of vs_greedy. Columns and units: docs/outputs.md.

Methods (--methods, comma-separated, default: greedy,search):
)";

/** `hulk compare`: every method's placement and its SimGrid time, printed and (--out) written. */
void run_compare_command(const CompareArgs& ca) {
  const std::vector<std::string> methods = parse_method_list(ca.methods);
  std::vector<std::string> html_folders;
  if (!ca.html.empty()) refuse_input_as_out(ca.html, OutKind::file, {ca.file}, "--html");
  if (!ca.html.empty()) prepare_out(ca.html, OutKind::file, html_folders, "--html");
  // A job left `auto` is planned first (plan_resolve.hpp); every method then places the chosen layout.
  const std::function<void(const std::string&)> progress = [&ca](const std::string& line) {
    if (!ca.quiet) std::cerr << line << "\n";
  };
  ResolvedScenario resolved = load_resolved_scenario_file(ca.file, parse_set_overrides(ca.sets), true, progress);
  Scenario& s = resolved.scenario;
  print_data_warnings(s, ca.quiet);
  CompareOptions options;
  options.methods = methods;
  options.options = ca.options;
  options.events = ca.events;
  options.robust_states = ca.robust_states;
  options.layout = resolved.layout;
  options.quiet = ca.quiet;
  options.progress = [](const std::string& text) { std::cerr << text << std::flush; };
  const CompareRun run = run_compare_scenario(s, options);
  const CompareReport& report = run.report;
  const nlohmann::json& doc = run.doc;
  // A report with no result is not written (exit 2, no output file); its reasons are printed below. An interrupted
  // one goes to OUT.partial: OUT keeps an earlier, finished report (a cut-short one would read "interrupted" as
  // if it had finished).
  const bool interrupted = run.interrupted;
  if (!ca.out.empty() && any_method_ok(report))
    write_file_atomic(interrupted ? ca.out + ".partial" : ca.out, doc.dump(2) + "\n");
  if (!ca.html.empty() && any_method_ok(report))
    write_file_atomic(interrupted ? ca.html + ".partial" : ca.html, compare_html(s, doc));
  if (ca.json)
    std::cout << doc.dump(2) << "\n";
  else
    std::cout << (resolved.layout.empty() ? "" : "layout chosen by the plan: " + resolved.layout + "\n")
              << report_table(report) << robust_table(doc);
  if (interrupted && !ca.out.empty() && any_method_ok(report))  // main() then says "interrupted", exit 130
    std::cerr << "compare: the finished methods' report is in " << ca.out << ".partial (" << ca.out
              << " untouched)\n";
  // A report with no result is a failure, whatever was printed (each method's reason is in the table).
  if (!any_method_ok(report))
    throw InputError(ca.file, 0, "--methods", "every method failed on this scenario (reasons above)");
}

}  // namespace

void register_compare_commands(CLI::App& app) {
  register_place_command(app);

  auto* compare = app.add_subcommand("compare", "Compare placement methods; every time comes from SimGrid");
  auto ca = std::make_shared<CompareArgs>();
  compare->add_option("scenario", ca->file, "scenario YAML file (required)");
  compare->add_option("--methods", ca->methods, "comma-separated methods")
      ->capture_default_str()
      ->check(method_choices(true));
  compare->footer(kCompareFooter + methods_help());
  compare->add_option("--budget", ca->options.budget, kSearchBudgetHelp)->capture_default_str()
      ->check(budget_range());
  compare->add_option("--model", ca->options.model_path, learned_model_help());
  compare->add_flag("--json", ca->json, "print JSON instead of the table");
  compare->add_option("--out", ca->out, "also write the JSON report to this file (default: none)");
  compare->add_option("--html", ca->html, "also write a self-contained HTML report (table and placement pictures)");
  compare->add_flag("--events", ca->events,
                    "simulate every method's placement under the scenario's events (methods still place for the "
                    "quiet network); without it the events are ignored");
  compare->add_option("--robust-states", ca->robust_states,
                      "also report each method's mean SimGrid time over this many network states drawn from the "
                      "scenario's robust: distribution (a seed of their own, not the robust search's states)")
      ->check(number_range(0, kMaxRobustStates));
  add_set_option(compare, ca->sets);
  add_quiet_flag(compare, ca->quiet);
  compare->callback([ca, compare] {
    if (nested_command_given(*compare)) return;
    require_given(*compare, {"scenario"});
    run_compare_command(*ca);
  });
}

}  // namespace hulk::cli
