// `hulk sweep` and `hulk sweep merge`: a grid over any scenario keys, one CSV row per point and method.
// Rows of a point are appended (and flushed) together once the point is done, so an interrupted sweep loses at
// most the point in progress, and a rerun resumes after the last complete point. A manifest beside each CSV
// (sim/lab/sweep_manifest.hpp) records its inputs: a rerun with other inputs is refused unless --restart.
// `--shard i/n` runs only the points with index % n == i (0-based i, as Slurm's SLURM_ARRAY_TASK_ID), writing its
// own CSV and manifest; sweep-merge joins them and names missing shards.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/command_groups.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/shard.hpp"
#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/methods/plan_resolve.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/lab/sweep_grid.hpp"
#include "sim/lab/sweep_manifest.hpp"
#include "sim/report/outputs.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

struct SweepArgs {
  std::string file, methods = "greedy,search", out, shard;
  std::vector<std::string> sets;
  bool restart = false;
  MethodOptions options = cli_method_options();
};

SweepManifest manifest_of(const SweepArgs& args, const std::vector<SweepAxis>& axes,
                          const std::vector<std::string>& methods) {
  SweepManifest m;
  m.scenario_file = args.file;
  m.scenario_hash = file_content_hash(args.file);
  m.loaded_hash = scenario_inputs_hash(load_plan_scenario_file(args.file, {}));
  m.grid = axes;
  m.methods = methods;
  m.budget = args.options.budget;
  bool learned = false;
  for (const auto& name : methods) learned = learned || name.find("gnn") != std::string::npos;
  if (learned) {  // the model matters only to the methods that use it
    m.model_path = model_or_committed(args.options.model_path);
    m.model_hash = file_content_hash(m.model_path);
  }
  m.version = kHulkVersion;
  return m;
}

/** Refuses to resume rows computed from other inputs (or from unknown ones), unless --restart will discard them. */
void check_resumable(const SweepArgs& args, const std::string& csv, const SweepManifest& now) {
  const std::string mpath = sweep_manifest_path(csv);
  std::string changed;
  if (fs::is_directory(csv))  // not rows at all: "computed with other inputs" would send the user the wrong way
    throw InputError(csv, 0, "--out", "is a folder where sweep writes its rows (expected a file or nothing there)");
  if (fs::exists(mpath))
    changed = sweep_manifest_difference(read_sweep_manifest(mpath), now);
  else if (fs::exists(csv))
    changed = "unknown inputs (no " + fs::path(mpath).filename().string() + ")";
  if (!args.restart && !changed.empty())
    throw InputError(mpath, 0, "", "the rows in " + csv + " were computed with other inputs: " + changed +
                                       "; use another --out, or --restart to recompute them");
}

/** "greedy 0.03122 s, search failed" : each method's SimGrid time per iteration at a point. */
std::string method_times(const CompareReport& report) {
  std::string out;
  for (const MethodResult& r : report.results) {
    char time[64];
    std::snprintf(time, sizeof time, "%.4g s", r.iteration_time_s);
    out += (out.empty() ? "" : ", ") + r.method + " " + (r.ok ? std::string(time) : std::string("failed"));
  }
  return out;
}

/** "1 h 05 min", "12 min 30 s", "45 s": a duration to the precision a person plans with. */
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

void run_sweep(const SweepArgs& args) {
  const std::vector<std::string> methods = parse_method_list(args.methods);
  const std::vector<SweepAxis> axes = parse_sweep_axes(args.sets);
  const Shard shard = parse_shard(args.shard);
  if (args.out.empty()) throw InputError("", 0, "--out", "an output folder is required");
  const std::size_t points = sweep_point_count(axes);
  const std::string csv = args.out + (shard.count == 1 ? "/sweep.csv"
                                                       : "/sweep.shard-" + std::to_string(shard.index) + "-of-" +
                                                             std::to_string(shard.count) + ".csv");
  const SweepManifest manifest = manifest_of(args, axes, methods);
  check_resumable(args, csv, manifest);
  // Validate every point up front: a bad value must fail now, not hours into the sweep. A point whose job fits no
  // GPU is a result (its methods fail, each with its reason, in its rows), not a bad value.
  // A job left `auto` is planned at each point (plan_resolve.hpp), and sweep.csv names the layout chosen.
  bool planned = false;
  for (std::size_t p = 0; p < points; ++p)
    planned = load_plan_scenario_file(args.file, sweep_point_overrides(axes, p)).plan.any_auto() || planned;
  if (!planned)
    for (std::size_t p = 0; p < points; ++p) load_scenario_file(args.file, sweep_point_overrides(axes, p), false);
  for (const std::string& m : methods) check_method_files(m, args.options);
  fs::create_directories(args.out);
  if (args.restart) fs::remove(csv);
  write_sweep_manifest(sweep_manifest_path(csv), manifest);
  const std::string head = sweep_csv_header(axes, planned);
  std::set<std::size_t> done = completed_sweep_points(csv, axes, methods, planned);
  if (done.empty() && !fs::exists(csv)) write_file_atomic(csv, head + "\n");
  std::vector<std::size_t> mine;
  for (std::size_t p = 0; p < points; ++p)
    if (shard.owns(static_cast<long long>(p))) mine.push_back(p);
  std::size_t finished = 0;
  for (std::size_t p : mine) finished += done.count(p);
  std::cerr << "sweep: " << points << " points, " << mine.size() << " in this shard, " << finished
            << " already done\n";
  // Time left: the mean wall time of the points this run computed, times the points still to do.
  const auto started = std::chrono::steady_clock::now();
  std::size_t computed = 0;
  for (std::size_t p : mine) {
    if (done.count(p)) continue;
    if (interrupt_requested()) break;
    const ResolvedScenario point = load_resolved_scenario_file(args.file, sweep_point_overrides(axes, p), false);
    const CompareReport report = run_compare(point.scenario, methods, args.options, false);
    if (interrupt_requested()) break;  // methods cut short by the interrupt are not results: the point reruns
    append_sweep_rows(csv, sweep_csv_rows(axes, p, report, planned ? &point.layout : nullptr));
    ++finished;
    ++computed;
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const std::size_t left = mine.size() - finished;
    std::cerr << "sweep: [" << finished << "/" << mine.size() << "] " << sweep_point_label(axes, p) << ": "
              << (planned ? "layout " + point.layout + ": " : "") << method_times(report) << " per iteration; "
              << (left == 0 ? std::string("done") : "about " + duration_text(spent / computed * left) + " left")
              << "\n";
  }
  if (interrupt_requested())
    throw Interrupted(std::to_string(finished) + (finished == 1 ? " point" : " points") + " saved in " + csv +
                      "; rerun to resume");
}

