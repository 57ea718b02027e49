#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <ostream>
#include <random>

#include "gnn/format_version.hpp"
#include "gnn/model_file.hpp"
#include "gnn/move_calibrate.hpp"
#include "gnn/move_dagger.hpp"
#include "gnn/move_data.hpp"
#include "gnn/move_model.hpp"
#include "gnn/move_policy_command.hpp"
#include "gnn/move_train_command.hpp"
#include "gnn/single_thread.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"
#include "sim/evaluate/evaluator.hpp"

namespace hulk::gnn {

namespace {

/** Temperature of the listwise term, in scaled label units (0.2 = a 2% time difference is a factor e in weight). */
constexpr double kMoveRankTemperature = 0.2;

/** One state's inputs and labels, built once. */
struct StateTensors {
  MoveInputs inputs;
  torch::Tensor labels;  ///< [M] labels x kMoveLabelScale
};

struct Split {
  std::vector<StateTensors> train, val;
  long long train_examples = 0;
};

/** The states of the samples, split by sample (a validation cluster is never trained on) and, with max_examples,
 *  the training states cut after that many labelled moves (in sample order, so a smaller run's data is a prefix of
 *  a larger one's). */
Split load_states(const std::vector<MoveSample>& samples, const MoveTrainCommand& c, const MoveModelConfig& config) {
  Split out;
  for (const MoveSample& s : samples) {
    const bool val = held_out_move_sample(c.seed, s.index, c.val_fraction);
    const Evaluator ev(s.scenario);  // its route model, built once per cluster
    for (const MoveState& st : s.states) {
      if (st.moves.empty()) continue;
      if (!val && c.max_examples > 0 && out.train_examples >= c.max_examples) continue;
      std::vector<std::pair<int, int>> pairs;
      std::vector<float> labels;
      for (const MoveExample& m : st.moves) {
        pairs.emplace_back(m.a, m.b);
        labels.push_back(static_cast<float>(m.label * kMoveLabelScale));
      }
      StateTensors t{move_inputs(s.scenario, ev.network(), st.placement, pairs, config),
                     torch::tensor(labels, torch::kFloat)};
      if (val) {
        out.val.push_back(std::move(t));
      } else {
        out.train_examples += static_cast<long long>(labels.size());
        out.train.push_back(std::move(t));
      }
    }
  }
  return out;
}

torch::Tensor state_loss(MoveScorer& model, const StateTensors& t) {
  const torch::Tensor pred = model->forward(t.inputs.graph, t.inputs.a, t.inputs.b, t.inputs.pair);
  const torch::Tensor huber = torch::smooth_l1_loss(pred, t.labels);
  const torch::Tensor target = torch::softmax(-t.labels / kMoveRankTemperature, 0);
  const torch::Tensor listwise = -(target * torch::log_softmax(-pred / kMoveRankTemperature, 0)).sum();
  return huber + listwise;
}

/** Mean over the states of the label of the top-ranked move, of the best move and of all moves (real units). */
struct ValStats {
  double chosen = 0, best = 0, random = 0;
};

ValStats validate(MoveScorer& model, const std::vector<StateTensors>& val) {
  torch::NoGradGuard no_grad;
  model->eval();
  ValStats v;
  for (const StateTensors& t : val) {
    const torch::Tensor pred = model->forward(t.inputs.graph, t.inputs.a, t.inputs.b, t.inputs.pair);
    v.chosen += t.labels[pred.argmin().item<std::int64_t>()].item<double>();
    v.best += t.labels.min().item<double>();
    v.random += t.labels.mean().item<double>();
  }
  const double n = std::max<std::size_t>(1, val.size()) * kMoveLabelScale;
  model->train();
  return {v.chosen / n, v.best / n, v.random / n};
}

/** The epoch's training order: a Fisher-Yates shuffle on raw draws of a generator seeded by (seed, epoch). */
std::vector<std::size_t> epoch_order(std::size_t n, std::uint64_t seed, int epoch) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 rng(stream_seed(seed, 0x6d6f7665ULL + static_cast<std::uint64_t>(epoch)));
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  return order;
}

double run_epoch(MoveScorer& model, torch::optim::Adam& adam, const std::vector<StateTensors>& train,
                 const MoveTrainCommand& c, int epoch) {
  const std::vector<std::size_t> order = epoch_order(train.size(), c.seed, epoch);
  double total = 0;
  for (std::size_t start = 0; start < order.size(); start += static_cast<std::size_t>(c.batch)) {
    const std::size_t end = std::min(order.size(), start + static_cast<std::size_t>(c.batch));
    adam.zero_grad();
    torch::Tensor loss = torch::zeros({});
    for (std::size_t i = start; i < end; ++i) loss = loss + state_loss(model, train[order[i]]);
    loss = loss / static_cast<double>(end - start);
    loss.backward();
    adam.step();
    total += loss.item<double>() * static_cast<double>(end - start);
  }
  return total / std::max<std::size_t>(1, order.size());
}

}  // namespace

