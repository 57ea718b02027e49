// `hulk compare generated`: placement methods on generated clusters shared by several jobs (the held-out benchmark of
// several-job placement). Every cluster is drawn from its own seed (sample_jobs_scenario), every method's
// placement simulated by SimGrid; the summary compares each method with greedy and with search.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/job_range.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/method_choices.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/core/statistics.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/method_names.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/core/seeding.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/lab/reproduce_summary.hpp"
#include "sim/report/outputs.hpp"

namespace hulk::cli {
namespace {

struct JobsEvalArgs {
  int count = 10, min_jobs = 2, max_jobs = 4, max_gpus = 64;
  std::uint64_t seed = 1;
  std::string methods = "round-robin,greedy,search,gnn", out;
  MethodOptions options = cli_method_options();
};

/** Jobs of cluster i: min..max, drawn from the cluster's seed. */
int jobs_of(const JobsEvalArgs& a, std::uint64_t seed) {
  return a.min_jobs + static_cast<int>(component_seed(seed, "jobs-eval#jobs") % (a.max_jobs - a.min_jobs + 1));
}

const MethodResult* result_of(const CompareReport& r, const std::string& method) {
  for (const MethodResult& m : r.results)
    if (m.method == method && m.ok) return &m;
  return nullptr;
}

/** Per method: how often it is within 5% of search, and the median of search's placement time over its own. */
std::string search_lines(const std::vector<CompareReport>& reports, const std::vector<std::string>& methods) {
  std::string out;
  for (const std::string& m : methods) {
    if (m == "search") continue;
    int near = 0, beats_greedy = 0, both = 0;
    std::vector<double> time_ratio;
    for (const CompareReport& r : reports) {
      const MethodResult *a = result_of(r, m), *s = result_of(r, "search"), *g = result_of(r, "greedy");
      if (!a || !s) continue;
      ++both;
      if (a->iteration_time_s <= 1.05 * s->iteration_time_s) ++near;
      if (g && s->iteration_time_s < 0.99 * g->iteration_time_s) ++beats_greedy;
      if (a->method_wall_s > 0) time_ratio.push_back(s->method_wall_s / a->method_wall_s);
    }
    if (both == 0) continue;
    std::sort(time_ratio.begin(), time_ratio.end());
    char ratio[32] = "n/a ";
    if (!time_ratio.empty()) std::snprintf(ratio, sizeof ratio, "%.3g", time_ratio[time_ratio.size() / 2]);
    char line[256];
    std::snprintf(line, sizeof line, "  %s: within 5%% of search on %d of %d clusters; search takes %sx its time "
                  "(median)\n", m.c_str(), near, both, ratio);
    out += line;
    if (m == "greedy") {
      std::snprintf(line, sizeof line, "  search at least 1%% faster than greedy on %d of %d clusters\n",
                    beats_greedy, both);
      out += line;
    }
  }
  return out;
}

/** The ablation row "gnn-prior": greedy in the job order the evaluator finds best (best_greedy_jobs_placement),
 *  which the several-job gnn follows and falls back to; simulated by SimGrid, ratios as compare's. */
void add_prior_row(const Scenario& s, CompareReport& report) {
  MethodResult r;
  r.method = "gnn-prior";
  try {
    PipelineMemo::process().clear();  // timed cold, as in a process of its own
    const auto t0 = std::chrono::steady_clock::now();
    const JobsEvaluator ev(s);
    r.placement = best_greedy_jobs_placement(s, ev);
    r.method_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    simulate_placement(s, r);
  } catch (const InputError& e) {
    r.error = e.what();
  }
  const MethodResult *rr = result_of(report, "round-robin"), *g = result_of(report, "greedy"),
                     *search = result_of(report, "search");
  set_ratios(r, rr, g, search, report.lower_bound_s);
  report.results.push_back(r);
}

/** How far the several-job evaluator (jobs_evaluator.hpp: links shared between jobs divide their capacity) is from
 *  SimGrid on every placement that ran: median and largest |estimate / SimGrid - 1|. */
std::string evaluator_error_line(const std::vector<Scenario>& scenarios, const std::vector<CompareReport>& reports) {
  std::vector<double> errors;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const JobsEvaluator ev(scenarios[i]);
    for (const MethodResult& r : reports[i].results)
      if (r.ok && r.iteration_time_s > 0)
        errors.push_back(std::fabs(ev.objective_s(r.placement) / r.iteration_time_s - 1));
  }
  if (errors.empty()) return "";
  char line[200];
  std::snprintf(line, sizeof line,
                "  evaluator against SimGrid: median |error| %.1f%%, 90th percentile %.1f%%, largest %.1f%% (over %zu "
                "placements)\n",
                100 * median(errors), 100 * quantile(errors, 0.9), 100 * quantile(errors, 1.0), errors.size());
  return line;
}

/** Refuses a method that cannot place a generated cluster of several jobs: robust optimises one job over a
 *  `robust:` distribution the sampler does not draw, and a placement file belongs to one scenario. */
void check_applies_to_generated_jobs(const std::string& method) {
  if (method == "robust")
    throw InputError("", 0, "--methods", "robust places one job over a scenario's `robust:` distribution; the "
                                         "generated clusters hold several jobs and none (expected another method)");
  if (method.rfind(kPlacementFilePrefix, 0) == 0)
    throw InputError("", 0, "--methods", "a placement file (" + method + ") belongs to one scenario, not to "
                                         "generated clusters (expected a placement method)");
}

void run_jobs_eval(const JobsEvalArgs& a) {
  if (a.min_jobs < 2 || a.max_jobs > 8 || a.min_jobs > a.max_jobs)
    throw InputError("", 0, "--jobs", "expected MIN-MAX with 2 <= MIN <= MAX <= 8");
  if (a.count < 1) throw InputError("", 0, "--count", "expected at least 1 cluster");
  if (a.seed > std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(a.count - 1))
    throw InputError("", 0, "--seed", "the clusters' seeds " + std::to_string(a.seed) + " + 0.." +
                                          std::to_string(a.count - 1) + " pass 2^64 - 1 (expected a smaller seed)");
  check_jobs_fit_gpus(JobRange{a.min_jobs, a.max_jobs}, a.max_gpus);
  std::vector<std::string> methods = parse_method_list(a.methods);
  for (const std::string& m : methods) {
    check_method_files(m, a.options);  // a bad model: refused, not failed rows
    check_applies_to_generated_jobs(m);
  }
  const bool ablation = std::find(methods.begin(), methods.end(), "gnn") != methods.end();
  SamplerOptions opt;
  opt.max_total_gpus = a.max_gpus;
  opt.min_total_gpus = std::min(8, a.max_gpus);
  std::vector<CompareReport> reports;
  std::vector<Scenario> scenarios;
  int skipped = 0;
  for (int i = 0; i < a.count; ++i) {
    const std::uint64_t seed = a.seed + static_cast<std::uint64_t>(i);
    Scenario s;
    try {
      s = sample_jobs_scenario(seed, jobs_of(a, seed), opt);
    } catch (const InputError& e) {  // this seed's jobs do not fit its cluster: the others still make a benchmark
      const std::string why = e.what(), no_file = "<input>: ";
      std::cerr << "jobs-eval: [" << i + 1 << "/" << a.count << "] seed " << seed << " skipped: "
                << (why.rfind(no_file, 0) == 0 ? why.substr(no_file.size()) : why) << "\n";
      ++skipped;
      continue;
    }
    std::cerr << "jobs-eval: [" << i + 1 << "/" << a.count << "] " << s.name << ": " << s.jobs.size() << " jobs, "
              << s.platform.total_gpus() << " GPUs, " << s.platform.regions.size() << " regions\n";
    CompareReport report = run_compare(s, methods, a.options, true, true);  // its verdict is against round-robin
    if (interrupt_requested())  // its methods were cut short: not a result; no verdict on part of the set
      throw Interrupted(std::to_string(reports.size()) + " of " + std::to_string(a.count) +
                        " clusters finished (their tables above); no summary, nothing written; a rerun starts over");
    reports.push_back(std::move(report));
    if (ablation) add_prior_row(s, reports.back());
    scenarios.push_back(s);
    std::cout << report_table(reports.back()) << "\n" << std::flush;
  }
  if (reports.empty())
    throw InputError("", 0, "--jobs", "no seed of " + std::to_string(a.seed) + ".." +
                                          std::to_string(a.seed + a.count - 1) +
                                          " gave a cluster its jobs fit (expected fewer --jobs or more --max-gpus)");
  if (ablation) methods.push_back("gnn-prior");
  const ClaimVerdict claim = claim_verdict(reports, ablation ? "gnn" : methods.back());
  const std::string skipped_text = skipped > 0 ? ", " + std::to_string(skipped) + " skipped" : "";
  char what[200];
  std::snprintf(what, sizeof what, "%zu generated cluster%s of %d-%d jobs (seeds %llu..%llu%s, at most %d GPUs)",
                reports.size(), reports.size() == 1 ? "" : "s", a.min_jobs, a.max_jobs,
                static_cast<unsigned long long>(a.seed),
                static_cast<unsigned long long>(a.seed + a.count - 1), skipped_text.c_str(), a.max_gpus);
  std::cout << summary_text(reports, methods, what, claim) << search_lines(reports, methods)
            << evaluator_error_line(scenarios, reports);
  if (!a.out.empty())
    write_file_atomic(a.out, reproduce_json(scenarios, reports, methods, claim).dump(2) + "\n");
}

}  // namespace

