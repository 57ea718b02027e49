#include "sim/lab/gnn_families.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "sim/core/statistics.hpp"
#include "sim/core/csv_text.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/seeding.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/scenario/catalog.hpp"

namespace hulk {

const std::vector<std::string>& gnn_family_names() {
  static const std::vector<std::string> names = {"in-family", "larger", "wan-host", "multi-job", "paper"};
  return names;
}

std::uint64_t family_scenario_seed(std::uint64_t seed, const std::string& family, int index, int attempt) {
  return stream_seed(component_seed(seed, "gnn-families/" + family),
                     static_cast<std::uint64_t>(index) * 16 + static_cast<std::uint64_t>(attempt));
}

namespace {

std::vector<Scenario> paper_scenarios(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!dir.empty() && fs::exists(dir, ec) && !fs::is_directory(dir, ec))  // a scenario file given for its folder
    throw InputError(dir, 0, "--paper", "it is a file, not a folder (expected a folder of .yaml scenarios)");
  if (dir.empty() || !fs::is_directory(dir, ec))
    throw InputError(dir, 0, "--paper", "the paper scenarios' folder does not exist");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError(dir, 0, "--paper", "no .yaml scenario in the folder");
  std::vector<Scenario> out;
  for (const std::string& f : files) out.push_back(load_scenario_file(f));
  return out;
}

/** One generated scenario of a family from its seed; InputError when the draw does not fit (skipped). */
Scenario draw(const std::string& family, std::uint64_t seed, const FamilyOptions& o) {
  SamplerOptions s;
  s.gpu_types = GpuCatalog::builtin().all();
  s.max_total_gpus = o.max_gpus;
  if (family == "larger") {
    s.min_total_gpus = 2 * o.max_gpus;
    s.max_total_gpus = 4 * o.max_gpus;
  }
  if (family == "wan-host") s.wan_capacity = WanCapacity::host;
  if (family == "multi-job") {
    s.min_total_gpus = std::min(8, o.max_gpus);
    return sample_jobs_scenario(seed, 2 + static_cast<int>(component_seed(seed, "gnn-families#jobs") % 3), s);
  }
  Scenario sc = sample_scenario(seed, s);
  if (sc.platform.total_gpus() < s.min_total_gpus)
    throw InputError("", 0, "sampler", "platform smaller than the family's minimum");
  return sc;
}

}  // namespace

std::vector<Scenario> family_scenarios(const std::string& family, const FamilyOptions& o) {
  const auto& names = gnn_family_names();
  if (std::find(names.begin(), names.end(), family) == names.end())
    throw InputError("", 0, "--families", "unknown family '" + family + "' (expected in-family, larger, wan-host, "
                                          "multi-job or paper)");
  if (family == "paper") return paper_scenarios(o.paper_dir);
  if (o.count < 1 || o.max_gpus < 4) throw InputError("", 0, "--count", "expected --count >= 1, --max-gpus >= 4");
  std::vector<Scenario> out;
  for (int i = 0; i < o.count; ++i) {
    for (int attempt = 0;; ++attempt) {
      if (attempt == 16)
        throw InputError("", 0, "--families", "family " + family + ": no scenario could be drawn for index " +
                                                  std::to_string(i));
      try {
        out.push_back(draw(family, family_scenario_seed(o.seed, family, i, attempt), o));
        break;
      } catch (const InputError&) {
        // a draw that does not fit (the sampler's own check or the family's size): the next attempt's seed
      }
    }
  }
  return out;
}

namespace {

/** One equal-budget annealing run and what it cost: the full estimates in all and the proposals it costed. */
struct BudgetRun {
  Placement placement;
  long long spent = 0, costed = 0;
};

}  // namespace

Placement equal_budget_placement(const Scenario& scenario, const Placement& greedy, long long evaluator_calls,
                                 long long* estimates) {
  const long long jobs = job_count(scenario);
  // The run that may cost `costed` proposals (each estimates every job), with or without the lower bound.
  const auto run = [&](long long costed, bool bound) {
    SearchOptions search;
    search.start = greedy;
    search.seed = component_seed(scenario.seed, "equal-budget");
    search.lower_bound = bound;
    search.max_estimates = std::max(1LL, costed);
    search.max_evaluations = kEqualBudgetProposalsPerEstimate * search.max_estimates;
    SearchPlacer placer(search);
    const long long before = hulk::evaluator_calls();
    BudgetRun r{placer.place(scenario), 0, 0};
    r.spent = hulk::evaluator_calls() - before;
    const SearchStats& st = placer.stats();
    r.costed = st.evaluations - st.repeats - st.bounded;
    return r;
  };
  // A run with the budget less the estimates made outside the annealing (its start's), measured by a first run.
  const auto exact = [&](bool bound) {
    const long long target = std::max(1LL, evaluator_calls / jobs);
    BudgetRun r = run(target, bound);
    const long long outside = r.spent - r.costed * jobs;
    const long long retarget = std::max(1LL, (evaluator_calls - outside) / jobs);
    if (r.spent != evaluator_calls && retarget != target) r = run(retarget, bound);
    return r;
  };
  // With the bound first: its proposals shown slower cost no estimate, so the run tries more moves. Where nearly all
  // are (greedy's placement near a local optimum) it stops at its cap with fewer estimates; then without the bound,
  // every proposal costed (the same decisions for the same proposals, annealing.hpp): exactly the estimates.
  BudgetRun r = exact(true);
  if (r.spent < evaluator_calls - (jobs - 1)) r = exact(false);
  if (estimates) *estimates = r.spent;
  return r.placement;
}

