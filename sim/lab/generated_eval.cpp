#include "sim/lab/generated_eval.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sim/core/errors.hpp"
#include "sim/core/method_names.hpp"
#include "sim/core/seeding.hpp"
#include "sim/core/statistics.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/jobs_search.hpp"

namespace hulk {
namespace {

const MethodResult* result_of(const CompareReport& r, const std::string& method) {
  for (const MethodResult& m : r.results)
    if (m.method == method && m.ok) return &m;
  return nullptr;
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

/** The cluster of `seed`, or nullopt (and a progress line) when its jobs do not fit it. */
std::optional<Scenario> draw_cluster(const GeneratedEvalOptions& a, int i, const SamplerOptions& opt,
                                     const std::function<void(const std::string&)>& progress) {
  const std::uint64_t seed = a.seed + static_cast<std::uint64_t>(i);
  const std::string at = "jobs-eval: [" + std::to_string(i + 1) + "/" + std::to_string(a.count) + "] ";
  try {
    Scenario s = sample_jobs_scenario(seed, generated_jobs_of(a, seed), opt);
    if (progress)
      progress(at + s.name + ": " + std::to_string(s.jobs.size()) + " jobs, " +
               std::to_string(s.platform.total_gpus()) + " GPUs, " + std::to_string(s.platform.regions.size()) +
               " regions");
    return s;
  } catch (const InputError& e) {  // this seed's jobs do not fit its cluster: the others still make a benchmark
    const std::string why = e.what(), no_file = "<input>: ";
    if (progress)
      progress(at + "seed " + std::to_string(seed) + " skipped: " +
               (why.rfind(no_file, 0) == 0 ? why.substr(no_file.size()) : why));
    return std::nullopt;
  }
}

}  // namespace

int generated_jobs_of(const GeneratedEvalOptions& a, std::uint64_t seed) {
  return a.min_jobs + static_cast<int>(component_seed(seed, "jobs-eval#jobs") % (a.max_jobs - a.min_jobs + 1));
}

GeneratedEvalReport run_generated_eval(const GeneratedEvalOptions& a,
                                       const std::function<void(const std::string&)>& progress,
                                       const std::function<void(const CompareReport&)>& on_cluster) {
  GeneratedEvalReport out;
  out.methods = a.methods;
  const bool ablation = std::find(a.methods.begin(), a.methods.end(), "gnn") != a.methods.end();
  SamplerOptions opt;
  opt.max_total_gpus = a.max_gpus;
  opt.min_total_gpus = std::min(8, a.max_gpus);
  for (int i = 0; i < a.count; ++i) {
    std::optional<Scenario> s = draw_cluster(a, i, opt, progress);
    if (!s) {
      ++out.skipped;
      continue;
    }
    CompareReport report = run_compare(*s, a.methods, a.options, true, true);  // its verdict is against round-robin
    if (interrupt_requested())  // its methods were cut short: not a result; no verdict on part of the set
      throw Interrupted(std::to_string(out.reports.size()) + " of " + std::to_string(a.count) +
                        " clusters finished (their tables above); no summary, nothing written; a rerun starts over");
    out.reports.push_back(std::move(report));
    if (ablation) add_prior_row(*s, out.reports.back());
    out.scenarios.push_back(std::move(*s));
    if (on_cluster) on_cluster(out.reports.back());
  }
  if (out.reports.empty())
    throw InputError("", 0, "--jobs", "no seed of " + std::to_string(a.seed) + ".." +
                                          std::to_string(a.seed + a.count - 1) +
                                          " gave a cluster its jobs fit (expected fewer --jobs or more --max-gpus)");
  if (ablation) out.methods.push_back("gnn-prior");
  out.claim = claim_verdict(out.reports, ablation ? "gnn" : out.methods.back());
  return out;
}

std::vector<SearchComparison> compare_with_search(const std::vector<CompareReport>& reports,
                                                  const std::vector<std::string>& methods) {
  std::vector<SearchComparison> out;
  for (const std::string& m : methods) {
    if (m == "search") continue;
    SearchComparison c;
    c.method = m;
    std::vector<double> time_ratio;
    for (const CompareReport& r : reports) {
      const MethodResult *a = result_of(r, m), *s = result_of(r, "search"), *g = result_of(r, "greedy");
      if (!a || !s) continue;
      ++c.clusters;
      if (a->iteration_time_s <= 1.05 * s->iteration_time_s) ++c.near_search;
      if (g && s->iteration_time_s < 0.99 * g->iteration_time_s) ++c.search_beats_greedy;
      if (a->method_wall_s > 0) time_ratio.push_back(s->method_wall_s / a->method_wall_s);
    }
    if (c.clusters == 0) continue;
    std::sort(time_ratio.begin(), time_ratio.end());
    if (!time_ratio.empty()) c.search_time_ratio = time_ratio[time_ratio.size() / 2];
    out.push_back(c);
  }
  return out;
}

std::optional<EvaluatorErrors> evaluator_errors(const std::vector<Scenario>& scenarios,
                                                const std::vector<CompareReport>& reports) {
  std::vector<double> errors;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const JobsEvaluator ev(scenarios[i]);
    for (const MethodResult& r : reports[i].results)
      if (r.ok && r.iteration_time_s > 0) errors.push_back(std::fabs(ev.objective_s(r.placement) / r.iteration_time_s - 1));
  }
  if (errors.empty()) return std::nullopt;
  EvaluatorErrors e;
  e.placements = errors.size();
  e.median = median(errors);
  e.p90 = quantile(errors, 0.9);
  e.largest = quantile(errors, 1.0);
  return e;
}

void check_generated_eval_methods(const std::vector<std::string>& methods, const MethodOptions& options) {
  for (const std::string& method : methods) {
    check_method_files(method, options);
    if (method == "robust")
      throw InputError("", 0, "--methods", "robust places the jobs for a scenario's `robust:` distribution, which "
                                           "generated clusters have not (expected another method)");
    if (method.rfind(kPlacementFilePrefix, 0) == 0)
      throw InputError("", 0, "--methods", "a placement file (" + method + ") belongs to one scenario, not to "
                                           "generated clusters (expected a placement method)");
  }
}

}  // namespace hulk
