#include "sim/lab/sweep_run.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>

#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/lab/sweep_manifest.hpp"
#include "sim/methods/plan_resolve.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/report/outputs.hpp"

namespace hulk {
namespace {

namespace fs = std::filesystem;

SweepManifest manifest_of(const SweepOptions& o) {
  SweepManifest m;
  m.scenario_file = o.file;
  m.scenario_hash = file_content_hash(o.file);
  m.loaded_hash = scenario_inputs_hash(load_plan_scenario_file(o.file, {}));
  m.grid = o.axes;
  m.methods = o.methods;
  m.budget = o.options.budget;
  bool learned = false;
  for (const auto& name : o.methods) learned = learned || name.find("gnn") != std::string::npos;
  if (learned) {  // the model matters only to the methods that use it
    m.model_path = model_or_committed(o.options.model_path);
    m.model_hash = file_content_hash(m.model_path);
  }
  m.version = o.version;
  return m;
}

/** Refuses to resume rows computed from other inputs (or from unknown ones), unless restart will discard them. */
void check_resumable(bool restart, const std::string& csv, const SweepManifest& now) {
  const std::string mpath = sweep_manifest_path(csv);
  std::string changed;
  if (fs::is_directory(csv))  // not rows at all: "computed with other inputs" would send the user the wrong way
    throw InputError(csv, 0, "--out", "is a folder where sweep writes its rows (expected a file or nothing there)");
  if (fs::exists(mpath))
    changed = sweep_manifest_difference(read_sweep_manifest(mpath), now);
  else if (fs::exists(csv))
    changed = "unknown inputs (no " + fs::path(mpath).filename().string() + ")";
  if (!restart && !changed.empty())
    throw InputError(mpath, 0, "", "the rows in " + csv + " were computed with other inputs: " + changed +
                                       "; use another --out, or --restart to recompute them");
}

/** Loads every point up front: a bad value must fail now, not hours into the sweep. A point whose job fits no GPU is
 *  a result (its methods fail, each with its reason, in its rows), not a bad value. @return whether a job is left
 *  `auto` (planned at each point, plan_resolve.hpp; sweep.csv then names the layout chosen). */
bool check_points(const SweepOptions& o, std::size_t points) {
  bool planned = false;
  for (std::size_t p = 0; p < points; ++p)
    planned = load_plan_scenario_file(o.file, sweep_point_overrides(o.axes, p)).plan.any_auto() || planned;
  if (!planned)
    for (std::size_t p = 0; p < points; ++p) load_scenario_file(o.file, sweep_point_overrides(o.axes, p), false);
  for (const std::string& m : o.methods) check_method_files(m, o.options);
  return planned;
}

}  // namespace

std::string sweep_csv_path(const SweepOptions& o) {
  return o.out + (o.shard_count == 1 ? "/sweep.csv"
                                     : "/sweep.shard-" + std::to_string(o.shard_index) + "-of-" +
                                           std::to_string(o.shard_count) + ".csv");
}

std::string sweep_method_times(const CompareReport& report) {
  std::string out;
  for (const MethodResult& r : report.results) {
    char time[64];
    std::snprintf(time, sizeof time, "%.4g s", r.iteration_time_s);
    out += (out.empty() ? "" : ", ") + r.method + " " + (r.ok ? std::string(time) : std::string("failed"));
  }
  return out;
}

std::string duration_text(double s) {
  const long long t = static_cast<long long>(s + 0.5);
  char buf[64];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%lld h %02lld min", t / 3600, t % 3600 / 60);
  else if (t >= 60)
    std::snprintf(buf, sizeof buf, "%lld min %02lld s", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld s", t);
  return buf;
}

void run_sweep(const SweepOptions& o, const std::function<void(const std::string&)>& progress) {
  const auto say = [&](const std::string& line) { if (progress) progress(line); };
  const std::size_t points = sweep_point_count(o.axes);
  const std::string csv = sweep_csv_path(o);
  const SweepManifest manifest = manifest_of(o);
  check_resumable(o.restart, csv, manifest);
  const bool planned = check_points(o, points);
  fs::create_directories(o.out);
  if (o.restart) fs::remove(csv);
  write_sweep_manifest(sweep_manifest_path(csv), manifest);
  const std::set<std::size_t> done = completed_sweep_points(csv, o.axes, o.methods, planned);
  if (done.empty() && !fs::exists(csv)) write_file_atomic(csv, sweep_csv_header(o.axes, planned) + "\n");
  std::vector<std::size_t> mine;
  for (std::size_t p = 0; p < points; ++p)
    if (static_cast<long long>(p) % o.shard_count == o.shard_index) mine.push_back(p);
  std::size_t finished = 0;
  for (std::size_t p : mine) finished += done.count(p);
  say("sweep: " + std::to_string(points) + " points, " + std::to_string(mine.size()) + " in this shard, " +
      std::to_string(finished) + " already done");
  // Time left: the mean wall time of the points this run computed, times the points still to do.
  const auto started = std::chrono::steady_clock::now();
  std::size_t computed = 0;
  for (std::size_t p : mine) {
    if (done.count(p)) continue;
    if (interrupt_requested()) break;
    const ResolvedScenario point = load_resolved_scenario_file(o.file, sweep_point_overrides(o.axes, p), false);
    const CompareReport report = run_compare(point.scenario, o.methods, o.options, false);
    if (interrupt_requested()) break;  // methods cut short by the interrupt are not results: the point reruns
    append_sweep_rows(csv, sweep_csv_rows(o.axes, p, report, planned ? &point.layout : nullptr));
    ++finished;
    ++computed;
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const std::size_t left = mine.size() - finished;
    say("sweep: [" + std::to_string(finished) + "/" + std::to_string(mine.size()) + "] " +
        sweep_point_label(o.axes, p) + ": " + (planned ? "layout " + point.layout + ": " : "") +
        sweep_method_times(report) + " per iteration; " +
        (left == 0 ? std::string("done") : "about " + duration_text(spent / computed * left) + " left"));
  }
  if (interrupt_requested())
    throw Interrupted(std::to_string(finished) + (finished == 1 ? " point" : " points") + " saved in " + csv +
                      "; rerun to resume");
}

}  // namespace hulk