namespace {

FamilyRow variant_row(const std::string& name, std::size_t k, const std::vector<FamilyCase>& cases,
                      double log_search) {
  FamilyRow r;
  r.variant = name;
  r.worst_vs_greedy = INFINITY;
  double log_sum = 0, hard_sum = 0, ms_sum = 0;
  int hard = 0;
  std::vector<double> ratios;
  for (const FamilyCase& c : cases) {
    const double t = c.variant_s[k], speed = c.greedy_s / t;
    log_sum += std::log(speed);
    r.worst_vs_greedy = std::min(r.worst_vs_greedy, speed);
    r.below_097 += speed < 0.97;
    r.at_least_greedy += t <= c.greedy_s;
    if (c.greedy_s >= 1.10 * c.search_s) {
      hard_sum += std::log(c.greedy_s / t) / std::log(c.greedy_s / c.search_s);
      ++hard;
    }
    ms_sum += c.variant_ms[k];
    r.max_ms = std::max(r.max_ms, c.variant_ms[k]);
    ratios.push_back(c.search_wall_s / std::max(1e-6, c.variant_ms[k] / 1e3));
  }
  const double n = static_cast<double>(cases.size());
  r.geomean_vs_greedy = std::exp(log_sum / n);
  r.closed = log_search >= std::log1p(kClosedFromGain) ? (log_sum / n) / log_search : NAN;
  r.closed_hard = hard ? hard_sum / hard : NAN;
  r.mean_ms = ms_sum / n;
  r.search_time_ratio = median(ratios);
  return r;
}

}  // namespace

namespace {

/** The errors of the estimates that `estimate` picks out of the cases against `simgrid`'s times. */
EstimateErrors estimate_errors(const std::vector<FamilyCase>& cases, double (*estimate)(const FamilyCase&),
                               double (*simgrid)(const FamilyCase&)) {
  EstimateErrors e;
  std::vector<double> abs_errors;
  for (const FamilyCase& c : cases) {
    if (std::isnan(estimate(c))) continue;
    const double error = estimate(c) / simgrid(c) - 1.0;
    abs_errors.push_back(std::fabs(error));
    if (std::isnan(e.worst) || std::fabs(error) > std::fabs(e.worst)) e.worst = error;
    e.optimistic += error < -0.01;
  }
  e.cases = static_cast<int>(abs_errors.size());
  if (!abs_errors.empty()) e.median_abs = median(abs_errors);
  return e;
}

}  // namespace

FamilyFigures family_figures(const std::string& family, const std::vector<FamilyCase>& cases,
                             const std::vector<std::string>& variants) {
  FamilyFigures f;
  f.family = family;
  f.cases = static_cast<int>(cases.size());
  if (cases.empty()) return f;
  double log_search = 0;
  f.search_worst_vs_greedy = INFINITY;
  for (const FamilyCase& c : cases) {
    if (c.variant_s.size() != variants.size() || c.variant_ms.size() != variants.size())
      throw InputError("", 0, "", "family " + family + ", case " + c.name + ": not one time per variant");
    log_search += std::log(c.greedy_s / c.search_s);
    f.search_worst_vs_greedy = std::min(f.search_worst_vs_greedy, c.greedy_s / c.search_s);
    f.hard += c.greedy_s >= 1.10 * c.search_s;
  }
  log_search /= static_cast<double>(cases.size());
  for (const FamilyCase& c : cases) {
    if (c.gnn_evaluator_calls < 0 || c.equal_budget_evaluator_calls < 0) continue;
    ++f.counted;
    f.gnn_estimates += c.gnn_evaluator_calls;
    f.equal_budget_estimates += c.equal_budget_evaluator_calls;
    f.budget_matched += c.gnn_evaluator_calls == c.equal_budget_evaluator_calls;
  }
  f.search_vs_greedy = std::exp(log_search);
  for (std::size_t k = 0; k < variants.size(); ++k) f.rows.push_back(variant_row(variants[k], k, cases, log_search));
  f.search_estimates = estimate_errors(
      cases, [](const FamilyCase& c) { return c.search_estimate_s; }, [](const FamilyCase& c) { return c.search_s; });
  if (!variants.empty())
    f.first_estimates = estimate_errors(
        cases, [](const FamilyCase& c) { return c.first_estimate_s; },
        [](const FamilyCase& c) { return c.variant_s.front(); });
  return f;
}

