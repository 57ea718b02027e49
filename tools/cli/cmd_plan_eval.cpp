// `hulk plan eval`: parse the options, run sim/lab/plan_eval.hpp (`hulk plan` against an exhaustive enumeration on
// generated clusters) and print its summary.
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>

#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/option_ranges.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/plan_eval.hpp"
#include "sim/lab/plan_run.hpp"

namespace hulk::cli {
namespace {

struct PlanEvalArgs {
  std::string methods = "search", out;
  PlanEvalOptions options;
};

void run_plan_eval_command(PlanEvalArgs& a) {
  PlanEvalOptions& o = a.options;
  if (o.seed > std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(o.count - 1))
    throw InputError("", 0, "--seed", "the clusters' seeds pass 2^64 - 1 (expected a smaller seed)");
  const std::vector<std::string> methods = parse_method_list(a.methods);
  check_plan_eval_methods(methods, o.plan.method_options);
  o.plan.methods = finalist_methods(methods);
  o.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  const std::vector<PlanEvalRow> rows = run_plan_eval(o);
  if (rows.empty()) throw InputError("", 0, "--seed", "no generated cluster could be planned");
  std::cout << plan_eval_summary(rows, o);
  if (!a.out.empty()) write_plan_eval_csv(a.out, rows);
}

}  // namespace

void register_plan_eval_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("eval", "Compare `hulk plan` with an exhaustive layout enumeration on "
                                              "generated clusters");
  auto a = std::make_shared<PlanEvalArgs>();
  a->options.plan.method_options = cli_method_options();
  cmd->add_option("--count", a->options.count, "generated clusters")->capture_default_str()->check(number_range(1, 100000));
  cmd->add_option("--seed", a->options.seed, "first cluster's seed")->capture_default_str();
  cmd->add_option("--max-gpus", a->options.max_gpus, "largest generated cluster")
      ->capture_default_str()
      ->check(number_range(4, 4096));
  cmd->add_option("--methods", a->methods, "placement methods of the plan's finalists and of the enumeration")
      ->capture_default_str()
      ->check(method_choices(true));
  cmd->add_option("--finalists", a->options.plan.finalists, "plan's finalists")->capture_default_str()
      ->check(number_range(1, 1000));
  cmd->add_option("--searched", a->options.plan.searched, "plan's finalists also placed by the methods")
      ->capture_default_str()
      ->check(number_range(0, 1000));
  cmd->add_option("--budget", a->options.plan.method_options.budget, "search budget in evaluations (0 = its own)")
      ->check(number_range(0L, kMaxBudget));
  cmd->add_option("--out", a->out, "also write one CSV row per cluster to this file");
  cmd->callback([a] { run_plan_eval_command(*a); });
}

}  // namespace hulk::cli
