// `hulk plan`'s search over layouts (plan.hpp says the steps and why each may drop a layout).
#include "sim/methods/plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <tuple>

#include "sim/core/errors.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/lower_bound.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/workload/cost_model.hpp"

namespace hulk {
namespace {

/** Layouts placed together in one screening round: fixed (not the thread count), so that which layouts the bound
 *  prunes, and hence the answer, is the same on any machine. */
constexpr std::size_t kScreenBatch = 4;

std::string seconds_text(double s) {
  char t[32];
  std::snprintf(t, sizeof t, "%.4g s", s);
  return t;
}

void say(const PlanOptions& o, const std::string& line) {
  if (o.progress) o.progress(line);
}

void check_interrupt(const char* step) {
  if (interrupt_requested()) throw Interrupted(std::string("plan stopped during ") + step + "; nothing written");
}

/** Rows of every enumerated layout with their bound, memory and tokens (infeasible ones pruned with the reason). */
std::vector<PlanRow> bounded_rows(const Scenario& s, const std::vector<LayoutCandidate>& candidates) {
  std::vector<PlanRow> rows;
  for (const LayoutCandidate& c : candidates) {
    PlanRow r;
    r.layout = c.layout;
    r.gpus = c.layout.par.ranks();
    r.tokens = static_cast<double>(s.job.global_batch) * s.job.model.seq_len;
    if (!c.infeasible.empty()) {
      r.pruned = "infeasible: " + c.infeasible;
    } else {
      const Scenario ls = with_layout(s, c.layout);
      r.lower_bound_s = lower_bound_s(ls);
      for (const StageCost& st : compute_job_cost(ls.job).stages)
        r.peak_memory_bytes = std::max(r.peak_memory_bytes, st.peak_memory_bytes);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

/** Greedy's placement of the degrees of `group` (rows of one dp x tp x pp), estimated for each of its variants:
 *  greedy runs for the variant with the lowest bound, and again only for a variant its placement does not fit. */
void place_group(const Scenario& s, const std::shared_ptr<const RouteModel>& net, const std::vector<int>& group,
                 std::vector<PlanRow>& rows) {
  Placement shared;
  for (int i : group) {
    PlanRow& r = rows[static_cast<std::size_t>(i)];
    const Scenario ls = with_layout(s, r.layout);
    const Evaluator ev(ls, net);
    r.method = "greedy";
    double t = shared.gpu_of_rank.empty() ? INFINITY : ev.iteration_time_s(shared);
    if (std::isfinite(t)) {
      r.placement = shared;
    } else {
      try {
        r.placement = GreedyPlacer::place_with(ls, ev);
      } catch (const InputError& e) {
        r.method.clear();
        r.pruned = std::string("greedy found no placement: ") + e.what();
        continue;
      }
      t = ev.iteration_time_s(r.placement);
      if (shared.gpu_of_rank.empty()) shared = r.placement;
    }
    r.estimate_s = t;
  }
}

/** Step 3 (plan.hpp). @return the number of degree choices placed. */
int screen(const Scenario& s, const PlanOptions& o, std::vector<PlanRow>& rows) {
  // Feasible rows grouped by degrees; groups in ascending order of their lowest bound (ties: enumeration order).
  std::map<std::tuple<int, int, int>, std::vector<int>> by_degrees;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].pruned.empty()) {
      const Parallelism& p = rows[i].layout.par;
      by_degrees[{p.dp, p.tp, p.pp}].push_back(static_cast<int>(i));
    }
  std::vector<std::vector<int>> groups;
  for (auto& [key, g] : by_degrees) {
    std::stable_sort(g.begin(), g.end(), [&](int a, int b) { return rows[a].lower_bound_s < rows[b].lower_bound_s; });
    groups.push_back(g);
  }
  std::stable_sort(groups.begin(), groups.end(), [&](const std::vector<int>& a, const std::vector<int>& b) {
    return rows[a[0]].lower_bound_s < rows[b[0]].lower_bound_s ||
           (rows[a[0]].lower_bound_s == rows[b[0]].lower_bound_s && a[0] < b[0]);
  });
  const auto net = analytic_route_model(s);
  double best = INFINITY;
  int placed = 0;
  for (std::size_t g0 = 0; g0 < groups.size(); g0 += kScreenBatch) {
    check_interrupt("screening");
    std::vector<std::function<void()>> tasks;
    for (std::size_t g = g0; g < std::min(groups.size(), g0 + kScreenBatch); ++g) {
      const std::vector<int>& group = groups[g];
      const double bound = rows[group[0]].lower_bound_s;
      if (bound >= best || placed >= o.screen) {
        for (int i : group)
          rows[i].pruned = bound >= best ? "lower bound " + seconds_text(bound) + " >= best estimate " + seconds_text(best)
                                         : "beyond the " + std::to_string(o.screen) + " degree choices with the lowest bounds";
        continue;
      }
      ++placed;
      tasks.push_back([&s, &net, &group, &rows] { place_group(s, net, group, rows); });
    }
    run_tasks(tasks);
    for (std::size_t g = g0; g < std::min(groups.size(), g0 + kScreenBatch); ++g)
      for (int i : groups[g])
        if (rows[i].pruned.empty() && rows[i].estimate_s < best) best = rows[i].estimate_s;
    say(o, "plan: screened " + std::to_string(std::min(groups.size(), g0 + kScreenBatch)) + " of " +
               std::to_string(groups.size()) + " degree choices, best estimate " + seconds_text(best));
  }
  return placed;
}

/** Row indices of the `finalists` placed layouts with the lowest estimates (ties: enumeration order). */
std::vector<int> finalists(const PlanOptions& o, std::vector<PlanRow>& rows) {
  std::vector<int> placed;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].pruned.empty() && std::isfinite(rows[i].estimate_s)) placed.push_back(static_cast<int>(i));
  std::stable_sort(placed.begin(), placed.end(), [&](int a, int b) { return rows[a].estimate_s < rows[b].estimate_s; });
  const std::size_t keep = std::min(placed.size(), static_cast<std::size_t>(std::max(o.finalists, 1)));
  for (std::size_t k = keep; k < placed.size(); ++k)
    rows[placed[k]].pruned = "estimate above the " + std::to_string(keep) + " best layouts'";
  for (PlanRow& r : rows)
    if (r.pruned.empty() && !std::isfinite(r.estimate_s)) r.pruned = "no feasible placement";
  placed.resize(keep);
  std::sort(placed.begin(), placed.end());
  return placed;
}

/** SimGrid's time of a row's placement into simgrid_s (with a progress line). */
void simulate_row(const Scenario& ls, const PlanOptions& o, PlanRow& r, int& simulated) {
  check_interrupt("SimGrid checks");
  r.simgrid_s = simulated_iteration_time_s(ls, r.placement);
  ++simulated;
  say(o, "plan: " + r.layout.name() + " " + r.method + ": SimGrid " + seconds_text(r.simgrid_s) + " (estimate " +
             seconds_text(r.estimate_s) + ")");
}

/** Step 4 for one finalist: a row per method, its placement estimated and (with SimGrid) simulated. */
std::vector<PlanRow> place_with_methods(const Scenario& s, const PlanOptions& o, const PlanRow& greedy,
                                        int& simulated) {
  const Scenario ls = with_layout(s, greedy.layout);
  const Evaluator ev(ls);
  std::vector<PlanRow> extra;
  for (const std::string& m : o.methods) {
    check_interrupt("placement");
    say(o, "plan: " + greedy.layout.name() + ": placing with " + m);
    PlanRow r = greedy;
    r.method = m;
    r.simgrid_s = NAN;
    try {
      r.placement = compute_placement(ls, m, o.method_options).placement;
      r.estimate_s = ev.iteration_time_s(r.placement);
      if (o.simgrid) simulate_row(ls, o, r, simulated);
    } catch (const Interrupted&) {
      throw;
    } catch (const InputError& e) {
      r.placement = Placement{};
      r.estimate_s = NAN;
      r.pruned = m + " failed: " + e.what();
    }
    extra.push_back(std::move(r));
  }
  return extra;
}

/** Step 5 then 4: the finalists' greedy placements simulated, then the `searched` fastest of them placed by the
 *  methods. @return the methods' rows by finalist row index. */
std::map<int, std::vector<PlanRow>> finish_finalists(const Scenario& s, const PlanOptions& o,
                                                     const std::vector<int>& chosen, std::vector<PlanRow>& rows,
                                                     int& simulated) {
  if (o.simgrid)
    for (int f : chosen) simulate_row(with_layout(s, rows[f].layout), o, rows[f], simulated);
  std::vector<int> order = chosen;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rows[a].time_s() < rows[b].time_s(); });
  order.resize(std::min(order.size(), static_cast<std::size_t>(std::max(o.searched, 0))));
  std::map<int, std::vector<PlanRow>> extra;
  for (int f : order) extra[f] = place_with_methods(s, o, rows[f], simulated);
  return extra;
}

}  // namespace

