// `hulk compare generated`: checks the options, runs sim/lab/generated_eval.hpp and prints each cluster's table, the
// summary against greedy and search, and the evaluator's error against SimGrid.
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/job_range.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/method_choices.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/generated_eval.hpp"
#include "sim/methods/method_registry.hpp"

namespace hulk::cli {
namespace {

struct JobsEvalArgs {
  std::string methods = "round-robin,greedy,search,gnn", out;
  GeneratedEvalOptions run = [] {
    GeneratedEvalOptions o;
    o.options = cli_method_options();
    return o;
  }();
};

/** Per method: how often it is within 5% of search, and the median of search's placement time over its own. */
std::string search_lines(const std::vector<SearchComparison>& comparisons) {
  std::string out;
  for (const SearchComparison& c : comparisons) {
    char ratio[32] = "n/a ";
    if (c.search_time_ratio) std::snprintf(ratio, sizeof ratio, "%.3g", *c.search_time_ratio);
    char line[256];
    std::snprintf(line, sizeof line, "  %s: within 5%% of search on %d of %d clusters; search takes %sx its time "
                  "(median)\n", c.method.c_str(), c.near_search, c.clusters, ratio);
    out += line;
    if (c.method == "greedy") {
      std::snprintf(line, sizeof line, "  search at least 1%% faster than greedy on %d of %d clusters\n",
                    c.search_beats_greedy, c.clusters);
      out += line;
    }
  }
  return out;
}

std::string evaluator_error_line(const std::optional<EvaluatorErrors>& e) {
  if (!e) return "";
  char line[200];
  std::snprintf(line, sizeof line,
                "  evaluator against SimGrid: median |error| %.1f%%, 90th percentile %.1f%%, largest %.1f%% (over %zu "
                "placements)\n",
                100 * e->median, 100 * e->p90, 100 * e->largest, e->placements);
  return line;
}

/** Refuses bad option values and methods before any cluster is drawn (exit 2, nothing run). */
void check_options(const JobsEvalArgs& args, GeneratedEvalOptions& a) {
  if (a.min_jobs < 2 || a.max_jobs > 8 || a.min_jobs > a.max_jobs)
    throw InputError("", 0, "--jobs", "expected MIN-MAX with 2 <= MIN <= MAX <= 8");
  if (a.count < 1) throw InputError("", 0, "--count", "expected at least 1 cluster");
  if (a.seed > std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(a.count - 1))
    throw InputError("", 0, "--seed", "the clusters' seeds " + std::to_string(a.seed) + " + 0.." +
                                          std::to_string(a.count - 1) + " pass 2^64 - 1 (expected a smaller seed)");
  check_jobs_fit_gpus(JobRange{a.min_jobs, a.max_jobs}, a.max_gpus);
  a.methods = parse_method_list(args.methods);
  check_generated_eval_methods(a.methods, a.options);
}

void run_jobs_eval(JobsEvalArgs& args) {
  GeneratedEvalOptions& a = args.run;
  check_options(args, a);
  const GeneratedEvalReport r = run_generated_eval(
      a, [](const std::string& line) { std::cerr << line << "\n"; },
      [](const CompareReport& report) { std::cout << report_table(report) << "\n" << std::flush; });
  const std::string skipped_text = r.skipped > 0 ? ", " + std::to_string(r.skipped) + " skipped" : "";
  char what[200];
  std::snprintf(what, sizeof what, "%zu generated cluster%s of %d-%d jobs (seeds %llu..%llu%s, at most %d GPUs)",
                r.reports.size(), r.reports.size() == 1 ? "" : "s", a.min_jobs, a.max_jobs,
                static_cast<unsigned long long>(a.seed),
                static_cast<unsigned long long>(a.seed + a.count - 1), skipped_text.c_str(), a.max_gpus);
  std::cout << summary_text(r.reports, r.methods, what, r.claim) << search_lines(compare_with_search(r.reports, r.methods))
            << evaluator_error_line(evaluator_errors(r.scenarios, r.reports));
  if (!args.out.empty())
    write_file_atomic(args.out, reproduce_json(r.scenarios, r.reports, r.methods, r.claim).dump(2) + "\n");
}

}  // namespace

void register_jobs_eval_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("generated", "Compare placement methods on generated clusters shared by several jobs");
  auto a = std::make_shared<JobsEvalArgs>();
  cmd->add_option("--count", a->run.count, "number of generated clusters")->capture_default_str();
  cmd->add_option("--seed", a->run.seed, "seed of the first cluster (cluster i: seed + i)")->capture_default_str()
      ->check(seed_check());
  auto* jobs = cmd->add_option_function<std::string>(
      "--jobs",
      [a](const std::string& text) {
        const JobRange r = parse_job_range(text);
        a->run.min_jobs = r.min;
        a->run.max_jobs = r.max;
      },
      "jobs per cluster: N or MIN-MAX (default 2-4)");
  (void)jobs;
  cmd->add_option("--max-gpus", a->run.max_gpus, "GPUs per cluster at most")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  cmd->add_option("--methods", a->methods, "comma-separated methods")
      ->capture_default_str()
      ->check(method_choices(true));
  cmd->add_option("--budget", a->run.options.budget,
                  kSearchBudgetHelp)
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_option("--model", a->run.options.model_path, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--out", a->out, "also write the per-cluster results and the summary as JSON");
  cmd->footer("Example:\n  hulk compare generated --count 20 --seed 9100 --jobs 2-4 --max-gpus 64\n"
              "Each cluster's time is the objective: the weighted mean iteration time of its jobs (SimGrid).\n"
              "With gnn among the methods, the ablation row gnn-prior is added: greedy in the job order the\n"
              "evaluator finds best, which the several-job gnn follows (and falls back to) without the model.");
  cmd->callback([a] { run_jobs_eval(*a); });
}

}  // namespace hulk::cli
