// `hulk fidelity --layouts`: the plan's ranking of layouts measured on the same hardware (plan_ranking.hpp).
#include "sim/lab/plan_ranking.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "sim/core/errors.hpp"
#include "sim/core/statistics.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/methods/plan.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk {
namespace {

bool same_degrees(const Parallelism& a, const Parallelism& b) { return a.dp == b.dp && a.tp == b.tp && a.pp == b.pp; }

std::string degrees_name(const Parallelism& p) {
  return "dp" + std::to_string(p.dp) + "-tp" + std::to_string(p.tp) + "-pp" + std::to_string(p.pp);
}

/** 1 + how many values are strictly below values[i] (ties share a rank). */
int rank_of(const std::vector<double>& values, std::size_t i) {
  int r = 1;
  for (double v : values) r += v < values[i] ? 1 : 0;
  return r;
}

/** The group's job with the plan choosing the degrees (only among `only` when given), at the series' utilisation. */
Scenario planned_job(const Scenario& base, double utilisation, const std::vector<Parallelism>& only) {
  Scenario s = base;
  s.only_job().utilisation = utilisation;
  s.plan = PlanSpec{};
  s.plan.parallelism = true;
  s.plan.layouts = only;
  return s;
}

/** Plan's estimate and SimGrid time of each measured layout: every one placed by greedy and simulated. */
void plan_measured(LayoutGroup& g, const Scenario& base,
                   const std::function<void(const std::string&)>& progress) {
  std::vector<Parallelism> only;
  for (const RankedLayout& l : g.layouts) only.push_back(l.par);
  PlanOptions o;
  o.methods.clear();
  o.searched = 0;
  o.finalists = static_cast<int>(only.size());
  o.finalist_margin = INFINITY;  // every measured layout is simulated, however slow its estimate
  o.bound_pruning = false;       // and estimated, however high its bound
  o.progress = progress;
  const PlanReport r = run_plan(planned_job(base, g.utilisation, only), o);
  for (const PlanRow& row : r.rows)
    for (RankedLayout& l : g.layouts)
      if (row.method == "greedy" && same_degrees(row.layout.par, l.par)) {
        l.estimate_s = row.estimate_s;
        l.plan_s = row.simgrid_s;
      }
}

/** The plan's own layout for the group's job within `fixed` degrees (greedy finalists, as compare plans an auto
 *  job). */
PlanChoice plan_free(const LayoutGroup& g, const Scenario& base, const Parallelism& fixed,
                     const std::function<void(const std::string&)>& progress) {
  Scenario s = planned_job(base, g.utilisation, {});
  s.plan.fixed = fixed;
  PlanOptions o;
  o.methods.clear();
  o.progress = progress;
  const PlanReport r = run_plan(s, o);
  PlanChoice c;
  c.bounds = fixed.dp > 0 ? "dp " + std::to_string(fixed.dp) + " fixed" : "degrees free";
  c.layout = r.chosen().layout;
  c.method = r.chosen().method;
  c.time_s = r.chosen().time_s();
  return c;
}

/** The plan's choices: degrees free, then with the measured layouts' dp when they share one. */
void plan_choices(LayoutGroup& g, const Scenario& base, const std::function<void(const std::string&)>& progress) {
  g.choices.push_back(plan_free(g, base, {0, 0, 0}, progress));
  const int dp = g.layouts[0].par.dp;
  for (const RankedLayout& l : g.layouts)
    if (l.par.dp != dp) return;
  g.choices.push_back(plan_free(g, base, {dp, 0, 0}, progress));
}

/** Ranks and tau once the plan's times are in. */
void rank_group(LayoutGroup& g) {
  std::vector<double> measured, plan;
  for (const RankedLayout& l : g.layouts) {
    measured.push_back(l.measured_s);
    plan.push_back(l.plan_s);
  }
  for (std::size_t i = 0; i < g.layouts.size(); ++i) {
    g.layouts[i].measured_rank = rank_of(measured, i);
    g.layouts[i].plan_rank = rank_of(plan, i);
  }
  g.kendall_tau = kendall_tau(measured, plan);
}

/** The series' groups of >= 2 distinct layouts of one job, in manifest order (by first appearance). */
std::vector<LayoutGroup> groups_of(const FidelitySeries& fs, std::vector<Scenario>& bases) {
  std::map<std::string, std::size_t> index;
  std::vector<LayoutGroup> groups;
  if (!fs.transport.empty()) return groups;  // collective benchmarks: no training layouts to rank
  for (const FidelityRow& row : fs.rows) {
    const Scenario s = load_scenario_file(row.point.scenario);
    const auto [it, fresh] = index.emplace(layout_group_key(s), groups.size());
    if (fresh) {
      groups.push_back(LayoutGroup{});
      groups.back().series = fs.name;
      groups.back().job = std::to_string(s.only_job().model.layers) + " layers, hidden " +
                          std::to_string(s.only_job().model.hidden) + ", global batch " +
                          std::to_string(s.only_job().global_batch);
      groups.back().utilisation = fs.calibration->utilisation;
      bases.push_back(s);
    }
    LayoutGroup& g = groups[it->second];
    bool repeated = false;
    for (const RankedLayout& l : g.layouts) repeated = repeated || same_degrees(l.par, s.only_job().par);
    if (repeated) continue;  // the same layout measured twice: the first measurement stands for it
    RankedLayout l;
    l.case_name = row.point.case_name;
    l.par = s.only_job().par;
    l.measured_s = row.measured_s;
    l.simulated_s = row.simulated_s;
    g.layouts.push_back(l);
  }
  std::vector<LayoutGroup> out;
  std::vector<Scenario> kept;
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (groups[i].layouts.size() >= 2) {
      out.push_back(groups[i]);
      kept.push_back(bases[i]);
    }
  bases = kept;
  return out;
}

std::string cell(double v) {
  if (!std::isfinite(v)) return "-";
  char t[32];
  std::snprintf(t, sizeof t, "%.4g", v);
  return t;
}

/** One line per plan choice: the plan's own layout against the measured ones. */
std::string choice_line(const LayoutGroup& g, const PlanChoice& c) {
  std::string line = "plan's own choice (" + c.bounds + "): " + c.layout.name() + " (" + c.method + "), SimGrid " +
                     cell(c.time_s) + " s: ";
  const RankedLayout* best = nullptr;
  for (const RankedLayout& l : g.layouts) {
    if (same_degrees(l.par, c.layout.par)) return line + "a measured layout (" + l.case_name + ")\n";
    if (std::isfinite(l.plan_s) && (best == nullptr || l.plan_s < best->plan_s)) best = &l;
  }
  if (best == nullptr) return line + "not measured\n";
  char t[64];
  std::snprintf(t, sizeof t, "%.1f%%", 100.0 * std::fabs(c.time_s / best->plan_s - 1));
  return line + "not measured; " + t + (c.time_s <= best->plan_s ? " below" : " above") + " plan_s of " +
         best->case_name + " (" + cell(best->plan_s) + " s), the fastest measured layout by the plan\n";
}

}  // namespace

