// The HTML reports of compare and reproduce (html_report.hpp): tables from the JSON reports, pictures from
// placement_svg.cpp. No script and no external asset: the file opens the same anywhere, offline.
#include "sim/report/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/number_text.hpp"
#include "sim/report/placement_json.hpp"

namespace hulk {
namespace {

using nlohmann::json;

const char* const kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:1.5em;margin-bottom:4px}
h2{font-size:1.25em;margin-top:32px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:1.05em;margin:18px 0 6px}.facts{color:#555;margin:2px 0 12px}
table{border-collapse:collapse;margin:8px 0 16px}th,td{border:1px solid #ccc;padding:4px 10px;text-align:right}
th{background:#f0f3f7}td.name,th.name{text-align:left}td.na{color:#888}td.failed{color:#b00020;text-align:left}
tr.best td{font-weight:600;background:#eef8ee}
.verdict{padding:8px 12px;border-radius:4px;margin:8px 0;border:1px solid #ccc}
.verdict.yes{background:#e8f5e9;border-color:#8bc34a}.verdict.no{background:#fdecea;border-color:#e57373}
.verdict.untested{background:#f5f5f5}
figure{margin:12px 0 20px}figcaption{font-weight:600;margin-bottom:6px}
svg.placement{display:block;max-width:100%;height:auto}
svg .region-box{stroke:#555;stroke-width:1}svg .host-box{stroke:#aaa;stroke-width:1}
svg .cell{stroke:#666;stroke-width:.6}svg .idle{stroke:#bbb;stroke-width:.6;stroke-dasharray:2 2}
svg text{font-family:system-ui,sans-serif;fill:#222}svg .region-name{font-size:13px;font-weight:600}
svg .host-name{font-size:10px;fill:#555}svg .stage{font-size:11px;font-weight:600;text-anchor:middle}
svg .coord{font-size:9.5px;text-anchor:middle}svg .legend{font-size:11px}
details{margin:6px 0}summary{cursor:pointer;font-weight:600})";

std::string fmt(const char* format, double v) {
  char b[64];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

/** A number of the report, or null when the key is absent or null (a reference method that did not run). */
const json* number_at(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() || !it->is_number() ? nullptr : &*it;
}

/** A table cell: the formatted number, or "n/a" greyed. */
std::string cell(const json* v, const std::string& text) {
  return v == nullptr ? "<td class=\"na\">n/a</td>" : "<td>" + text + "</td>";
}
std::string seconds_cell(const json& obj, const char* key) {
  const json* v = number_at(obj, key);
  return cell(v, v ? sig4(v->get<double>(), 1e3) : "");
}
std::string ratio_cell(const json& obj, const char* key) {
  const json* v = number_at(obj, key);
  return cell(v, v ? sig4(v->get<double>(), 1e3) + "&times;" : "");
}
std::string percent_cell(const json& obj, const char* key) {
  const json* v = number_at(obj, key);
  return cell(v, v ? sig4(100.0 * v->get<double>(), 1e3) + "%" : "");
}

std::string string_at(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool ok(const json& r) { return r.value("ok", false) && number_at(r, "iteration_time_s") != nullptr; }

/** The index of the fastest ok method (-1 if none): its row is highlighted. */
int fastest(const json& results) {
  int best = -1;
  for (std::size_t i = 0; i < results.size(); ++i)
    if (ok(results[i]) && (best < 0 || results[i]["iteration_time_s"].get<double>() <
                                           results[best]["iteration_time_s"].get<double>()))
      best = static_cast<int>(i);
  return best;
}

/** The methods' table of one compare report. */
std::string methods_table(const Scenario& s, const json& report) {
  const bool several = names_jobs(s);
  std::string out = "<table class=\"methods\"><thead><tr><th class=\"name\">method</th><th>" +
                    std::string(several ? "objective (s/iteration)" : "iteration time (s)") +
                    "</th><th>vs round-robin</th><th>vs greedy</th><th>gap to lower bound</th>"
                    "<th>gap to search</th><th>placement time (s)</th></tr></thead><tbody>";
  const json& results = report.at("results");
  const int best = fastest(results);
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& r = results[i];
    const std::string method = html_escape(string_at(r, "method"));
    if (!ok(r)) {
      out += "<tr class=\"method-row\"><td class=\"name\">" + method +
             "</td><td class=\"failed\" colspan=\"6\">failed: " +
             html_escape(string_at(r, "error")) + "</td></tr>";
      continue;
    }
    out += std::string("<tr class=\"method-row") + (static_cast<int>(i) == best ? " best" : "") +
           "\"><td class=\"name\">" + method + "</td>" + seconds_cell(r, "iteration_time_s") +
           ratio_cell(r, "speedup_vs_round_robin") + ratio_cell(r, "speedup_vs_greedy") +
           percent_cell(r, "gap_to_lower_bound") + percent_cell(r, "gap_to_search") + seconds_cell(r, "method_wall_s") +
           "</tr>";
  }
  return out + "</tbody></table>";
}

/** One line of facts: GPUs, regions, the job(s) and the lower bound. */
std::string facts(const Scenario& s, const json& report) {
  std::string jobs;
  for (int j = 0; j < job_count(s); ++j) {
    const JobSpec& job = job_at(s, j);
    jobs += (j ? "; " : "") + html_escape((names_jobs(s) ? job_label(s, j) + ": " : std::string()) + job.model.name +
                                          ", " + parallelism_text(job));
  }
  const json* lb = number_at(report, "lower_bound_s");
  return "<p class=\"facts\">" + std::to_string(s.platform.total_gpus()) + " GPUs in " +
         std::to_string(s.platform.regions.size()) + " regions; " + jobs + "; lower bound " +
         (lb ? sig4(lb->get<double>(), 1e3) + " s/iteration" : std::string("n/a")) + "</p>";
}

/** The pictures of every method that gave a placement. */
std::string pictures(const Scenario& s, const json& report, const std::string& heading) {
  std::string out;
  for (const json& r : report.at("results")) {
    if (!ok(r) || !r.contains("placement")) continue;
    const Placement placement = placement_from_json(s, r["placement"], "the report of " + s.name);
    out += "<figure class=\"method-placement\"><figcaption>" + heading + html_escape(string_at(r, "method")) + " (" +
           sig4(r["iteration_time_s"].get<double>(), 1e3) + " s/iteration)</figcaption>" +
           placement_svg(s, placement) + "</figure>";
  }
  return out;
}

std::string document(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
         "</title><style>" + kStyle + "</style></head><body>\n" + body + "\n</body></html>\n";
}

/** The claim's verdict box from reproduce_json's claim keys. */
std::string verdict(const json& doc, const std::string& what) {
  const std::string method = html_escape(string_at(doc, "claim_method"));
  const json* f = number_at(doc, "claim_fraction_faster");
  const json* g = number_at(doc, "claim_fraction_faster_vs_greedy");
  const int n = doc.value("claim_scenarios", 0);
  std::string out = "<div class=\"verdict ";
  if (f == nullptr)
    return out + "untested\"><strong>Paper claim (&gt;20% faster than round-robin) on " + what +
           ": NOT TESTED</strong>: " +
           method + " never ran together with round-robin.</div>";
  const bool yes = f->get<double>() > 0.20;
  out += std::string(yes ? "yes" : "no") + "\"><strong>Paper claim (&gt;20% faster than round-robin) on " + what +
         ": " + (yes ? "REPRODUCED" : "NOT REPRODUCED") + "</strong>: " + method + " is " +
         fmt("%.1f", 100 * f->get<double>()) + "% faster on the geometric mean over " + std::to_string(n) +
         " scenario" + (n == 1 ? "" : "s") + ".";
  if (g != nullptr)
    out += " Against greedy: " + fmt("%.1f", 100 * g->get<double>()) + "% (" +
           (g->get<double>() > 0.20 ? "holds" : "does not hold") + ").";
  return out + "</div>";
}

const Scenario& scenario_named(const std::vector<Scenario>& scenarios, const std::string& name) {
  for (const Scenario& s : scenarios)
    if (s.name == name) return s;
  throw InputError("", 0, "scenarios", "the reproduce report names scenario '" + name + "', which was not run");
}

/** Scenarios by method: each cell the time and the speedup over round-robin. */
std::string overview_table(const json& scenarios) {
  std::vector<std::string> methods;
  for (const json& rep : scenarios)
    for (const json& r : rep.at("results")) {
      const std::string m = string_at(r, "method");
      if (std::find(methods.begin(), methods.end(), m) == methods.end()) methods.push_back(m);
    }
  std::string out = "<table class=\"overview\"><thead><tr><th class=\"name\">scenario</th>";
  for (const std::string& m : methods) out += "<th>" + html_escape(m) + "<br>s/iteration (vs round-robin)</th>";
  out += "</tr></thead><tbody>";
  for (const json& rep : scenarios) {
    out += "<tr class=\"scenario-row\"><td class=\"name\">" + html_escape(string_at(rep, "scenario")) + "</td>";
    for (const std::string& m : methods) {
      const json* found = nullptr;
      for (const json& r : rep.at("results"))
        if (string_at(r, "method") == m) found = &r;
      if (found == nullptr || !ok(*found)) {
        out += found == nullptr ? "<td class=\"na\">n/a</td>" : "<td class=\"failed\">failed</td>";
        continue;
      }
      const json* rr = number_at(*found, "speedup_vs_round_robin");
      out += "<td>" + sig4((*found)["iteration_time_s"].get<double>(), 1e3) + " (" +
             (rr ? sig4(rr->get<double>(), 1e3) + "&times;" : std::string("n/a")) + ")</td>";
    }
    out += "</tr>";
  }
  return out + "</tbody></table>";
}

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string compare_html(const Scenario& s, const json& report) {
  const std::string name = string_at(report, "scenario");
  std::string body = "<h1>hulk compare: " + html_escape(name) + "</h1>" + facts(s, report) + methods_table(s, report);
  body += "<h2>Placements</h2><p class=\"facts\">Each cell is a GPU: its rank's pipeline stage (s), data-parallel "
          "replica (r) and tensor-parallel index (t); the colour is the stage.</p>" +
          pictures(s, report, "");
  return document("hulk compare: " + name, body);
}

std::string reproduce_html(const std::vector<Scenario>& scenarios, const json& doc) {
  std::string body = "<h1>hulk reproduce</h1>";
  const json empty = json::array();
  const json& all = doc.contains("scenarios") ? doc["scenarios"] : empty;
  if (doc.contains("claim_method")) body += verdict(doc, "the one-job scenarios");
  if (doc.contains("several_jobs")) body += verdict(doc["several_jobs"], "the scenarios of several jobs");
  body += "<h2>Scenarios</h2>" + overview_table(all);
  for (const json& rep : all) {
    const Scenario& s = scenario_named(scenarios, string_at(rep, "scenario"));
    body += "<section class=\"scenario\"><h2>" + html_escape(s.name) + "</h2>" + facts(s, rep) +
            methods_table(s, rep) + "<details open><summary>Placements</summary>" + pictures(s, rep, "") +
            "</details></section>";
  }
  return document("hulk reproduce", body);
}

}  // namespace hulk
