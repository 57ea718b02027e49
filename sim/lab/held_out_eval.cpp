#include "sim/lab/held_out_eval.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/core/statistics.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/isolated_run.hpp"

namespace hulk {

HeldOutReport evaluate_held_out(const std::vector<HeldOutCase>& cases, const std::vector<LearnedAnswer>& answers,
                                std::ostream* progress) {
  if (cases.size() != answers.size())
    throw InputError("", 0, "", "held-out evaluation: " + std::to_string(answers.size()) + " answers for " +
                                    std::to_string(cases.size()) + " samples");
  HeldOutReport report;
  report.total = static_cast<int>(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const HeldOutCase& c = cases[i];
    if (!answers[i].ok) {
      report.failures.emplace_back(c.index, answers[i].error);
      if (progress) *progress << "gnn-eval: sample " << c.index << ": " << answers[i].error << "\n";
      continue;
    }
    HeldOutRow row;
    row.index = c.index;
    try {
      row.gnn_s = simulated_iteration_time_s(c.scenario, answers[i].placement);
    } catch (const InputError&) {
      if (!interrupt_requested()) throw;
    }
    if (interrupt_requested()) {  // the simulation was cut short: the cases before it are the result
      report.interrupted = true;
      break;
    }
    row.greedy_s = c.times_s.at("greedy");
    row.search_s = c.times_s.at("search");
    row.round_robin_s = c.times_s.count("round-robin") ? c.times_s.at("round-robin") : NAN;
    row.inference_ms = answers[i].inference_ms;
    report.rows.push_back(row);
    if (progress) {
      char line[200];
      std::snprintf(line, sizeof line, "gnn-eval: [%zu/%zu] sample %d: gnn %.4f s, greedy %.4f s, search %.4f s\n",
                    i + 1, cases.size(), c.index, row.gnn_s, row.greedy_s, row.search_s);
      *progress << line;
    }
  }
  return report;
}

namespace {

/** median() of statistics.hpp, 0 without values (the report prints 0.0% then). */
double median_or_zero(const std::vector<double>& v) { return v.empty() ? 0.0 : median(v); }

/** Counts and medians that compare gnn and greedy with the search label, case by case. */
void add_search_comparisons(const HeldOutReport& report, HeldOutFigures& f) {
  std::vector<double> gnn_gaps, greedy_gaps;
  double log_search = 0;
  for (const auto& r : report.rows) {
    gnn_gaps.push_back(relative_gap(r.gnn_s, r.search_s));
    greedy_gaps.push_back(relative_gap(r.greedy_s, r.search_s));
    log_search += std::log(r.greedy_s / r.search_s);
    if (r.gnn_s <= 1.05 * r.search_s) ++f.within_5pct_of_search;
    if (r.gnn_s <= r.greedy_s) ++f.at_least_as_fast_as_greedy;
  }
  if (report.rows.empty()) return;
  f.median_gap_to_search = median_or_zero(gnn_gaps);
  f.greedy_median_gap_to_search = median_or_zero(greedy_gaps);
  double sum = 0;
  for (double g : greedy_gaps) sum += g;
  f.greedy_mean_gap_to_search = sum / greedy_gaps.size();
  f.search_geomean_vs_greedy = std::exp(log_search / report.rows.size());
}

}  // namespace

HeldOutFigures held_out_figures(const HeldOutReport& report) {
  HeldOutFigures f;
  add_search_comparisons(report, f);
  double log_rr = 0, log_gr = 0, gap = 0, ms = 0;
  f.worst_vs_round_robin = f.worst_vs_greedy = INFINITY;
  for (const auto& r : report.rows) {
    ++f.placed;
    log_gr += std::log(r.greedy_s / r.gnn_s);
    f.worst_vs_greedy = std::min(f.worst_vs_greedy, r.greedy_s / r.gnn_s);
    gap += relative_gap(r.gnn_s, r.search_s);
    ms += r.inference_ms;
    if (!std::isnan(r.round_robin_s)) {
      ++f.with_round_robin;
      log_rr += std::log(r.round_robin_s / r.gnn_s);
      f.worst_vs_round_robin = std::min(f.worst_vs_round_robin, r.round_robin_s / r.gnn_s);
    }
  }
  if (f.placed) {
    f.geomean_vs_greedy = std::exp(log_gr / f.placed);
    f.mean_gap_to_search = gap / f.placed;
    f.mean_inference_ms = ms / f.placed;
  } else {
    f.worst_vs_greedy = 0;
  }
  if (f.with_round_robin)
    f.geomean_vs_round_robin = std::exp(log_rr / f.with_round_robin);
  else
    f.worst_vs_round_robin = 0;
  return f;
}

std::string held_out_summary(const HeldOutFigures& f, int total, const std::string& label_generator) {
  char buf[1024];
  std::string out;
  std::snprintf(buf, sizeof buf, "gnn-eval: %d of %d samples placed; search labels from: %s\n", f.placed, total,
                label_generator.c_str());
  out += buf;
  if (f.placed == 0) return out;
  if (f.with_round_robin > 0) {
    std::snprintf(buf, sizeof buf, "  vs round-robin: geomean %.3fx, worst %.3fx (%d %s where it fits)\n",
                  f.geomean_vs_round_robin, f.worst_vs_round_robin, f.with_round_robin,
                  f.with_round_robin == 1 ? "sample" : "samples");
    out += buf;
  }
  std::snprintf(buf, sizeof buf,
                "  vs greedy: geomean %.3fx, worst %.3fx; at least as fast as greedy on %d of %d\n"
                "  gap to search: median %.1f%%, mean %.1f%%; within 5%% of search on %d of %d\n"
                "  search vs greedy: geomean %.3fx; greedy's gap to search: median %.1f%%, mean %.1f%%\n"
                "  inference per placement: %.1f ms (mean)\n",
                f.geomean_vs_greedy, f.worst_vs_greedy, f.at_least_as_fast_as_greedy, f.placed,
                100 * f.median_gap_to_search, 100 * f.mean_gap_to_search, f.within_5pct_of_search, f.placed,
                f.search_geomean_vs_greedy, 100 * f.greedy_median_gap_to_search, 100 * f.greedy_mean_gap_to_search,
                f.mean_inference_ms);
  out += buf;
  return out;
}

std::string held_out_csv(const HeldOutReport& report) {
  std::string csv = "index,gnn_s,round_robin_s,greedy_s,search_s,inference_ms\n";
  for (const auto& r : report.rows) {
    char line[200];
    std::snprintf(line, sizeof line, "%d,%.9g,%.9g,%.9g,%.9g,%.3f\n", r.index, r.gnn_s, r.round_robin_s, r.greedy_s,
                  r.search_s, r.inference_ms);
    csv += line;
  }
  return csv;
}

}  // namespace hulk