bool held_out_move_sample(std::uint64_t seed, int index, double val_fraction) {
  return static_cast<double>(stream_seed(seed, static_cast<std::uint64_t>(index)) % 1000) < val_fraction * 1000.0;
}

namespace {

/** Adds the states of `samples` (tensors built once) to the split, by the same held-out rule. */
void add_states(Split& data, const std::vector<MoveSample>& samples, const MoveTrainCommand& c,
                const MoveModelConfig& config) {
  MoveTrainCommand all = c;
  all.max_examples = 0;  // a cut applies to gen-moves' data only: the policy's states are all kept
  Split more = load_states(samples, all, config);
  for (StateTensors& t : more.train) data.train.push_back(std::move(t));
  for (StateTensors& t : more.val) data.val.push_back(std::move(t));
  data.train_examples += more.train_examples;
}

/** `epochs` epochs with a fresh Adam, numbered from first_epoch (the shuffles drawn from order_key + 1, + 2, ...:
 *  a round's order does not depend on how many epochs came before it); the weights of the epoch whose top-ranked
 *  validation move is best are restored (the last epoch's without validation states) and summarised in `out`. */
void train_epochs(MoveScorer& model, const Split& data, const MoveTrainCommand& c, int first_epoch, int epochs,
                  int order_key, MoveTrainSummary& out, std::ostream* progress) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(c.lr));
  std::vector<torch::Tensor> best;  // the selected epoch's weights
  double best_chosen = std::numeric_limits<double>::infinity();
  const int total = c.epochs + c.dagger_rounds * c.dagger_epochs;
  for (int e = first_epoch; e < first_epoch + epochs; ++e) {
    const auto t0 = std::chrono::steady_clock::now();
    model->train();
    const double loss = run_epoch(model, adam, data.train, c, order_key + e - first_epoch + 1);
    const ValStats v = validate(model, data.val);
    if (data.val.empty() || v.chosen < best_chosen) {
      best_chosen = v.chosen;
      best.clear();
      for (const auto& p : model->parameters()) best.push_back(p.detach().clone());
      out.best_epoch = e;
      out.val_chosen = v.chosen;
      out.val_best = v.best;
      out.val_random = v.random;
    }
    if (progress) {
      char line[200];
      std::snprintf(line, sizeof line,
                    "epoch %d/%d loss %.4f val_chosen %+.3f%% val_best %+.3f%% val_random %+.3f%% time %.1fs\n", e,
                    total, loss, 100 * v.chosen, 100 * v.best, 100 * v.random,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      *progress << line << std::flush;
    }
  }
  torch::NoGradGuard no_grad;
  const auto params = model->parameters();
  for (std::size_t i = 0; i < params.size() && !best.empty(); ++i) params[i].copy_(best[i]);
}

/** The scorer to start from: the --init file's with init_scorer, else fresh weights after manual_seed(seed). */
MoveScorer initial_scorer(const MoveTrainCommand& c) {
  torch::manual_seed(c.seed);
  if (!c.init_scorer) {
    MoveModelConfig config;
    if (!c.move_deltas) config.pair_features = kPairFeatures;
    return MoveScorer{config};
  }
  if (c.init.empty())
    throw InputError("", 0, "--init-scorer", "expected --init, the model file whose scorer to start from");
  MoveScorer model = load_move_scorer(c.init);
  if (!model) throw InputError(c.init, 0, "moves", "the model file has no move scorer to start from (--init-scorer)");
  return model;
}

