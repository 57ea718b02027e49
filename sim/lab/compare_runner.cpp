#include "sim/lab/compare_runner.hpp"

#include <algorithm>

#include "sim/core/number_text.hpp"

#include <cmath>

#include <cstdio>
#include <iostream>
#include <map>

#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/core/jobs.hpp"
#include "sim/methods/known_simulations.hpp"
#include "sim/evaluate/lower_bound.hpp"
#include "sim/place/placer.hpp"
#include "sim/report/placement_json.hpp"

namespace hulk {
namespace {

/** One method's row. `known`: the quiet results of this compare so far (known_simulations.hpp), given to the method
 *  and added to; null when the rows are simulated under the scenario's events, which the methods' own simulations
 *  (quiet network) do not match. */
MethodResult run_one(const Scenario& scenario, const std::string& method, const MethodOptions& options,
                     KnownSimulations* known) {
  MethodResult r;
  r.method = method;
  try {
    // Methods place for the quiet network; the scenario's events (if any) are in the measurement only.
    Scenario quiet = scenario;
    quiet.events.clear();
    MethodOptions with_known = options;
    if (known) with_known.known_simulations = *known;
    PlacementOutcome placed = compute_placement(quiet, method, with_known);
    r.placement = placed.placement;
    r.method_wall_s = placed.wall_s;
    if (known)
      for (KnownSimulation& k : placed.simulated)
        if (!find_known(*known, k.placement)) known->push_back(std::move(k));
    simulate_placement(scenario, r, known);
  } catch (const InputError& e) {
    // An error about the scenario raised without its file (e.g. a method's limit on the job) names the file here.
    const std::string what = e.what(), no_file = "<input>: ";
    // A generated cluster has no file: its name stands in.
    const std::string& source = scenario.file.empty() ? scenario.name : scenario.file;
    r.error = what.rfind(no_file, 0) == 0 ? source + ": " + what.substr(no_file.size()) : what;
  }
  return r;
}

nlohmann::json or_null(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

/** Job k's simulated time; a result built without per-job times (one job) has its iteration time. */
std::optional<double> job_time(const MethodResult& r, std::size_t k) {
  if (k < r.job_times_s.size()) return r.job_times_s[k];
  if (r.job_times_s.empty() && k == 0) return r.iteration_time_s;
  return std::nullopt;
}

nlohmann::json job_time_json(const MethodResult& r, std::size_t k) { return or_null(job_time(r, k)); }

/** v to 4 significant digits; 1,000 and more as integers (a 20444.5% gap reads "20445"). */
std::string sig4(double v) { return hulk::sig4(v, 1e3); }

/** "1.234x" to 4 significant digits, or "n/a". */
std::string ratio_text(const std::optional<double>& v) { return v ? sig4(*v) + "x" : "n/a"; }

/** A gap (a ratio: 0.1234 = 12.34% above its reference) to 4 significant digits, or "n/a". */
std::string gap_text(const std::optional<double>& v) { return v ? sig4(*v) : "n/a"; }

}  // namespace

double gap_to_bound(double time_s, double lower_bound_s) { return relative_gap(time_s, lower_bound_s); }

void set_ratios(MethodResult& r, const MethodResult* round_robin, const MethodResult* greedy,
                const MethodResult* search, double lower_bound_s) {
  if (!r.ok) return;
  if (round_robin && round_robin->ok) r.speedup_vs_round_robin = round_robin->iteration_time_s / r.iteration_time_s;
  if (greedy && greedy->ok) r.speedup_vs_greedy = greedy->iteration_time_s / r.iteration_time_s;
  if (lower_bound_s > 0) r.gap_to_lower_bound = gap_to_bound(r.iteration_time_s, lower_bound_s);
  if (search && search->ok) r.gap_to_search = relative_gap(r.iteration_time_s, search->iteration_time_s);
}

void simulate_placement(const Scenario& scenario, MethodResult& r, KnownSimulations* known) {
  const nlohmann::json result = quiet_simulation(scenario, r.placement, known);
  r.iteration_time_s = result.at("objective_s").get<double>();
  r.job_times_s.clear();
  for (const nlohmann::json& job : result.at("jobs")) r.job_times_s.push_back(job.at("iteration_time_s").get<double>());
  r.compute_time_share.reset();
  if (result.contains("sync"))
    r.compute_time_share = result["sync"].at("compute_time_share").get<double>();
  else if (!names_jobs(scenario))
    r.compute_time_share = result.at("compute_s").get<double>() / result.at("iteration_time_s").get<double>();
  r.mfu = result.contains("sync") ? result["sync"].at("mfu").get<double>() : result.at("mfu").get<double>();
  r.ok = true;
}

CompareReport run_compare(const Scenario& scenario, const std::vector<std::string>& methods,
                          const MethodOptions& options, bool show_progress, bool round_robin_reference) {
  CompareReport report;
  report.scenario = scenario.name;
  report.lower_bound_s = lower_bound_s(scenario);
  if (names_jobs(scenario))
    for (const JobSpec& j : scenario.jobs) report.job_names.push_back(j.name);
  // The references (every speedup is relative to them, computed once all have run): greedy is always run (it is
  // quick to place and to simulate); round-robin only when asked for, its simulation being the slowest of all (most
  // traffic on the WAN). Each placement is simulated once on the quiet network (known_simulations.hpp): greedy's
  // result goes to the search's check, and round-robin, when the search runs too, comes right after it and takes
  // the check's result, the check having simulated round-robin's placement side by side with its annealing.
  KnownSimulations known;
  KnownSimulations* shared = scenario.events.empty() ? &known : nullptr;
  const auto asked = [&methods](const char* m) { return std::find(methods.begin(), methods.end(), m) != methods.end(); };
  const bool with_round_robin = round_robin_reference || asked("round-robin");
  const bool rr_after_search = with_round_robin && shared && asked("search");
  std::vector<std::string> order;
  if (with_round_robin && !rr_after_search) order.push_back("round-robin");
  order.push_back("greedy");
  for (const auto& m : methods)
    if (m != "round-robin" && m != "greedy") {
      order.push_back(m);
      if (m == "search" && rr_after_search) order.push_back("round-robin");
    }
  std::map<std::string, MethodResult> by_method;
  for (const auto& m : order) {
    // After an interrupt, start no more methods: they are reported as not run, the finished ones kept.
    if (interrupt_requested()) {
      by_method[m].method = m;
      by_method[m].error = "not run (interrupted)";
      continue;
    }
    // Whole lines: a method's own progress lines (search, exhaustive) come between the two.
    const std::string label = "[" + scenario.name + "] " + m;
    if (show_progress) std::cerr << label << " ...\n" << std::flush;
    by_method[m] = run_one(scenario, m, options, shared);
    if (show_progress) {
      const MethodResult& r = by_method[m];
      if (r.ok)
        std::fprintf(stderr, "%s: %.4f s/iteration (placed in %.3f s)\n", label.c_str(), r.iteration_time_s,
                     r.method_wall_s);
      else
        std::cerr << label << " failed: " << r.error << "\n";
    }
  }
  const auto ran = [&by_method](const char* m) { return by_method.count(m) ? &by_method[m] : nullptr; };
  const MethodResult *rr = ran("round-robin"), *greedy = ran("greedy"), *search = ran("search");
  for (const auto& m : methods) {
    MethodResult r = by_method[m];
    set_ratios(r, rr, greedy, search, report.lower_bound_s);
    report.results.push_back(r);
  }
  return report;
}

nlohmann::json report_to_json(const Scenario& scenario, const CompareReport& report) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : report.results) {
    nlohmann::json j = {{"method", r.method}, {"ok", r.ok}};
    if (r.ok) {
      j["iteration_time_s"] = r.iteration_time_s;
      j["objective_s"] = r.iteration_time_s;
      nlohmann::json jobs = nlohmann::json::array();
      for (int k = 0; k < job_count(scenario); ++k) {
        const JobSpec& job = job_at(scenario, k);
        jobs.push_back({{"name", job.name.empty() ? job.model.name : job.name},
                        {"weight", job.weight},
                        {"iteration_time_s", job_time_json(r, k)}});
      }
      j["jobs"] = jobs;
      j["speedup_vs_round_robin"] = or_null(r.speedup_vs_round_robin);
      j["speedup_vs_greedy"] = or_null(r.speedup_vs_greedy);
      j["gap_to_lower_bound"] = or_null(r.gap_to_lower_bound);
      j["gap_to_search"] = or_null(r.gap_to_search);
      j["compute_time_share"] = or_null(r.compute_time_share);
      j["mfu"] = or_null(r.mfu);
      j["placement"] = placement_to_json(scenario, r.placement);
      j["method_wall_s"] = r.method_wall_s;
    } else {
      j["error"] = r.error;
    }
    results.push_back(j);
  }
  return {{"scenario", report.scenario}, {"lower_bound_s", report.lower_bound_s}, {"results", results}};
}