PlanReport run_plan(const Scenario& s, const PlanOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  PlanReport report;
  const std::vector<LayoutCandidate> candidates = enumerate_layouts(s);
  std::vector<PlanRow> rows = bounded_rows(s, candidates);
  report.layouts = static_cast<int>(rows.size());
  for (const PlanRow& r : rows) report.feasible += r.pruned.empty() ? 1 : 0;
  say(o, "plan: " + std::to_string(report.layouts) + " layouts, " + std::to_string(report.feasible) + " feasible");
  if (report.feasible == 0) {
    const std::string why = rows.empty() ? "no layout divides the model and the batch within the plan's bounds"
                                         : "every layout fails (first: " + rows[0].pruned + ")";
    throw InputError(s.file, 0, "job.parallelism", why + " (expected a job that fits some layout)");
  }
  report.placed = screen(s, o, rows);
  const std::vector<int> chosen = finalists(o, rows);
  if (chosen.empty()) throw InputError(s.file, 0, "job.parallelism", "no layout could be placed (expected one)");
  std::map<int, std::vector<PlanRow>> extra = finish_finalists(s, o, chosen, rows, report.simulated);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    report.rows.push_back(std::move(rows[i]));
    for (PlanRow& e : extra[static_cast<int>(i)]) report.rows.push_back(std::move(e));
  }
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const PlanRow& r = report.rows[i];
    const bool ranked = r.pruned.empty() && !r.placement.gpu_of_rank.empty() && std::isfinite(r.time_s());
    if (ranked && (report.best < 0 || r.time_s() < report.chosen().time_s())) report.best = static_cast<int>(i);
  }
  if (report.best < 0) throw InputError(s.file, 0, "job.parallelism", "no finalist could be placed (expected one)");
  report.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace hulk