/** The model-only walk's bounds fitted on the validation clusters (gnn/move_calibrate.hpp), the grid printed. */
StopCalibration fit_stop_bounds(MoveScorer& model, const std::vector<MoveSample>& samples, const MoveTrainCommand& c,
                      std::ostream* progress) {
  CalibrationOptions o;
  o.seed = c.seed;
  o.val_fraction = c.val_fraction;
  const StopCalibration fit = choose_stop_bound(calibration_walks(model, samples, o, progress), o);
  if (progress) {
    char line[200];
    std::snprintf(line, sizeof line, "stop bound: %d validation clusters of <= 64 GPUs, %d larger\n",
                  fit.clusters_small, fit.clusters_large);
    *progress << line;
    for (const CalibrationRow& r : fit.rows) {
      std::snprintf(line, sizeof line,
                    "stop bound %+.3f: <= 64 GPUs %.4fx (worst %.4fx), larger %.4fx (worst %.4fx), moves %.2f\n",
                    r.bound, r.geomean_small, r.worst_small, r.geomean_large, r.worst_large, r.mean_moves);
      *progress << line;
    }
    std::snprintf(line, sizeof line, "stop bounds kept: %+.3f (<= 64 GPUs), %+.3f (larger)\n", fit.bound_small,
                  fit.bound_large);
    *progress << line << std::flush;
  }
  return fit;
}

}  // namespace

MoveTrainSummary train_moves_from_dir(const MoveTrainCommand& c, std::ostream* progress) {
  if (c.epochs < 0 || c.batch < 1 || (c.epochs == 0 && !c.init_scorer))
    throw InputError("", 0, "--epochs", "expected at least one epoch (0 only with --init-scorer) and batch");
  if (c.dagger_rounds < 0 || (c.dagger_rounds > 0 && c.dagger_epochs < 1))
    throw InputError("", 0, "--dagger-epochs", "expected at least one epoch per aggregation round");
  SingleThread threads;  // the same sums in the same order on any machine
  PlacementGnn placement{nullptr};
  if (!c.init.empty()) {
    placement = load_model(c.init);
  } else {
    torch::manual_seed(c.seed);
    placement = PlacementGnn(ModelConfig{});
  }
  std::vector<MoveSample> samples = load_move_datasets(c.data_dirs, c.allow_partial);
  MoveScorer model = initial_scorer(c);
  const MoveModelConfig config = model->config();
  Split data = load_states(samples, c, config);
  if (data.train.empty()) throw InputError(c.data_dirs.front(), 0, "", "no training state with moves");
  MoveTrainSummary out;
  train_epochs(model, data, c, 1, c.epochs, 0, out, progress);
  for (int round = 1; round <= c.dagger_rounds; ++round) {
    DaggerOptions o;
    o.walk = c.dagger_walk;
    o.seed = c.seed;
    o.round = round;
    const std::vector<MoveSample> added = policy_states(model, samples, o);
    const std::size_t before = data.train.size() + data.val.size();
    add_states(data, added, c, config);
    if (progress)
      *progress << "dagger round " << round << ": " << data.train.size() + data.val.size() - before
                << " states of the scorer's walk added (" << data.train.size() << " training, " << data.val.size()
                << " validation)\n";
    // The next round walks from greedy's placement again; its states join this round's.
    train_epochs(model, data, c, c.epochs + (round - 1) * c.dagger_epochs + 1, c.dagger_epochs, 1000 * round, out,
                 progress);
  }
  out.train_states = static_cast<int>(data.train.size());
  out.val_states = static_cast<int>(data.val.size());
  out.train_examples = data.train_examples;
  model->eval();
  if (c.calibrate_stop) {
    const StopCalibration fit = fit_stop_bounds(model, samples, c, progress);
    model->set_stop_bounds(fit.bound_small, fit.bound_large);
  }
  out.stop_bound_small = model->stop_bound(MoveScorerImpl::kStopBoundGpus);
  out.stop_bound_large = model->stop_bound(MoveScorerImpl::kStopBoundGpus + 1);
  save_model(placement, c.model_out, model);
  return out;
}

}  // namespace hulk::gnn