std::string layout_group_key(const Scenario& scenario) {
  nlohmann::json j = scenario_to_json(scenario);
  for (const char* k : {"name", "file", "placement"}) j.erase(k);
  j["job"].erase("parallelism");
  return j.dump();
}

std::vector<LayoutGroup> rank_measured_layouts(const std::vector<FidelitySeries>& series,
                                               const std::function<void(const std::string&)>& progress) {
  std::vector<LayoutGroup> out;
  for (const FidelitySeries& fs : series) {
    if (!fs.calibration) continue;  // no utilisation to predict with
    std::vector<Scenario> bases;
    std::vector<LayoutGroup> groups = groups_of(fs, bases);
    for (std::size_t i = 0; i < groups.size(); ++i) {
      LayoutGroup& g = groups[i];
      try {
        g.memory_checked = bases[i].only_job().check_memory;
        plan_measured(g, bases[i], progress);
        plan_choices(g, bases[i], progress);
      } catch (const Interrupted&) {
        throw;
      } catch (const InputError& e) {
        g.failure = e.what();
      }
      rank_group(g);
      out.push_back(std::move(g));
    }
  }
  return out;
}

std::string layout_ranking_table(const std::vector<LayoutGroup>& groups) {
  if (groups.empty()) return "no series has two or more layouts of one job measured on the same hardware\n";
  std::string out;
  char line[320];
  for (const LayoutGroup& g : groups) {
    std::snprintf(line, sizeof line, "%s, %s (utilisation %.4g from the series' calibration):\n",
                  g.series.c_str(), g.job.c_str(), g.utilisation);
    out += line;
    std::snprintf(line, sizeof line, "  %-18s %-13s %11s %5s %12s %11s %11s %5s\n", "case", "layout", "measured_s",
                  "rank", "simulated_s", "estimate_s", "plan_s", "rank");
    out += line;
    for (const RankedLayout& l : g.layouts) {
      std::snprintf(line, sizeof line, "  %-18s %-13s %11s %5d %12s %11s %11s %5s\n", l.case_name.c_str(),
                    degrees_name(l.par).c_str(), cell(l.measured_s).c_str(), l.measured_rank,
                    cell(l.simulated_s ? *l.simulated_s : NAN).c_str(), cell(l.estimate_s).c_str(),
                    cell(l.plan_s).c_str(), std::isfinite(l.plan_s) ? std::to_string(l.plan_rank).c_str() : "-");
      out += line;
    }
    if (!g.failure.empty()) {
      out += "  plan failed: " + g.failure + "\n";
      continue;
    }
    std::snprintf(line, sizeof line, "  Kendall tau (measured vs plan_s ranking): %s over %zu layouts\n",
                  std::isfinite(g.kendall_tau) ? cell(g.kendall_tau).c_str() : "n/a", g.layouts.size());
    out += line;
    for (const PlanChoice& c : g.choices) out += "  " + choice_line(g, c);
    if (!g.memory_checked) out += "  (memory not checked: the series' scenarios set check_memory false)\n";
  }
  return out +
         "simulated_s: SimGrid on the measured placement (hulk fidelity); estimate_s, plan_s: the plan's analytic "
         "estimate and SimGrid time on its greedy placement of the layout; rank 1 = fastest.\n";
}

}  // namespace hulk
