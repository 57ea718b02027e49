#include "sim/lab/fidelity.hpp"

#include "sim/core/statistics.hpp"
#include "sim/core/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/engine/collective_bench_run.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/lab/fidelity_collective.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/scenario/collective_bench_file.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk {

double simulate_scenario_iteration_s(const Scenario& scenario) {
  const PlacementOutcome placed = compute_placement(scenario, scenario.placement, MethodOptions{});
  return simulated_iteration_time_s(scenario, placed.placement);
}

Calibration calibrate_utilisation(const std::function<double(double)>& time_of, double target_s, double start_u,
                                  double rel_tol, int max_simulations) {
  // Work on y = 1/u: the iteration time is close to affine in y (compute scales with y, exposed communication
  // does not), so secant steps on g(y) = time - target converge in a few simulations. g increases with y.
  const double y_min = 1.0, y_max = 1.0 / kMinCalibratedUtilisation;
  Calibration c;
  double best = HUGE_VAL;  // |g| of the closest simulation so far, whose u and time c keeps
  auto eval = [&](double y) {
    const double t = time_of(1.0 / y);
    ++c.simulations;
    const double g = t - target_s;
    if (std::fabs(g) < best) {
      best = std::fabs(g);
      c.utilisation = 1.0 / y;
      c.simulated_s = t;
    }
    c.reached = c.reached || std::fabs(g) <= rel_tol * target_s;
    return g;
  };
  std::optional<double> lo, hi;  // lo: g < 0 (too fast: raise y); hi: g > 0
  double y = 1.0 / std::clamp(start_u, 1.0 / y_max, 1.0);
  double y_prev = 0, g_prev = 0;
  bool have_prev = false;
  while (c.simulations < max_simulations) {
    const double g = eval(y);
    if (c.reached) return c;
    if (g < 0) lo = y;
    else hi = y;
    if (g > 0 && y <= y_min) return c;  // slower than measured even at full peak: unreachable (u = 1 kept)
    if (g < 0 && y >= y_max) {  // faster than measured even at u = 1e-6: give up
      c.faster_at_lowest = true;
      return c;
    }
    // Secant through the last two points; else the pure-compute guess time ~ y.
    double next = y * target_s / (g + target_s);
    if (have_prev && y != y_prev && g != g_prev) {
      const double slope = (g - g_prev) / (y - y_prev);
      if (std::isfinite(slope) && slope > 0) next = y - g / slope;
    }
    next = std::clamp(next, y_min, y_max);
    if (lo && hi && !(next > *lo && next < *hi)) next = 0.5 * (*lo + *hi);
    if (next == y) break;  // no progress possible
    y_prev = y;
    g_prev = g;
    have_prev = true;
    y = next;
  }
  return c;
}

ErrorSummary summarize_errors(const std::vector<const FidelityRow*>& rows) {
  std::vector<double> errs;
  for (const FidelityRow* r : rows)
    if (!r->point.calibrate && r->simulated_s) errs.push_back(std::fabs(r->error()));
  ErrorSummary s;
  s.count = static_cast<int>(errs.size());
  if (errs.empty()) return s;
  s.median_abs = median(errs);
  s.max_abs = *std::max_element(errs.begin(), errs.end());
  return s;
}

namespace {

std::string sig4(double v) { return hulk::sig4(v, 1e4); }

std::string percent(double fraction) {
  char buf[64];
  double p = 100.0 * fraction;
  if (std::fabs(p) < 0.005) p = 0.0;  // no "-0.00%"
  std::snprintf(buf, sizeof buf, "%+.2f%%", p);
  return buf;
}

/** A number in at most 4 significant digits, any magnitude ("1e+300"). */
std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

/** Longest measured iteration accepted (seconds, after the unit's conversion): a month. Beyond it the calibration
 *  cannot tell simulations apart (1e300 s minus any simulated time is 1e300 s) and the value is surely a typo. */
constexpr double kMaxMeasuredIterationS = 30.0 * 24 * 3600;

/** Point i's scenario. @throws InputError naming points.i.scenario for a scenario with several jobs: the
 *  calibration sets one job's utilisation, and the measured units describe one job. */
Scenario checked_scenario(const FidelityManifest& manifest, std::size_t i) {
  const FidelityPoint& p = manifest.points[i];
  Scenario s = load_scenario_file(p.scenario);
  if (names_jobs(s))
    throw InputError(manifest.file, p.line, "points." + std::to_string(i) + ".scenario",
                     "'" + p.scenario + "' has " + std::to_string(job_count(s)) +
                         " jobs (expected a scenario of one job: a measured point and its calibrated utilisation "
                         "describe one job)");
  return s;
}

void report(std::ostream* progress, const std::string& line) {
  if (progress) *progress << "fidelity: " << line << "\n" << std::flush;
}

}  // namespace