void run_merge(const std::string& dir, bool allow_missing) {
  const SweepMerge merged = merge_sweep_shards(dir, allow_missing);
  std::string missing;
  for (auto i : merged.missing) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  std::cerr << "merged " << merged.shards << " of " << merged.expected << " shards, " << merged.points
            << (merged.grid_points ? " of " + std::to_string(merged.grid_points) : std::string()) << " points into "
            << dir << "/sweep.csv"
            << (missing.empty() ? "" : "; MISSING shards " + missing + " (accepted by --allow-missing)") << "\n";
}

}  // namespace

void register_sweep_commands(CLI::App& app) {
  auto* sweep = app.add_subcommand("sweep", "Run a grid of scenario variants x methods into a CSV (resumable)");
  auto a = std::make_shared<SweepArgs>();
  sweep->add_option("scenario", a->file, "scenario YAML file (required)");
  sweep->add_option("--set", a->sets, "KEY=V1,V2,... (repeatable; any scenario key)")
      ->allow_extra_args(false);  // one KEY=V1,V2 per --set: the scenario after it is never taken as a second
  sweep->add_option("--methods", a->methods,
                    "comma-separated methods (round-robin runs only when listed: without it speedup_vs_round_robin "
                    "is empty)")
      ->capture_default_str();
  sweep->footer(
      "Example:\n  hulk sweep scenarios/paper/gpt3-6.7b-3d.yaml --set platform.hulk.wan_bandwidth=100Mbps,1Gbps,10Gbps "
      "\\\n      --methods round-robin,greedy,search --out runs/sweep\n"
      "On a cluster: --shard i/n per task, then `hulk sweep merge runs/sweep` (tools/cluster/README.md).\n"
      "Plots: /usr/bin/python3 " + data_path("tools/scripts/plot.py") +
      " sweep runs/sweep/sweep.csv --out runs/sweep/plots. The CSV's columns: "
      "docs/outputs.md.\n\n"
      "Methods:\n" + methods_help());
  sweep->add_option("--shard", a->shard,
                    "i/n: run only the points with index % n == i (0-based i, e.g. "
                    "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)");
  sweep->add_option("--out", a->out, "output folder (required)");
  sweep->add_option("--budget", a->options.budget, "search budget in evaluations (0 = each method's default)")
      ->capture_default_str()
      ->check(budget_range());
  sweep->add_option("--model", a->options.model_path, "GNN model file");
  sweep->add_flag("--restart", a->restart,
                  "discard this folder's rows (of this shard) and recompute; without it a sweep whose inputs changed "
                  "is refused");
  sweep->callback([a, sweep] {
    if (nested_command_given(*sweep)) return;
    require_given(*sweep, {"scenario", "--set", "--out"});
    run_sweep(*a);
  });

  auto* merge = sweep->add_subcommand("merge", "Join the shard CSVs of a sweep folder into sweep.csv");
  merge->footer("Example:\n  hulk sweep merge runs/sweep      # after every `hulk sweep ... --shard i/n --out runs/sweep`");
  auto dir = std::make_shared<std::string>();
  auto allow_missing = std::make_shared<bool>(false);
  merge->add_option("dir", *dir, "sweep output folder")->required();
  merge->add_flag("--allow-missing", *allow_missing, "merge even if shard files are missing (they are named)");
  merge->callback([dir, allow_missing] { run_merge(*dir, *allow_missing); });
}

}  // namespace hulk::cli
