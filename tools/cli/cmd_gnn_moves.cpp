// `hulk gnn gen-moves`, `train-moves` and `move-policy`: the move data set of the learned improvement policy (states
// and host exchanges labelled by the analytic evaluator), the move scorer's training and its walk's measurement.
// Torch runs only in the plugin.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "gnn/dataset.hpp"
#include "gnn/format_version.hpp"
#include "gnn/move_data.hpp"
#include "gnn/move_policy_command.hpp"
#include "gnn/move_train_command.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/shard.hpp"

namespace hulk::cli {
namespace {

namespace fs = std::filesystem;

struct GenMovesArgs {
  int count = 100;
  std::uint64_t seed = 1;
  std::string out, shard;
  gnn::MoveDataOptions options;
};

std::string generator_line(const GenMovesArgs& a) {
  return "hulk gnn gen-moves --count " + std::to_string(a.count) + " --seed " + std::to_string(a.seed) +
         " --max-gpus " +
         std::to_string(a.options.max_gpus) + " --states " + std::to_string(a.options.states) + " --moves " +
         std::to_string(a.options.moves_per_state);
}

/** Creates the manifest, or checks that an existing one was written with the same options (samples of other
 *  options must not be mixed in one folder). */
void prepare_folder(const GenMovesArgs& a) {
  gnn::Manifest manifest;
  manifest.format_version = gnn::kDatasetFormatVersion;
  manifest.count = a.count;
  manifest.seed = a.seed;
  manifest.generator = generator_line(a);
  if (!fs::exists(fs::path(a.out) / "manifest.json")) return gnn::write_manifest(a.out, manifest);
  const gnn::Manifest old = gnn::read_manifest(a.out);
  if (old.generator != manifest.generator)
    throw InputError(a.out + "/manifest.json", 0, "generator",
                     "the folder holds a data set made by '" + old.generator + "', not '" + manifest.generator +
                         "'; use another --out");
}

void run_gen_moves(const GenMovesArgs& a) {
  if (a.count < 1) throw InputError("", 0, "--count", "expected a positive number of samples");
  const Shard shard = parse_shard(a.shard);
  prepare_folder(a);
  int mine = 0, done = 0, made = 0, skipped = 0;
  long long examples = 0;
  for (int i = 0; i < a.count; ++i)
    if (shard.owns(i)) ++mine, done += gnn::sample_exists(a.out, i);
  std::cerr << "gen-moves: " << mine << " samples in this shard, " << done << " already present\n";
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < a.count && !interrupt_requested(); ++i) {
    if (!shard.owns(i) || gnn::sample_exists(a.out, i)) continue;
    try {
      const gnn::MoveSample sample = gnn::make_move_sample(i, a.seed, a.options);
      gnn::write_move_sample(a.out, sample);  // atomic: a killed run leaves no half sample
      for (const gnn::MoveState& st : sample.states) examples += static_cast<long long>(st.moves.size());
      ++made;
    } catch (const InputError& e) {
      ++skipped;  // a sampled job that cannot be placed: marked, reported
      gnn::write_skip_marker(a.out, i, e.what());
      std::cerr << "gen-moves: sample " << i << " skipped: " << e.what() << "\n";
      continue;
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "gen-moves: [%d/%d] sample %d done, %lld labelled moves, %.0f moves/s\n", done + made, mine, i,
                 examples, examples / std::max(s, 1e-9));
  }
  std::cerr << "gen-moves: " << made << " new samples (" << examples << " labelled moves), " << skipped
            << " skipped\n";
  if (interrupt_requested())
    throw Interrupted(std::to_string(done + made) + " finished samples kept in " + a.out + "; rerun to resume");
}

void run_train_moves(const gnn::MoveTrainCommand& c) {
  const gnn::MoveTrainSummary r = gnn_plugin().train_moves(c, &std::cerr);
  std::fprintf(stderr,
               "train-moves: %d training states (%lld labelled moves), %d validation states; epoch %d written: "
               "top-ranked move %+.3f%%, best %+.3f%%, mean %+.3f%% (validation, relative time change)\n",
               r.train_states, r.train_examples, r.val_states, r.best_epoch, 100 * r.val_chosen, 100 * r.val_best,
               100 * r.val_random);
}

void run_move_policy(const gnn::MovePolicyCommand& c) {
  const gnn::MovePolicyReport r = gnn_plugin().move_policy(c, &std::cerr);
  std::printf("held-out clusters: %d\n", r.clusters);
  std::printf("greedy's placement: top-ranked move predicted %+.2f%%, median move predicted %+.2f%%, "
              "top-ranked move evaluated %+.2f%% (means, relative time change)\n",
              100 * r.greedy_top_predicted, 100 * r.greedy_median_predicted, 100 * r.greedy_top_actual);
  std::printf("greedy's placement: a faster labelled exchange on %.1f%% of the clusters; the best one alone "
              "%.4fx greedy (geomean)\n",
              100 * r.greedy_improvable, r.greedy_one_move_oracle);
  std::printf("%8s %9s %6s %10s %10s %9s %7s\n", "margin", "max_score", "moves", "geomean", "worst", "improved",
              "taken");
  for (const gnn::MovePolicyRow& row : r.rows)
    std::printf("%8.3f %9.3f %6d %9.4fx %9.4fx %8.1f%% %7.2f\n", row.margin, row.max_score, row.max_moves,
                row.geomean_vs_greedy, row.worst_vs_greedy, 100 * row.improved_share, row.mean_moves);
}

void register_move_policy_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("move-policy",
                                 "Measure model-only's walk (stopping margin, walk length) on the held-out clusters "
                                 "of a move data set, with the analytic evaluator");
  cmd->footer("Example:\n  hulk gnn move-policy --data runs/moves51 --model models/hulk-gnn.pt --seed 1");
  auto c = std::make_shared<gnn::MovePolicyCommand>();
  cmd->add_option("--data", c->data_dirs, "move data set folder (repeat for several)")->required();
  cmd->add_option("--model", c->model, "model file with a move scorer")->required();
  cmd->add_option("--seed", c->seed, "train-moves' seed (selects its held-out clusters)")
      ->capture_default_str()
      ->check(seed_check());
  cmd->add_option("--max-moves", c->max_moves, "longest walk measured")
      ->capture_default_str()
      ->check(number_range(1, 1000));
  cmd->add_option("--margins", c->margins, "stopping margins compared (relative time below the median score)")
      ->capture_default_str();
  cmd->add_option("--max-scores", c->max_scores,
                  "bounds on a taken move's predicted relative time change compared, each with every margin "
                  "(default: none)");
  cmd->add_flag("--allow-partial", c->allow_partial, "use the samples present (an unfinished gen-moves)");
  cmd->callback([c] { run_move_policy(*c); });
}

}  // namespace

void register_gnn_moves_commands(CLI::App& app) {
  auto* gen = app.add_subcommand("gen-moves",
                                 "Generate the move data set: sampled clusters, states from greedy on, host exchanges "
                                 "labelled by the analytic evaluator");
  gen->footer("Example:\n  hulk gnn gen-moves --count 400 --seed 51 --out runs/moves51");
  auto g = std::make_shared<GenMovesArgs>();
  gen->add_option("--count", g->count, "number of samples (sampled clusters)")->capture_default_str();
  gen->add_option("--seed", g->seed, "data seed")->capture_default_str()->check(seed_check());
  gen->add_option("--out", g->out, "data set folder")->required();
  gen->add_option("--shard", g->shard, "i/n: generate only the samples with index % n == i (0-based i)");
  gen->add_option("--max-gpus", g->options.max_gpus, "largest sampled platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  gen->add_option("--states", g->options.states, "states per sample (greedy's placement, then one move each)")
      ->capture_default_str()
      ->check(number_range(1, 1000));
  gen->add_option("--moves", g->options.moves_per_state, "host exchanges labelled per state")
      ->capture_default_str()
      ->check(number_range(1, 100000));
  gen->callback([g] { run_gen_moves(*g); });

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