namespace {

/** A point's simulation as a function of the series' calibrated value (utilisation, or a transport's fraction). */
using PointRun = std::function<double(double)>;

/** Point i of a collective benchmark series: its row (measured seconds) and its run at a fraction. */
PointRun bench_point(const FidelityManifest& manifest, std::size_t i, const CollectiveSimulator& simulate_bench,
                     FidelityRow& row) {
  const FidelityPoint& p = manifest.points[i];
  const std::string key = "points." + std::to_string(i);
  if (p.transport.empty())
    throw InputError(manifest.file, p.line, key + ".transport",
                     "missing: '" + p.scenario + "' is a collective benchmark (expected the transport whose achieved "
                     "fraction its series calibrates)");
  if (p.unit != "s" && p.unit != "GB/s busbw")
    throw InputError(manifest.file, p.line, key + ".unit",
                     "'" + p.unit + "' for a collective benchmark (expected s or GB/s busbw)");
  const CollectiveBenchSpec spec = load_collective_bench_file(p.scenario);
  row.measured_s = measured_collective_time_s(p, spec.bytes, collective_bus_factor(spec.op, spec.ranks()));
  const std::string file = p.scenario, transport = p.transport;
  return [file, transport, &simulate_bench](double fraction) {
    return simulate_bench(load_collective_bench_file(file, {{transport, fraction}}));
  };
}

/** Point i of a training series: its row (measured seconds per iteration) and its run at a utilisation. */
PointRun training_point(const FidelityManifest& manifest, std::size_t i, const IterationSimulator& simulate,
                        FidelityRow& row, double& start) {
  const FidelityPoint& p = manifest.points[i];
  if (!p.transport.empty() || p.unit == "GB/s busbw")
    throw InputError(manifest.file, p.line, "points." + std::to_string(i) + ".scenario",
                     "'" + p.scenario + "' is a training scenario, but its point gives a transport or GB/s busbw "
                     "(expected a collective benchmark, scenarios/README.md)");
  auto scenario = std::make_shared<Scenario>(checked_scenario(manifest, i));
  row.measured_s = measured_iteration_time_s(p, scenario->only_job());
  if (p.calibrate) start = scenario->only_job().utilisation;
  return [scenario, &simulate](double u) {
    Scenario s = *scenario;
    s.only_job().utilisation = u;
    return simulate(s);
  };
}

/** The series' starting value of the calibration: a transport's catalog fraction. */
double catalog_fraction(const FidelityManifest& manifest, const FidelityPoint& p) {
  const TransportSpec* t = TransportCatalog::builtin().find(p.transport);
  if (t == nullptr)
    throw InputError(manifest.file, p.line, "transport",
                     "unknown transport '" + p.transport + "' (expected one of platforms/transports.yaml)");
  return t->achieved;
}

}  // namespace

double simulate_collective_time_s(const CollectiveBenchSpec& spec) {
  return simulate_collective_isolated(spec).time_s;
}

std::vector<FidelitySeries> run_fidelity(const FidelityManifest& manifest, const std::vector<std::string>& only,
                                         const IterationSimulator& simulate, std::ostream* progress,
                                         const CollectiveSimulator& simulate_bench) {
  const std::vector<std::string> all = manifest.series();
  for (const auto& name : only)
    if (std::find(all.begin(), all.end(), name) == all.end()) {
      std::string list;
      for (const auto& a : all) list += (list.empty() ? "" : ", ") + a;
      throw InputError(manifest.file, 0, "--series", "unknown series '" + name + "' (expected one of: " + list + ")");
    }
  std::vector<FidelitySeries> out;
  for (const auto& name : all) {
    if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
    FidelitySeries fs;
    fs.name = name;
    std::vector<PointRun> runs;
    double start = 0.4;
    // Load every file of the series first: a bad one stops the run before any simulation.
    for (std::size_t i = 0; i < manifest.points.size(); ++i) {
      const FidelityPoint& p = manifest.points[i];
      if (p.series != name) continue;
      FidelityRow row;
      row.point = p;
      fs.transport = p.transport;
      if (is_collective_bench_file(p.scenario)) {
        runs.push_back(bench_point(manifest, i, simulate_bench, row));
        if (p.calibrate) start = catalog_fraction(manifest, p);
      } else {
        runs.push_back(training_point(manifest, i, simulate, row, start));
      }
      if (!(row.measured_s <= kMaxMeasuredIterationS))
        throw InputError(manifest.file, p.line, "points." + std::to_string(i) + ".measured",
                         "is " + short_number(row.measured_s) + " s per iteration in this scenario (expected at most " +
                             short_number(kMaxMeasuredIterationS) + " s, a month: a value or unit typed wrong?)");
      fs.rows.push_back(row);
    }
    std::size_t cal = 0;
    while (!fs.rows[cal].point.calibrate) ++cal;
    fs.calibration_case = fs.rows[cal].point.case_name;
    const std::string knob = fs.transport.empty() ? "utilisation" : "achieved " + fs.transport;

    auto run_at = [&](std::size_t i, double u) {
      const double t = runs[i](u);
      char buf[96];
      std::snprintf(buf, sizeof buf, " %.6f -> %s s (measured %s s)", u, sig4(t).c_str(),
                    sig4(fs.rows[i].measured_s).c_str());
      report(progress, "[" + name + "] " + fs.rows[i].point.case_name + ": " + knob + buf);
      return t;
    };
    try {
      const Calibration c =
          calibrate_utilisation([&](double u) { return run_at(cal, u); }, fs.rows[cal].measured_s, start);
      fs.calibration = c;
      fs.rows[cal].simulated_s = c.simulated_s;
    } catch (const InputError& e) {
      fs.rows[cal].failure = e.what();
    }
    for (std::size_t i = 0; i < fs.rows.size(); ++i) {
      if (i == cal) continue;
      if (!fs.calibration) {
        fs.rows[i].failure = "not simulated: the series' calibration point failed";
        continue;
      }
      try {
        fs.rows[i].simulated_s = run_at(i, fs.calibration->utilisation);
      } catch (const InputError& e) {
        fs.rows[i].failure = e.what();
      }
    }
    out.push_back(fs);
  }
  return out;
}

