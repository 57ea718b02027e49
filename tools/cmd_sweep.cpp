// `hulk sweep` and `hulk sweep-merge`: a grid over any scenario keys, one CSV row per point and method.
// Rows of a point are appended (and flushed) together once the point is done, so an interrupted sweep loses at
// most the point in progress, and a rerun resumes after the last complete point. `--shard i/n` runs only the
// points with index % n == i (0-based i, as Slurm's SLURM_ARRAY_TASK_ID), writing its own CSV; sweep-merge joins.
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "tools/commands.hpp"
#include "tools/gnn_backend.hpp"
#include "tools/shard.hpp"
#include "sim/methods/compare_runner.hpp"
#include "sim/core/errors.hpp"
#include "sim/report/outputs.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

struct SweepArgs {
  std::string file, methods = "round-robin,greedy,search", out, shard;
  std::vector<std::string> sets;
  MethodOptions options = cli_method_options();
};

/** One swept key and its values. */
struct Axis {
  std::string key;
  std::vector<std::string> values;
};

std::vector<Axis> parse_axes(const std::vector<std::string>& sets) {
  std::vector<Axis> axes;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      throw InputError("", 0, "--set", "'" + s + "' is not KEY=V1,V2,... (e.g. wan.default.bandwidth=100Mbps,1Gbps)");
    Axis a{s.substr(0, eq), {}};
    std::stringstream ss(s.substr(eq + 1));
    std::string v;
    while (std::getline(ss, v, ','))
      if (!v.empty()) a.values.push_back(v);
    if (a.values.empty()) throw InputError("", 0, "--set", "no values for key '" + a.key + "'");
    axes.push_back(a);
  }
  return axes;
}