bool any_method_ok(const CompareReport& report) {
  for (const auto& r : report.results)
    if (r.ok) return true;
  return false;
}

std::string report_table(const CompareReport& report) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%s (lower bound %s s/iteration)\n", report.scenario.c_str(),
                sig4(report.lower_bound_s).c_str());
  out += line;
  // The method column as wide as its longest name (a file:PATH method shifted every column after it).
  std::size_t width = 12;
  for (const auto& r : report.results) width = std::max(width, r.method.size());
  const auto method_cell = [width](const std::string& name) { return name + std::string(width - name.size(), ' '); };
  std::snprintf(line, sizeof line, " %12s %10s %10s %10s %10s %11s\n",
                report.job_names.size() < 2 ? "iter_time_s" : "objective_s", "vs_rr", "vs_greedy", "gap_lb",
                "gap_search", "method_s");
  out += method_cell("method") + line;
  for (const auto& r : report.results) {
    if (!r.ok) {
      out += r.method + "  failed: " + r.error + "\n";
      continue;
    }
    std::snprintf(line, sizeof line, " %12s %10s %10s %10s %10s %11.3f\n", sig4(r.iteration_time_s).c_str(),
                  ratio_text(r.speedup_vs_round_robin).c_str(), ratio_text(r.speedup_vs_greedy).c_str(),
                  gap_text(r.gap_to_lower_bound).c_str(), gap_text(r.gap_to_search).c_str(),
                  r.method_wall_s);
    out += method_cell(r.method) + line;
    if (report.job_names.size() < 2) continue;
    // Several jobs: the time column is the objective; each job's own time on the line below.
    out += "             jobs:";
    for (std::size_t k = 0; k < report.job_names.size(); ++k)
      out += " " + report.job_names[k] + " " + (job_time(r, k) ? sig4(*job_time(r, k)) : std::string("n/a")) +
             (k + 1 < report.job_names.size() ? "," : "");
    out += "\n";
  }
  return out + "(vs_*: speedup, reference time / time; gap_*: time / reference - 1, 0.1 = 10% slower; method_s: "
               "wall time of placing)\n";
}

}  // namespace hulk
