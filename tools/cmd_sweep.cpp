// `hulk sweep` and `hulk sweep-merge`: a grid over any scenario keys, one CSV row per point and method.
// Rows of a point are appended (and flushed) together once the point is done, so an interrupted sweep loses at
// most the point in progress, and a rerun resumes after the last complete point. `--shard i/n` runs only the
// points with index % n == i (0-based i, as Slurm's SLURM_ARRAY_TASK_ID), writing its own CSV; sweep-merge joins.
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "tools/commands.hpp"
#include "tools/gnn_backend.hpp"
#include "tools/shard.hpp"
#include "sim/core/errors.hpp"
#include "sim/methods/compare_runner.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/methods/sweep_grid.hpp"
#include "sim/report/outputs.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

struct SweepArgs {
  std::string file, methods = "round-robin,greedy,search", out, shard;
  std::vector<std::string> sets;
  MethodOptions options = cli_method_options();
};

volatile std::sig_atomic_t g_interrupted = 0;

void run_sweep(const SweepArgs& args) {
  const std::vector<std::string> methods = parse_method_list(args.methods);
  const std::vector<SweepAxis> axes = parse_sweep_axes(args.sets);
  const Shard shard = parse_shard(args.shard);
  if (args.out.empty()) throw InputError("", 0, "--out", "an output folder is required");
  const std::size_t points = sweep_point_count(axes);
  // Validate every point up front: a bad value must fail now, not hours into the sweep.
  for (std::size_t p = 0; p < points; ++p) load_scenario_file(args.file, sweep_point_overrides(axes, p));
  fs::create_directories(args.out);
  const std::string csv = args.out + (shard.count == 1 ? "/sweep.csv"
                                                       : "/sweep.shard-" + std::to_string(shard.index) + "-of-" +
                                                             std::to_string(shard.count) + ".csv");
  const std::string head = sweep_csv_header(axes);
  std::set<std::size_t> done = completed_sweep_points(csv, head, methods.size());
  if (done.empty() && !fs::exists(csv)) write_file_atomic(csv, head + "\n");
  std::vector<std::size_t> mine;
  for (std::size_t p = 0; p < points; ++p)
    if (shard.owns(static_cast<long long>(p))) mine.push_back(p);
  std::size_t finished = 0;
  for (std::size_t p : mine) finished += done.count(p);
  std::signal(SIGINT, [](int) { g_interrupted = 1; });
  std::signal(SIGTERM, [](int) { g_interrupted = 1; });
  std::cerr << "sweep: " << points << " points, " << mine.size() << " in this shard, " << finished
            << " already done\n";
  for (std::size_t p : mine) {
    if (done.count(p)) continue;
    if (g_interrupted) break;
    Scenario s = load_scenario_file(args.file, sweep_point_overrides(axes, p));
    const CompareReport report = run_compare(s, methods, args.options, false);
    append_sweep_rows(csv, sweep_csv_rows(axes, p, report));
    ++finished;
    std::cerr << "sweep: [" << finished << "/" << mine.size() << "] " << sweep_point_label(axes, p) << "\n";
  }
  if (g_interrupted) {
    std::cerr << "sweep: interrupted; " << finished << " points saved in " << csv << "; rerun to resume\n";
    throw InputError("", 0, "", "interrupted");
  }
}

void run_merge(const std::string& dir) {
  const SweepMerge merged = merge_sweep_shards(dir);
  std::cerr << "merged " << merged.shards << " shards, " << merged.points << " points into " << dir << "/sweep.csv\n";
}

}  // namespace

void register_sweep_commands(CLI::App& app) {
  auto* sweep = app.add_subcommand("sweep", "Run a grid of scenario variants x methods into a CSV (resumable)");
  auto a = std::make_shared<SweepArgs>();
  sweep->add_option("scenario", a->file, "scenario YAML file")->required();
  sweep->add_option("--set", a->sets, "KEY=V1,V2,... (repeatable; any scenario key)")->required();
  sweep->add_option("--methods", a->methods, "comma-separated methods")->capture_default_str();
  sweep->footer("Methods:\n" + methods_help());
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