/** The value index of every axis at a grid point (first axis varies slowest). */
std::vector<size_t> point_coords(const std::vector<Axis>& axes, size_t point) {
  std::vector<size_t> idx(axes.size());
  for (size_t i = axes.size(); i-- > 0;) {
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

std::string header(const std::vector<Axis>& axes) {
  std::string h = "point";
  for (const auto& a : axes) h += "," + csv_escape(a.key);
  return h + ",method,ok,iteration_time_s,speedup_vs_round_robin,speedup_vs_greedy,gap_to_lower_bound,"
             "lower_bound_s,method_wall_s,error";
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/** An absent ratio (a method or its reference failed) is an empty CSV field, never 0. */
std::string optional_number(const std::optional<double>& v) { return v ? number(*v) : ""; }

/** Appends a point's rows; a failed write (disk full, file removed or made read-only) stops the sweep rather than
 *  losing the point silently. */
void append_rows(const std::string& path, const std::string& rows) {
  std::ofstream out(path, std::ios::app);
  out << rows << std::flush;
  out.close();
  if (!out) throw InputError(path, 0, "", "could not append the point's rows to the sweep file (not writable?)");
}

/** Reads the points already complete in an existing CSV (all methods present); rewrites the file without any
 *  partial trailing point so appending resumes cleanly. */
std::set<size_t> completed_points(const std::string& path, const std::string& expected_header, size_t methods) {
  std::set<size_t> done;
  std::ifstream in(path);
  if (!in) return done;
  std::string line;
  if (!std::getline(in, line)) return done;
  if (line != expected_header)
    throw InputError(path, 1, "", "existing sweep file has a different header (other keys or version); "
                                  "use another --out or delete it");
  std::map<size_t, std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    size_t point = 0;
    try {
      point = std::stoul(line.substr(0, line.find(',')));
    } catch (...) {
      continue;
    }
    rows[point].push_back(line);
  }
  std::string kept = expected_header + "\n";
  for (const auto& [point, lines] : rows) {
    if (lines.size() != methods) continue;
    done.insert(point);
    for (const auto& l : lines) kept += l + "\n";
  }
  write_file_atomic(path, kept);
  return done;
}

volatile std::sig_atomic_t g_interrupted = 0;

void run_sweep(const SweepArgs& args) {
  const std::vector<std::string> methods = parse_method_list(args.methods);
  const std::vector<Axis> axes = parse_axes(args.sets);
  if (axes.empty()) throw InputError("", 0, "--set", "give at least one --set KEY=V1,V2,...");
  const Shard shard = parse_shard(args.shard);
  if (args.out.empty()) throw InputError("", 0, "--out", "an output folder is required");
  size_t points = 1;
  for (const auto& a : axes) points *= a.values.size();
  // Validate every point up front: a bad value must fail now, not hours into the sweep.
  for (size_t p = 0; p < points; ++p) {
    std::vector<Override> ov;
    const auto idx = point_coords(axes, p);
    for (size_t i = 0; i < axes.size(); ++i) ov.push_back({axes[i].key, axes[i].values[idx[i]]});
    load_scenario_file(args.file, ov);
  }
  fs::create_directories(args.out);
  const std::string csv = args.out + (shard.count == 1 ? "/sweep.csv"
                                                       : "/sweep.shard-" + std::to_string(shard.index) + "-of-" +
                                                             std::to_string(shard.count) + ".csv");
  const std::string head = header(axes);
  std::set<size_t> done = completed_points(csv, head, methods.size());
  if (done.empty() && !fs::exists(csv)) write_file_atomic(csv, head + "\n");
  std::vector<size_t> mine;
  for (size_t p = 0; p < points; ++p)
    if (shard.owns(static_cast<long long>(p))) mine.push_back(p);
  size_t finished = 0;
  for (size_t p : mine) finished += done.count(p);
  std::signal(SIGINT, [](int) { g_interrupted = 1; });
  std::signal(SIGTERM, [](int) { g_interrupted = 1; });
  std::cerr << "sweep: " << points << " points, " << mine.size() << " in this shard, " << finished
            << " already done\n";
  for (size_t p : mine) {
    if (done.count(p)) continue;
    if (g_interrupted) break;
    std::vector<Override> ov;
    const auto idx = point_coords(axes, p);
    std::string label;
    for (size_t i = 0; i < axes.size(); ++i) {
      ov.push_back({axes[i].key, axes[i].values[idx[i]]});
      label += (label.empty() ? "" : " ") + axes[i].key + "=" + axes[i].values[idx[i]];
    }
    Scenario s = load_scenario_file(args.file, ov);
    CompareReport report = run_compare(s, methods, args.options, false);
    std::string rows;
    for (const auto& r : report.results) {
      rows += std::to_string(p);
      for (size_t i = 0; i < axes.size(); ++i) rows += "," + csv_escape(axes[i].values[idx[i]]);
      rows += "," + r.method + "," + (r.ok ? "1" : "0") + "," + (r.ok ? number(r.iteration_time_s) : "") + "," +
              optional_number(r.speedup_vs_round_robin) + "," + optional_number(r.speedup_vs_greedy) + "," +
              optional_number(r.gap_to_lower_bound) + "," + number(report.lower_bound_s) + "," +
              (r.ok ? number(r.method_wall_s) : "") + "," + csv_escape(r.error) + "\n";
    }
    append_rows(csv, rows);
    ++finished;
    std::cerr << "sweep: [" << finished << "/" << mine.size() << "] " << label << "\n";
  }
  if (g_interrupted) {
    std::cerr << "sweep: interrupted; " << finished << " points saved in " << csv << "; rerun to resume\n";
    throw InputError("", 0, "", "interrupted");
  }
}

void run_merge(const std::string& dir) {
  std::vector<fs::path> shards;
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "", "not a folder");
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("sweep.shard-", 0) == 0) shards.push_back(e.path());
  std::sort(shards.begin(), shards.end());
  if (shards.empty()) throw InputError(dir, 0, "", "no sweep.shard-*.csv files to merge");
  std::string head;
  std::map<size_t, std::vector<std::string>> rows;
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
  std::cerr << "merged " << shards.size() << " shards, " << rows.size() << " points into " << dir << "/sweep.csv\n";
}

}  // namespace

void register_sweep_commands(CLI::App& app) {
  auto* sweep = app.add_subcommand("sweep", "Run a grid of scenario variants x methods into a CSV (resumable)");
  auto a = std::make_shared<SweepArgs>();
  sweep->add_option("scenario", a->file, "scenario YAML file")->required();
  sweep->add_option("--set", a->sets, "KEY=V1,V2,... (repeatable; any scenario key)")->required();
  sweep->add_option("--methods", a->methods, "comma-separated methods")->capture_default_str();
  sweep->add_option("--shard", a->shard, "i/n: run only points with index % n == i");
  sweep->add_option("--out", a->out, "output folder")->required();
  sweep->add_option("--budget", a->options.budget, "search budget in evaluations");
  sweep->add_option("--model", a->options.model_path, "GNN model file");
  sweep->callback([a] { run_sweep(*a); });

  auto* merge = app.add_subcommand("sweep-merge", "Join the shard CSVs of a sweep folder into sweep.csv");
  auto dir = std::make_shared<std::string>();
  merge->add_option("dir", *dir, "sweep output folder")->required();
  merge->callback([dir] { run_merge(*dir); });
}

}  // namespace hulk::cli
