#include "sim/lab/compare_run.hpp"

#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/lab/robust_check.hpp"

namespace hulk {
namespace {

/** Each ok method's mean SimGrid time over `states` states of the robust distribution, into the JSON report
 *  (results[i].expected_under_robust_s) with progress. */
void add_robust_expectations(const Scenario& s, const CompareReport& report, int states, nlohmann::json& doc,
                             const std::function<void(const std::string&)>& progress) {
  for (std::size_t i = 0; i < report.results.size(); ++i) {
    const MethodResult& r = report.results[i];
    if (!r.ok) continue;
    if (progress)
      progress("[" + s.name + "] " + r.method + " over " + std::to_string(states) + " robust states ...");
    const double t = expected_time_under_robust_s(s, r.placement, states);
    std::ostringstream line;  // the stream's default format: six significant digits
    line << " " << t << " s/iteration\n";
    if (progress) progress(line.str());
    doc["results"][i]["expected_under_robust_s"] = t;
  }
  doc["robust_states"] = states;
}

}  // namespace

CompareRun run_compare_scenario(Scenario& s, const CompareOptions& options) {
  if (options.events && s.events.empty())  // it would silently compare on the quiet network
    throw InputError(s.file, 0, "--events", "the scenario has no events (expected an `events:` list)");
  if (!options.events && !s.events.empty()) {
    if (!options.quiet && options.progress)
      options.progress("note: the scenario's " + std::to_string(s.events.size()) +
                       " events are ignored (quiet network); --events simulates every method under them\n");
    s.events.clear();
  }
  if (options.robust_states > 0 && s.robust.samples <= 0)
    throw InputError(s.file, 0, "--robust-states", "the scenario has no `robust:` distribution to draw from");
  // A method the input rules out is refused before any method runs (exit 2, nothing written), not a failed row.
  for (const std::string& m : options.methods) check_method_applies(s, m, options.options);
  CompareRun out;
  out.report = run_compare(s, options.methods, options.options, true);
  out.doc = report_to_json(s, out.report);
  if (!options.layout.empty()) out.doc["layout"] = options.layout;
  if (options.robust_states > 0) add_robust_expectations(s, out.report, options.robust_states, out.doc, options.progress);
  out.interrupted = interrupt_requested();
  return out;
}

std::string robust_table(const nlohmann::json& doc) {
  if (!doc.contains("robust_states")) return "";
  std::string out = "\nMean SimGrid time over " + std::to_string(doc["robust_states"].get<int>()) +
                    " network states of the robust: distribution (s/iteration):\n";
  for (const auto& r : doc["results"])
    if (r.contains("expected_under_robust_s"))
      out += "  " + r["method"].get<std::string>() + ": " + sig4(r["expected_under_robust_s"].get<double>(), 1e3) +
             "\n";
  return out;
}

}  // namespace hulk