namespace {

/** "" when the calibration reached the measured time, else why not. */
std::string calibration_state(const Calibration& c, const std::string& knob) {
  if (c.reached) return "";
  if (c.utilisation >= 1.0) return "; NOT reached: even " + knob + " 1 is slower than measured";
  if (c.faster_at_lowest)
    return "; NOT reached: even " + knob + " 1e-6 is faster than measured";
  return "; NOT converged";
}

}  // namespace

std::string fidelity_table(const std::vector<FidelitySeries>& series, const std::string& manifest_file) {
  std::vector<std::vector<std::string>> cells = {
      {"series", "case", "measured_s", "simulated_s", "error", "source"}};
  std::vector<const FidelityRow*> all_rows;
  int points = 0, failed = 0;
  for (const auto& s : series)
    for (const auto& r : s.rows) {
      ++points;
      all_rows.push_back(&r);
      const std::string sim = r.simulated_s ? sig4(*r.simulated_s) : "failed";
      std::string err = r.simulated_s ? percent(r.error()) : "-";
      if (r.point.calibrate) err += " (cal)";
      if (!r.simulated_s) ++failed;
      cells.push_back({s.name, r.point.case_name, sig4(r.measured_s), sim, err, r.point.source});
    }
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& row : cells)
    for (std::size_t c = 0; c + 1 < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::ostringstream out;
  out << "Fidelity: " << points << (points == 1 ? " measured point in " : " measured points in ") << series.size()
      << " series (" << manifest_file
      << "); error = simulated / measured - 1; (cal) = the series' calibration point\n\n";
  for (const auto& row : cells) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << row[c];
      if (c + 1 < row.size()) out << std::string(width[c] - row[c].size() + 2, ' ');
    }
    out << "\n";
  }
  for (const auto& s : series)
    for (const auto& r : s.rows)
      if (!r.simulated_s) out << "failed: " << s.name << " " << r.point.case_name << ": " << r.failure << "\n";
  out << "\n";
  auto summary_line = [](const ErrorSummary& e) {
    if (e.count == 0) return std::string("no point besides the calibration point ran");
    return std::to_string(e.count) + (e.count == 1 ? " point" : " points") + " besides calibration: median |error| " +
           percent(e.median_abs).substr(1) + ", max |error| " + percent(e.max_abs).substr(1);
  };
  for (const auto& s : series) {
    std::vector<const FidelityRow*> rows;
    for (const auto& r : s.rows) rows.push_back(&r);
    out << s.name << ": ";
    if (s.calibration) {
      char buf[128];
      const std::string knob = s.transport.empty() ? "utilisation" : "achieved " + s.transport;
      std::snprintf(buf, sizeof buf, s.calibration->utilisation >= 1e-4 ? "%s %.4f" : "%s %.2g", knob.c_str(),
                    s.calibration->utilisation);
      out << buf << " (calibrated on " << s.calibration_case << ", " << s.calibration->simulations
          << " simulations" << calibration_state(*s.calibration, knob) << "); ";
    } else {
      out << "calibration failed; ";
    }
    out << summary_line(summarize_errors(rows)) << "\n";
  }
  out << "all series: " << summary_line(summarize_errors(all_rows));
  if (failed > 0) out << "; " << failed << " failed";
  out << "\n";
  return out.str();
}

}  // namespace hulk
