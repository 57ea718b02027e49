// `hulk gnn train`: parse the options, run sim/lab/gnn_train_run.hpp around the plugin's training, and print.
#include <iostream>
#include <memory>

#include "gnn/train_command.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/lab/gnn_train_run.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"
#include "tools/cli/option_ranges.hpp"

namespace hulk::cli {
namespace {

void run_train(const gnn::TrainCommand& args) {
  gnn::TrainSummary r;
  GnnTrainOptions o{args.data_dirs, args.model_out, [&](const PlacementTimer& evaluator) {
                      gnn::TrainCommand command = args;
                      // a signal before training started stops it too
                      command.interrupted = [] { return interrupt_requested(); };
                      r = gnn_plugin().train(command, evaluator, &std::cerr);
                      return r.interrupted;
                    }};
  run_gnn_train(o);
  std::cerr << "train: " << r.train_samples << " training (" << r.synthetic_samples << " synthetic) and "
            << r.val_samples << " validation samples, " << r.skipped_samples << " skipped\n";
}

}  // namespace

void register_gnn_train_command(CLI::App& app) {
  auto* train = app.add_subcommand("train", "Train the GNN placer on a data set (checkpoints, resumes)");
  train->footer("Example:\n  hulk gnn train --data data/train --out models/my-gnn.pt --epochs 20 --seed 1");
  auto t = std::make_shared<gnn::TrainCommand>();
  train->add_option("--data", t->data_dirs, "data set folder (repeat to train on several)")->required();
  train->add_option("--out", t->model_out, "model file to write")->required();
  train->add_option("--epochs", t->epochs, "epochs")->capture_default_str()->check(number_range(0, 100000));
  train->add_option("--seed", t->seed, "training seed")->capture_default_str()
      ->check(seed_check());
  train->add_flag("--allow-partial", t->allow_partial, "train on the samples present (an unfinished gen-data)");
  train->add_option("--synthetic", t->synthetic,
                    "extra sampled scenarios labelled with greedy (self-imitation only, never validation)")
      ->capture_default_str();
  train->add_option("--synthetic-max-gpus", t->synthetic_max_gpus, "largest synthetic platform (GPUs)")
      ->capture_default_str()
      ->check(sampled_gpus_range());
  train->add_option("--reinforce", t->reinforce,
                    "K >= 2: add a policy-gradient term (K sampled decodes per sample and step, reward -log of the "
                    "evaluator's time, mean baseline) to the imitation loss; 0 = off")
      ->capture_default_str();
  train->add_option("--reinforce-weight", t->reinforce_weight, "scale of the policy-gradient term")
      ->capture_default_str()
      ->check(number_range(0.0, 1e6));  // inf and nan made the loss nan and the model useless, without a word
  train->add_option("--init", t->init, "start from this model file's weights (fine-tuning)");
  train->add_option("--validation-candidates", t->validation_candidates,
                    "decodes per validation sample of the gap that selects the written epoch (1 = the argmax "
                    "decode alone: the model's own answer, gnn-families' model-only)")
      ->capture_default_str()
      ->check(number_range(1, 100000));
  train->callback([t] { run_train(*t); });
}

}  // namespace hulk::cli
