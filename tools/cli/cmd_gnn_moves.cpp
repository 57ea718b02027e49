// `hulk gnn gen-moves`, `train-moves` and `move-policy`: parse the options, run gnn/gen_moves.hpp (the move data set
// of the learned improvement policy: states and host exchanges labelled by the analytic evaluator) or the plugin's
// move scorer training, and print (move-policy: cmd_gnn_move_policy.cpp). Torch runs only in the plugin.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "gnn/gen_moves.hpp"
#include "gnn/move_train_command.hpp"
#include "sim/core/errors.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/shard.hpp"

namespace hulk::cli {
namespace {

struct GenMovesArgs {
  gnn::GenMovesOptions options;
  std::string shard;
};

void run_gen_moves_command(GenMovesArgs a) {
  if (a.options.count < 1) throw InputError("", 0, "--count", "expected a positive number of samples");
  const Shard shard = parse_shard(a.shard);
  a.options.shard_index = shard.index;
  a.options.shard_count = shard.count;
  gnn::run_gen_moves(a.options, [](const std::string& line) { std::cerr << line << "\n"; });
}

void run_train_moves(const gnn::MoveTrainCommand& c) {
  const gnn::MoveTrainSummary r = gnn_plugin().train_moves(c, &std::cerr);
  std::fprintf(stderr,
               "train-moves: %d training states (%lld labelled moves), %d validation states; epoch %d written: "
               "top-ranked move %+.3f%%, best %+.3f%%, mean %+.3f%% (validation, relative time change); "
               "model-only stop bounds %+.3f (<= 64 GPUs), %+.3f (larger)\n",
               r.train_states, r.train_examples, r.val_states, r.best_epoch, 100 * r.val_chosen, 100 * r.val_best,
               100 * r.val_random, r.stop_bound_small, r.stop_bound_large);
}

}  // namespace

void register_gnn_moves_commands(CLI::App& app) {
  auto* gen = app.add_subcommand("gen-moves",
                                 "Generate the move data set: sampled clusters, states from greedy on, host exchanges "
                                 "labelled by the analytic evaluator");
  gen->footer("Example:\n  hulk gnn gen-moves --count 400 --seed 51 --out runs/moves51");
  auto g = std::make_shared<GenMovesArgs>();
  gen->add_option("--count", g->options.count, "number of samples (sampled clusters)")->capture_default_str();
  gen->add_option("--seed", g->options.seed, "data seed")->capture_default_str()->check(seed_check());
  gen->add_option("--out", g->options.out, "data set folder")->required();
  gen->add_option("--shard", g->shard, "i/n: generate only the samples with index % n == i (0-based i)");
  gen->add_option("--min-gpus", g->options.options.min_gpus, "smallest sampled platform (GPUs; at most --max-gpus)")
      ->check(CLI::Range(4, 1000000));
  gen->add_option("--max-gpus", g->options.options.max_gpus, "largest sampled platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  gen->add_option("--states", g->options.options.states, "states per sample (greedy's placement, then one move each)")
      ->capture_default_str()
      ->check(number_range(1, 1000));
  gen->add_option("--moves", g->options.options.moves_per_state, "host exchanges labelled per state")
      ->capture_default_str()
      ->check(number_range(1, 100000));
  gen->callback([g] { run_gen_moves_command(*g); });

  auto* train = app.add_subcommand("train-moves", "Train the move scorer of the learned improvement policy");
  train->footer(
      "Example:\n  hulk gnn train-moves --data runs/moves51 --init models/hulk-gnn.pt --out models/hulk-gnn.pt");
  auto t = std::make_shared<gnn::MoveTrainCommand>();
  train->add_option("--data", t->data_dirs, "move data set folder (repeat for several)")->required();
  train->add_option("--out", t->model_out, "model file to write")->required();
  train->add_option("--init", t->init,
                    "model file whose placement GNN is written beside the scorer (default: fresh weights)");
  train->add_option("--epochs", t->epochs, "epochs before the aggregation rounds (0 only with --init-scorer)")
      ->capture_default_str()
      ->check(number_range(0, 100000));
  train->add_option("--seed", t->seed, "training seed")->capture_default_str()->check(seed_check());
  train->add_option("--max-examples", t->max_examples,
                    "train on the first states up to this many labelled moves (0 = all; learning curves)")
      ->capture_default_str()
      ->check(number_range(0, 2000000000));
  train->add_flag("--allow-partial", t->allow_partial, "train on the samples present (an unfinished gen-moves)");
  train->add_flag("--init-scorer", t->init_scorer, "start from the --init file's move scorer, not fresh weights");
  train->add_flag("--no-move-deltas{false}", t->move_deltas,
                  "a fresh scorer reads the pair features alone, not the moves' analytic changes too");
  train->add_flag("--no-stop-calibration{false}", t->calibrate_stop,
                  "store the neutral stop bound 0 for model-only's walk instead of fitting it on the validation "
                  "clusters");
  train->add_option("--dagger", t->dagger_rounds,
                    "rounds adding the states the scorer's own walk reaches from greedy's placement, labelled by "
                    "the evaluator (data aggregation)")
      ->capture_default_str()
      ->check(number_range(0, 100));
  train->add_option("--dagger-epochs", t->dagger_epochs, "epochs after each round")
      ->capture_default_str()
      ->check(number_range(1, 100000));
  train->add_option("--dagger-walk", t->dagger_walk, "moves of the scorer's walk per sample and round")
      ->capture_default_str()
      ->check(number_range(1, 1000));
  train->callback([t] { run_train_moves(*t); });
  register_move_policy_command(app);
}

}  // namespace hulk::cli
