// `hulk plan`: parse the options, run sim/lab/plan_run.hpp (the parallel layout and the placement of a scenario's job
// chosen together, sim/methods/plan.hpp) and print the finalists.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "tools/cli/command_groups.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/overrides_option.hpp"
#include "sim/lab/plan_run.hpp"

namespace hulk::cli {
namespace {

struct PlanArgs {
  std::string file, out, methods = "search";
  std::vector<std::string> sets;
  bool no_simgrid = false;
  PlanOptions options;
};

const char* kFooter = R"(Examples:
  hulk plan scenarios/examples/plan-auto.yaml --out runs/plan
  hulk simulate runs/plan/best.yaml --out runs/plan/run
  hulk plan scenarios/examples/plan-auto.yaml --out runs/plan-fast --methods greedy --finalists 2

Writes OUT/plan.csv (one row per layout and method), OUT/best.yaml (the scenario with the chosen layout and
placement) and OUT/best-placement.json; prints the finalists. Progress goes to stderr. An interrupted plan
resumes from OUT/plan-journal.tsv when run again with the same scenario and options (the steps it finished are
not run again; the files written are the same); the journal is deleted once the plan's files are written.
)";

std::string cell(double v, const char* format) {
  if (!std::isfinite(v)) return "-";
  char t[32];
  std::snprintf(t, sizeof t, format, v);
  return t;
}

/** The finalists' rows (those that went through SimGrid or the methods), the chosen one marked; a $/1M tokens
 *  column when the scenario has prices. */
std::string table(const PlanReport& r, bool priced) {
  std::string out;
  char line[320];
  std::snprintf(line, sizeof line, "%-34s %-15s %5s %12s %12s %12s %8s%s\n", "layout", "method", "gpus",
                "estimate_s", "simgrid_s", "tokens/s", "mem_GB", priced ? "   $/1M_tokens" : "");
  out += line;
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const PlanRow& row = r.rows[i];
    if (!row.pruned.empty() || row.method.empty()) continue;
    const double t = row.time_s();
    char price[32] = "";
    if (priced) std::snprintf(price, sizeof price, " %13s", cell(row.usd_per_mtokens(), "%.4g").c_str());
    std::snprintf(line, sizeof line, "%-34s %-15s %5d %12s %12s %12s %8s%s%s\n", row.layout.name().c_str(),
                  row.method.c_str(), row.gpus, cell(row.estimate_s, "%.4g").c_str(), cell(row.simgrid_s, "%.4g").c_str(),
                  cell(row.tokens / t, "%.4g").c_str(), cell(row.peak_memory_bytes / 1e9, "%.3g").c_str(), price,
                  static_cast<int>(i) == r.best ? "  <- chosen" : "");
    out += line;
  }
  std::snprintf(line, sizeof line,
                "%d layouts, %d feasible, %d degree choices placed by greedy, %d SimGrid runs, %.1f s\n", r.layouts,
                r.feasible, r.placed, r.simulated, r.wall_s);
  return out + line;
}

void run_plan_command(PlanArgs& a) {
  a.options.methods = finalist_methods(parse_method_list(a.methods));
  a.options.simgrid = !a.no_simgrid;
  a.options.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  const PlanRunReport r = run_plan_file({a.file, parse_set_overrides(a.sets), a.sets, a.out, a.options});
  std::cout << table(r.plan, r.priced) << "best: " << a.out << "/best.yaml (" << r.plan.chosen().layout.name() << ", "
            << r.plan.chosen().method << ")\n";
}

}  // namespace

void register_plan_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("plan", "Choose the parallel layout and the placement of a scenario's job together");
  auto a = std::make_shared<PlanArgs>();
  a->options.method_options = cli_method_options();
  cmd->footer(kFooter);
  cmd->add_option("scenario", a->file, "scenario YAML file (job values may be `auto`, constraints in `plan:`; required)");
  cmd->add_option("--out", a->out, "folder for plan.csv, best.yaml and best-placement.json (required)");
  cmd->add_option("--methods", a->methods, "methods that place the finalists (greedy places every layout screened)")
      ->capture_default_str()
      ->check(method_choices(true));
  cmd->add_option("--finalists", a->options.finalists, "layouts whose greedy placement is simulated")
      ->capture_default_str()
      ->check(number_range(1, 1000));
  cmd->add_option("--searched", a->options.searched, "fastest finalists also placed by the methods")
      ->capture_default_str()
      ->check(number_range(0, 1000));
  cmd->add_option("--screen", a->options.screen, "most dp x tp x pp choices placed by greedy")
      ->capture_default_str()
      ->check(number_range(1, 1000000));
  cmd->add_option("--budget", a->options.method_options.budget, "search budget in evaluations (0 = its own)")
      ->check(number_range(0L, kMaxBudget));
  cmd->add_option("--model", a->options.method_options.model_path, "GNN model file for gnn and gnn+refine");
  cmd->add_flag("--no-simgrid", a->no_simgrid, "rank the finalists by the analytic estimate, simulate nothing");
  add_set_option(cmd, a->sets);
  cmd->callback([a, cmd] {
    if (nested_command_given(*cmd)) return;
    require_given(*cmd, {"scenario", "--out"});
    run_plan_command(*a);
  });
}

}  // namespace hulk::cli
