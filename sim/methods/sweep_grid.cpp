#include "sim/methods/sweep_grid.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/report/outputs.hpp"

namespace hulk {
namespace {

namespace fs = std::filesystem;

/** The value index of every axis at a grid point (first axis varies slowest). */
std::vector<std::size_t> point_coords(const std::vector<SweepAxis>& axes, std::size_t point) {
  std::vector<std::size_t> idx(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    idx[i] = point % axes[i].values.size();
    point /= axes[i].values.size();
  }
  return idx;
}

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return out + "\"";
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/** An absent ratio (a method or its reference failed) is an empty CSV field, never 0. */
std::string optional_number(const std::optional<double>& v) { return v ? number(*v) : ""; }

}  // namespace

std::vector<SweepAxis> parse_sweep_axes(const std::vector<std::string>& sets) {
  std::vector<SweepAxis> axes;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      throw InputError("", 0, "--set", "'" + s + "' is not KEY=V1,V2,... (e.g. wan.default.bandwidth=100Mbps,1Gbps)");
    SweepAxis a{s.substr(0, eq), {}};
    std::stringstream ss(s.substr(eq + 1));
    std::string v;
    while (std::getline(ss, v, ','))
      if (!v.empty()) a.values.push_back(v);
    if (a.values.empty()) throw InputError("", 0, "--set", "no values for key '" + a.key + "'");
    axes.push_back(a);
  }
  if (axes.empty()) throw InputError("", 0, "--set", "give at least one --set KEY=V1,V2,...");
  return axes;
}

std::size_t sweep_point_count(const std::vector<SweepAxis>& axes) {
  std::size_t points = 1;
  for (const auto& a : axes) points *= a.values.size();
  return points;
}

std::vector<Override> sweep_point_overrides(const std::vector<SweepAxis>& axes, std::size_t point) {
  std::vector<Override> ov;
  const auto idx = point_coords(axes, point);
  for (std::size_t i = 0; i < axes.size(); ++i) ov.push_back({axes[i].key, axes[i].values[idx[i]]});
  return ov;
}

std::string sweep_point_label(const std::vector<SweepAxis>& axes, std::size_t point) {
  std::string label;
  for (const auto& o : sweep_point_overrides(axes, point)) label += (label.empty() ? "" : " ") + o.key + "=" + o.value;
  return label;
}

std::string sweep_csv_header(const std::vector<SweepAxis>& axes) {
  std::string h = "point";
  for (const auto& a : axes) h += "," + csv_escape(a.key);
  return h + ",method,ok,iteration_time_s,speedup_vs_round_robin,speedup_vs_greedy,gap_to_lower_bound,"
             "lower_bound_s,method_wall_s,error";
}

std::string sweep_csv_rows(const std::vector<SweepAxis>& axes, std::size_t point, const CompareReport& report) {
  std::string prefix = std::to_string(point);
  for (const auto& o : sweep_point_overrides(axes, point)) prefix += "," + csv_escape(o.value);
  std::string rows;
  for (const auto& r : report.results)
    rows += prefix + "," + r.method + "," + (r.ok ? "1" : "0") + "," + (r.ok ? number(r.iteration_time_s) : "") +
            "," + optional_number(r.speedup_vs_round_robin) + "," + optional_number(r.speedup_vs_greedy) + "," +
            optional_number(r.gap_to_lower_bound) + "," + number(report.lower_bound_s) + "," +
            (r.ok ? number(r.method_wall_s) : "") + "," + csv_escape(r.error) + "\n";
  return rows;
}

std::set<std::size_t> completed_sweep_points(const std::string& path, const std::string& header,
                                             std::size_t methods) {
  std::set<std::size_t> done;
  std::ifstream in(path);
  if (!in) return done;
  std::string line;
  if (!std::getline(in, line)) return done;
  if (line != header)
    throw InputError(path, 1, "", "existing sweep file has a different header (other keys or version); "
                                  "use another --out or delete it");
  std::map<std::size_t, std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::size_t point = 0;
    try {
      point = std::stoul(line.substr(0, line.find(',')));
    } catch (...) {
      continue;
    }
    rows[point].push_back(line);
  }
  std::string kept = header + "\n";
  for (const auto& [point, lines] : rows) {
    if (lines.size() != methods) continue;
    done.insert(point);
    for (const auto& l : lines) kept += l + "\n";
  }
  write_file_atomic(path, kept);
  return done;
}

void append_sweep_rows(const std::string& path, const std::string& rows) {
  std::ofstream out(path, std::ios::app);
  out << rows << std::flush;
  out.close();
  if (!out) throw InputError(path, 0, "", "could not append the point's rows to the sweep file (not writable?)");
}

SweepMerge merge_sweep_shards(const std::string& dir) {
  std::vector<fs::path> shards;
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "", "not a folder");
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("sweep.shard-", 0) == 0) shards.push_back(e.path());
  std::sort(shards.begin(), shards.end());
  if (shards.empty()) throw InputError(dir, 0, "", "no sweep.shard-*.csv files to merge");
  std::string head;
  std::map<std::size_t, std::vector<std::string>> rows;
  for (const auto& path : shards) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    if (head.empty()) head = line;
    if (line != head) throw InputError(path.string(), 1, "", "header differs from the other shards");
    while (std::getline(in, line))
      if (!line.empty()) rows[std::stoul(line.substr(0, line.find(',')))].push_back(line);
  }
  std::string out = head + "\n";
  for (const auto& [p, lines] : rows)
    for (const auto& l : lines) out += l + "\n";
  write_file_atomic(dir + "/sweep.csv", out);
  return {shards.size(), rows.size()};
}

}  // namespace hulk