namespace {

std::string percent_or_dash(double v) {
  if (std::isnan(v)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.0f%%", 100 * v);
  return b;
}

}  // namespace

std::string family_table(const FamilyFigures& f) {
  char b[512];
  std::snprintf(b, sizeof b,
                "%s: %d scenarios; search vs greedy %.3fx geomean (worst %.3fx); greedy >= 10%% slower than search "
                "on %d\n",
                f.family.c_str(), f.cases, f.search_vs_greedy, f.search_worst_vs_greedy, f.hard);
  std::string out = b;
  out += "  variant                vs_greedy   worst  <0.97x  >=greedy  closed  closed>=10%   ms_mean    ms_max  search/x\n";
  for (const FamilyRow& r : f.rows) {
    std::snprintf(b, sizeof b, "  %-20s  %8.3fx  %6.3fx  %6d  %8s  %6s  %11s  %8.1f  %8.1f  %8.3g\n",
                  r.variant.c_str(), r.geomean_vs_greedy, r.worst_vs_greedy, r.below_097,
                  (std::to_string(r.at_least_greedy) + "/" + std::to_string(f.cases)).c_str(),
                  percent_or_dash(r.closed).c_str(), percent_or_dash(r.closed_hard).c_str(), r.mean_ms, r.max_ms,
                  r.search_time_ratio);
    out += b;
  }
  const auto errors_text = [](const EstimateErrors& e) {
    char t[160];
    std::snprintf(t, sizeof t, "median |error| %.1f%%, worst %+.1f%%, more than 1%% too fast on %d of %d",
                  100 * e.median_abs, 100 * e.worst, e.optimistic, e.cases);
    return std::string(t);
  };
  if (f.first_estimates.cases > 0 && !f.rows.empty())
    out += "  evaluator's estimate against SimGrid (estimate / SimGrid - 1) on " + f.rows.front().variant +
           "'s placements: " + errors_text(f.first_estimates) + "\n";
  if (f.counted > 0) {
    std::snprintf(b, sizeof b,
                  "  full evaluator estimates: gnn %lld, equal-budget %lld (mean per scenario %.0f and %.0f; equal on "
                  "%d of %d)\n",
                  f.gnn_estimates, f.equal_budget_estimates, static_cast<double>(f.gnn_estimates) / f.counted,
                  static_cast<double>(f.equal_budget_estimates) / f.counted, f.budget_matched, f.counted);
    out += b;
  }
  if (f.search_estimates.cases > 0)
    out += "  on the search's (the best of its candidates by SimGrid): " + errors_text(f.search_estimates) + "\n";
  return out;
}

namespace {

const FamilyRow* row_of(const FamilyFigures& f, const std::string& variant) {
  for (const FamilyRow& r : f.rows)
    if (r.variant == variant) return &r;
  return nullptr;
}

std::string verdict(bool met) { return met ? "met" : "NOT met"; }

/** What the rows model-only and model-only-untrained say, when both ran: the weights' own effect (the argmax decode,
 *  nothing evaluated after it) and the search's wall time over the least work of a learned placement. */
std::string model_only_lines(const FamilyFigures& f) {
  const FamilyRow* m = row_of(f, "model-only");
  const FamilyRow* u = row_of(f, "model-only-untrained");
  if (!m || !u) return "";
  char b[512];
  std::snprintf(b, sizeof b,
                "  %s: the model alone (model-only) %.3fx greedy, fresh weights %.3fx: trained over untrained %.3fx; "
                "the search takes %.3gx its time (the least work of a placement that runs greedy and the model)\n",
                f.family.c_str(), m->geomean_vs_greedy, u->geomean_vs_greedy,
                m->geomean_vs_greedy / u->geomean_vs_greedy, m->search_time_ratio);
  return b;
}

/** What the learned placer adds over blind moves at its cost: gnn's share of greedy's gap to the search against the
 *  equal-budget row's (the annealing from greedy with as many estimates); the goal is 1.5x its share. */
std::string equal_budget_line(const FamilyFigures& f, const FamilyRow& gnn) {
  const FamilyRow* e = row_of(f, "equal-budget");
  if (!e) return "";
  char b[512];
  if (std::isnan(gnn.closed) || std::isnan(e->closed)) {
    std::snprintf(b, sizeof b, "  %s: gnn %.3fx greedy, equal-budget %.3fx (search gains under %.0f%%: no share)\n",
                  f.family.c_str(), gnn.geomean_vs_greedy, e->geomean_vs_greedy, 100 * kClosedFromGain);
    return b;
  }
  const bool met = gnn.closed >= 1.5 * e->closed && gnn.closed > 0;
  std::snprintf(b, sizeof b,
                "  %s: gnn closes %s of greedy's gap, equal-budget (annealing from greedy, as many evaluator calls) "
                "%s (goal: gnn >= 1.5x its share): %s\n",
                f.family.c_str(), percent_or_dash(gnn.closed).c_str(), percent_or_dash(e->closed).c_str(),
                verdict(met).c_str());
  return b;
}

}  // namespace

std::string family_criteria(const std::vector<FamilyFigures>& families) {
  std::string out = "done-when checks (gnn):\n";
  char b[512];
  for (const FamilyFigures& f : families) {
    const FamilyRow* g = row_of(f, "gnn");
    if (!g || f.cases == 0) continue;
    if (f.family == "in-family") {
      std::snprintf(b, sizeof b, "  %s: gnn %.3fx greedy on the geometric mean (goal >= 1.05x): %s\n",
                    f.family.c_str(), g->geomean_vs_greedy, verdict(g->geomean_vs_greedy >= 1.05).c_str());
      out += b;
    }
    if (f.search_vs_greedy >= 1.05) {
      const bool hard_ok = std::isnan(g->closed_hard) || g->closed_hard >= 0.5;
      std::snprintf(b, sizeof b,
                    "  %s: search %.3fx greedy; gnn closes %s of the gap (goal >= 50%%), %s on the %d cases greedy "
                    "leaves >= 10%% (goal >= 50%%): %s\n",
                    f.family.c_str(), f.search_vs_greedy, percent_or_dash(g->closed).c_str(),
                    percent_or_dash(g->closed_hard).c_str(), f.hard, verdict(g->closed >= 0.5 && hard_ok).c_str());
      out += b;
    }
    const double floor = f.family == "paper" ? 1.0 : 0.97;
    std::snprintf(b, sizeof b, "  %s: worst gnn vs greedy %.3fx (goal >= %.2fx on every case): %s\n",
                  f.family.c_str(), g->worst_vs_greedy, floor, verdict(g->worst_vs_greedy >= floor).c_str());
    out += b;
    std::snprintf(b, sizeof b, "  %s: search takes %.3gx gnn's placement time (median; goal >= 100x): %s\n",
                  f.family.c_str(), g->search_time_ratio, verdict(g->search_time_ratio >= 100).c_str());
    out += b;
    if (const FamilyRow* u = row_of(f, "untrained")) {
      const double gain = g->geomean_vs_greedy / u->geomean_vs_greedy;
      std::snprintf(b, sizeof b, "  %s: trained over untrained %.3fx on the geometric mean (goal >= 1.03x): %s\n",
                    f.family.c_str(), gain, verdict(gain >= 1.03).c_str());
      out += b;
    }
    out += model_only_lines(f);
    out += equal_budget_line(f, *g);
  }
  return out;
}

std::string family_csv(const std::vector<std::string>& families, const std::vector<std::vector<FamilyCase>>& cases,
                       const std::vector<std::string>& variants) {
  std::string out = "family,name,greedy_s,search_s,search_wall_s";
  for (const auto& v : variants) out += "," + v + "_s";
  for (const auto& v : variants) out += "," + v + "_ms";
  out += ",search_estimate_s";
  if (!variants.empty()) out += "," + variants.front() + "_estimate_s";
  out += ",gnn_evaluator_calls,equal_budget_evaluator_calls\n";
  char b[64];
  for (std::size_t f = 0; f < families.size(); ++f)
    for (const FamilyCase& c : cases[f]) {
      out += families[f] + "," + csv_field(c.name);
      for (double x : {c.greedy_s, c.search_s, c.search_wall_s}) {
        std::snprintf(b, sizeof b, ",%.9g", x);
        out += b;
      }
      for (double x : c.variant_s) {
        std::snprintf(b, sizeof b, ",%.9g", x);
        out += b;
      }
      for (double x : c.variant_ms) {
        std::snprintf(b, sizeof b, ",%.3f", x);
        out += b;
      }
      const auto estimate = [&](double x) {  // empty where not computed
        if (std::isnan(x)) return std::string(",");
        std::snprintf(b, sizeof b, ",%.9g", x);
        return std::string(b);
      };
      out += estimate(c.search_estimate_s);
      if (!variants.empty()) out += estimate(c.first_estimate_s);
      for (long long calls : {c.gnn_evaluator_calls, c.equal_budget_evaluator_calls})
        out += calls < 0 ? std::string(",") : "," + std::to_string(calls);
      out += "\n";
    }
  return out;
}

}  // namespace hulk
