#include "sim/lab/plan_eval.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/method_names.hpp"
#include "sim/core/statistics.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/** Every feasible layout placed by greedy and by the methods, each simulated: the reference answers. */
void exhaustive(const Scenario& s, const PlanEvalOptions& o, PlanEvalRow& row) {
  const auto t0 = std::chrono::steady_clock::now();
  row.exhaustive_s = row.greedy_best_s = INFINITY;
  for (const LayoutCandidate& c : enumerate_layouts(s)) {
    if (!c.infeasible.empty()) continue;
    ++row.layouts;
    const Scenario ls = with_layout(s, c.layout);
    const Evaluator ev(ls);
    const double greedy = simulated_iteration_time_s(ls, GreedyPlacer::place_with(ls, ev));
    row.greedy_best_s = std::min(row.greedy_best_s, greedy);
    if (greedy < row.exhaustive_s) row.exhaustive_layout = c.layout.name() + " greedy";
    row.exhaustive_s = std::min(row.exhaustive_s, greedy);
    for (const std::string& m : o.plan.methods) {
      if (interrupt_requested()) throw Interrupted("plan-eval stopped during the exhaustive enumeration");
      const double t = simulated_iteration_time_s(ls, compute_placement(ls, m, o.plan.method_options).placement);
      if (t < row.exhaustive_s) row.exhaustive_layout = c.layout.name() + " " + m;
      row.exhaustive_s = std::min(row.exhaustive_s, t);
    }
  }
  row.exhaustive_wall_s = seconds_since(t0);
}

}  // namespace

std::vector<PlanEvalRow> run_plan_eval(const PlanEvalOptions& o) {
  SamplerOptions sampler;
  sampler.max_total_gpus = o.max_gpus;
  sampler.min_total_gpus = std::min(4, o.max_gpus);
  std::vector<PlanEvalRow> rows;
  for (int i = 0; i < o.count; ++i) {
    Scenario s = sample_scenario(o.seed + static_cast<std::uint64_t>(i), sampler);
    s.plan.parallelism = true;  // the sampler's own degrees are one of the layouts enumerated
    PlanEvalRow row;
    row.name = s.name;
    row.gpus = s.platform.total_gpus();
    const auto t0 = std::chrono::steady_clock::now();
    PlanReport plan;
    try {
      plan = run_plan(s, o.plan);
    } catch (const Interrupted&) {
      throw;
    } catch (const InputError& e) {
      if (o.progress) o.progress("plan-eval: " + s.name + " skipped: " + e.what());
      continue;
    }
    row.plan_wall_s = seconds_since(t0);
    row.plan_s = plan.chosen().time_s();
    row.plan_layout = plan.chosen().layout.name() + " " + plan.chosen().method;
    exhaustive(s, o, row);
    if (o.progress) {
      char line[400];
      std::snprintf(line, sizeof line,
                    "plan-eval: [%d/%d] %s, %d GPUs, %d layouts: plan %.4g s (%s, %.1f s wall), exhaustive %.4g s "
                    "(%s, %.1f s wall), greedy's best layout %.4g s",
                    i + 1, o.count, s.name.c_str(), row.gpus, row.layouts, row.plan_s, row.plan_layout.c_str(),
                    row.plan_wall_s, row.exhaustive_s, row.exhaustive_layout.c_str(), row.exhaustive_wall_s,
                    row.greedy_best_s);
      o.progress(line);
    }
    rows.push_back(row);
  }
  return rows;
}

std::string plan_eval_summary(const std::vector<PlanEvalRow>& rows, const PlanEvalOptions& o) {
  int within = 0, slower_than_greedy = 0;
  double plan_wall = 0, exhaustive_wall = 0;
  std::vector<double> ratios, gaps;
  for (const PlanEvalRow& r : rows) {
    within += r.plan_s <= 1.02 * r.exhaustive_s ? 1 : 0;
    slower_than_greedy += r.plan_s > r.greedy_best_s * (1 + 1e-9) ? 1 : 0;
    plan_wall += r.plan_wall_s;
    exhaustive_wall += r.exhaustive_wall_s;
    ratios.push_back(r.exhaustive_wall_s / std::max(r.plan_wall_s, 1e-9));
    gaps.push_back(r.plan_s / r.exhaustive_s - 1);
  }
  char text[800];
  const int n = static_cast<int>(rows.size());
  std::snprintf(text, sizeof text,
                "%d generated clusters (seeds %llu..%llu, at most %d GPUs)\n"
                "  plan within 2%% of the exhaustive best: %d of %d; median gap %.2f%%, largest %.2f%%\n"
                "  wall time: plan %.1f s, exhaustive %.1f s in total (%.1fx); median per cluster %.1fx\n"
                "  plan slower than the best layout placed by greedy: %d of %d\n",
                n, static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.seed + o.count - 1),
                o.max_gpus, within, n, n ? 100 * median(gaps) : 0.0, n ? 100 * quantile(gaps, 1.0) : 0.0, plan_wall,
                exhaustive_wall, exhaustive_wall / std::max(plan_wall, 1e-9), n ? median(ratios) : 0.0,
                slower_than_greedy, n);
  return text;
}

std::string plan_eval_csv(const std::vector<PlanEvalRow>& rows) {
  std::string out = "scenario,gpus,layouts,plan_s,exhaustive_s,greedy_best_s,plan_wall_s,exhaustive_wall_s,"
                    "plan_layout,exhaustive_layout\n";
  for (const PlanEvalRow& r : rows) {
    char line[512];
    std::snprintf(line, sizeof line, "%s,%d,%d,%.6g,%.6g,%.6g,%.3f,%.3f,%s,%s\n", r.name.c_str(), r.gpus, r.layouts,
                  r.plan_s, r.exhaustive_s, r.greedy_best_s, r.plan_wall_s, r.exhaustive_wall_s,
                  r.plan_layout.c_str(), r.exhaustive_layout.c_str());
    out += line;
  }
  return out;
}

void write_plan_eval_csv(const std::string& path, const std::vector<PlanEvalRow>& rows) {
  write_file_atomic(path, plan_eval_csv(rows));
}

void check_plan_eval_methods(const std::vector<std::string>& methods, const MethodOptions& options) {
  for (const std::string& m : methods) {
    if (m == "robust" || m.rfind(kPlacementFilePrefix, 0) == 0)
      throw InputError("", 0, "--methods", m + " does not apply to generated clusters (expected a placement method)");
    check_method_files(m, options);
  }
}

}  // namespace hulk