void register_jobs_eval_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("generated", "Compare placement methods on generated clusters shared by several jobs");
  auto a = std::make_shared<JobsEvalArgs>();
  cmd->add_option("--count", a->count, "number of generated clusters")->capture_default_str();
  cmd->add_option("--seed", a->seed, "seed of the first cluster (cluster i: seed + i)")->capture_default_str()
      ->check(seed_check());
  auto* jobs = cmd->add_option_function<std::string>(
      "--jobs",
      [a](const std::string& text) {
        const JobRange r = parse_job_range(text);
        a->min_jobs = r.min;
        a->max_jobs = r.max;
      },
      "jobs per cluster: N or MIN-MAX (default 2-4)");
  (void)jobs;
  cmd->add_option("--max-gpus", a->max_gpus, "GPUs per cluster at most")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  cmd->add_option("--methods", a->methods, "comma-separated methods")
      ->capture_default_str()
      ->check(method_choices(true));
  cmd->add_option("--budget", a->options.budget,
                  "search budget in evaluations (0 = the method's own: 20000 for search, 2000 for gnn+refine)")
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_option("--model", a->options.model_path, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--out", a->out, "also write the per-cluster results and the summary as JSON");
  cmd->footer("Example:\n  hulk compare generated --count 20 --seed 9100 --jobs 2-4 --max-gpus 64\n"
              "Each cluster's time is the objective: the weighted mean iteration time of its jobs (SimGrid).\n"
              "With gnn among the methods, the ablation row gnn-prior is added: greedy in the job order the\n"
              "evaluator finds best, which the several-job gnn follows (and falls back to) without the model.");
  cmd->callback([a] { run_jobs_eval(*a); });
}

}  // namespace hulk::cli
