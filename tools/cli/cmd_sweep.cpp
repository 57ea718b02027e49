// `hulk sweep` and `hulk sweep merge`: parse the options, run sim/lab/sweep_run.hpp (a grid over any scenario keys,
// one CSV row per point and method, resumable, sharded with `--shard i/n`) or merge_sweep_shards, and print.
#include <iostream>
#include <memory>

#include "tools/cli/option_ranges.hpp"
#include "tools/cli/command_groups.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/shard.hpp"
#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/sweep_manifest.hpp"
#include "sim/lab/sweep_run.hpp"

namespace hulk::cli {
namespace {

struct SweepArgs {
  std::string file, methods = "greedy,search", out, shard;
  std::vector<std::string> sets;
  bool restart = false;
  MethodOptions options = cli_method_options();
};

void run_sweep_command(const SweepArgs& args) {
  SweepOptions o;
  o.methods = parse_method_list(args.methods);
  o.axes = parse_sweep_axes(args.sets);
  const Shard shard = parse_shard(args.shard);
  if (args.out.empty()) throw InputError("", 0, "--out", "an output folder is required");
  o.file = args.file;
  o.options = args.options;
  o.shard_index = shard.index;
  o.shard_count = shard.count;
  o.out = args.out;
  o.restart = args.restart;
  o.version = kHulkVersion;
  run_sweep(o, [](const std::string& line) { std::cerr << line << "\n"; });
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
    run_sweep_command(*a);
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
