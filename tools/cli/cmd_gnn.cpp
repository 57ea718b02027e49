// `hulk gnn gen-data`, `hulk gnn train` and `hulk gnn eval`: parse the options, run sim/lab/gen_data.hpp,
// gnn_eval_run.hpp, and print (train: cmd_gnn_train.cpp).
// Torch runs only in `train` (this process never forks afterwards) and inside child processes elsewhere.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "gnn/dataset.hpp"
#include "gnn/sampled_decode.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/gen_data.hpp"
#include "sim/lab/gnn_eval_run.hpp"
#include "sim/methods/gnn_method.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"
#include "tools/cli/job_range.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/shard.hpp"

namespace hulk::cli {
namespace {

struct GenArgs {
  GenDataOptions options;
  std::string shard;
};

void run_gen_data_command(GenArgs a) {
  GenDataOptions& o = a.options;
  if (o.count < 1) throw InputError("", 0, "--count", "expected a positive number of samples");
  if (o.out.empty()) throw InputError("", 0, "--out", "an output folder is required");
  if (!o.jobs.empty()) {
    const JobRange r = parse_job_range(o.jobs);
    check_jobs_fit_gpus(r, o.max_gpus);
    o.min_jobs = r.min;
    o.max_jobs = r.max;
  }
  if (o.label != "simgrid" && o.label != "evaluator")
    throw InputError("", 0, "--label", "expected simgrid or evaluator, got '" + o.label + "'");
  if (o.wan != "pair" && o.wan != "host" && o.wan != "mixed")
    throw InputError("", 0, "--wan", "expected pair, host or mixed, got '" + o.wan + "'");
  const Shard shard = parse_shard(a.shard);
  o.shard_index = shard.index;
  o.shard_count = shard.count;
  run_gen_data(o, gnn_data_store(o.out), [](const std::string& line) { std::cerr << line << "\n"; });
}

struct EvalArgs {
  std::string data, model, out;
  int candidates = gnn::SamplingOptions{}.candidates;
};

void run_gnn_eval_command(const EvalArgs& args) {
  GnnEvalOptions o;
  o.cases = held_out_cases(args.data);
  o.data = args.data;
  o.out = args.out;
  const std::string model = model_or_committed(args.model);
  if (args.candidates < 1) throw InputError("", 0, "--candidates", "expected at least 1 decoded candidate");
  gnn::SamplingOptions sampling;
  sampling.candidates = args.candidates;
  o.make_placer = [model, sampling] { return gnn_plugin().make_placer(model, sampling); };
  gnn_plugin();  // loaded here once (children inherit it), outside the timed placements
  const GnnEvalReport r = run_gnn_eval(std::move(o), &std::cerr);
  const int rank_budget = sampling.rank_budget;
  std::printf("gnn decodes up to %d candidates%s (fewer for jobs of more than %d ranks: at most %d candidates x ranks "
              "per view), and greedy's placement is one more; then the score-guided host exchanges and the short "
              "annealing (jobs of <= %d ranks), as the gnn method\n",
              args.candidates, args.candidates == 1 ? " (the argmax decode)" : "",
              std::max(1, rank_budget / std::max(1, args.candidates)), rank_budget, kLearnedAnnealMaxRanks);
  std::fputs(held_out_summary(r.figures, r.held_out.total, gnn::read_manifest(args.data).generator).c_str(), stdout);
}

}  // namespace

void register_gnn_commands(CLI::App& app) {
  auto* gen = app.add_subcommand("gen-data", "Generate GNN training data: sampled clusters/jobs, traces, labels");
  gen->footer("Example:\n  hulk gnn gen-data --count 400 --seed 1 --budget 3000 --max-gpus 64 --out data/train");
  auto g = std::make_shared<GenArgs>();
  GenDataOptions& go = g->options;
  gen->add_option("--count", go.count, "number of samples")->capture_default_str();
  gen->add_option("--seed", go.seed, "data seed")->capture_default_str()
      ->check(seed_check());
  gen->add_option("--out", go.out, "data set folder")->required();
  gen->add_option("--shard", g->shard,
                  "i/n: generate only the samples with index % n == i (0-based i, e.g. "
                  "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)");
  gen->add_option("--budget", go.budget, "search evaluations per label")->capture_default_str()
      ->check(budget_range());
  gen->add_option("--max-gpus", go.max_gpus, "largest sampled platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  gen->add_option("--label", go.label,
                  "simgrid: the SimGrid-checked search labels, SimGrid times; evaluator: the annealing search over "
                  "the analytic evaluator, no SimGrid (estimates stored as greedy_est/search_est; far faster)")
      ->capture_default_str();
  gen->add_option("--wan", go.wan,
                  "WAN capacity model of the sampled platforms: pair (one pipe per region pair), host (each host's "
                  "own cap) or mixed (drawn per sample)")
      ->capture_default_str();
  gen->add_option("--jobs", go.jobs,
                  "N or MIN-MAX (2..8): clusters shared by several jobs; each sample is one job on the GPUs the "
                  "joint search left it (default: one job per cluster)");
  gen->callback([g] { run_gen_data_command(*g); });

  register_gnn_train_command(app);  // between gen-data and eval in the help

  auto* eval = app.add_subcommand("eval", "Evaluate a GNN model on a held-out data set with SimGrid");
  eval->footer("Example:\n  hulk gnn eval --data data/heldout --model models/hulk-gnn.pt --out runs/heldout.csv");
  auto e = std::make_shared<EvalArgs>();
  eval->add_option("--data", e->data, "held-out data set folder")->required();
  eval->add_option("--model", e->model, "model file (default: the committed model)");
  eval->add_option("--out", e->out, "per-sample CSV to write");
  eval->add_option("--candidates", e->candidates, "placements the sampling decoder tries per view (1 = argmax decode only; large jobs get fewer, as "
                  "in the gnn method: at most " + std::to_string(gnn::SamplingOptions{}.rank_budget) +
                      " candidates x ranks)")
      ->capture_default_str();
  eval->callback([e] { run_gnn_eval_command(*e); });
}

}  // namespace hulk::cli
