// `hulk gnn move-policy`: parse the options, run the plugin's measurement of model-only's walk, and print its table.
#include <cstdio>
#include <iostream>
#include <memory>

#include "gnn/move_policy_command.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"
#include "tools/cli/option_ranges.hpp"

namespace hulk::cli {
namespace {

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

}  // namespace

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
                  "(default: none; nan = the model file's stop bound, model-only's)");
  cmd->add_flag("--allow-partial", c->allow_partial, "use the samples present (an unfinished gen-moves)");
  cmd->add_option("--val-fraction", c->val_fraction,
                  "share of the clusters measured, as train-moves holds them out (1 = all: a data set never trained on)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->callback([c] { run_move_policy(*c); });
}

}  // namespace hulk::cli
