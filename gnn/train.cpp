#include "gnn/train.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gnn/loss.hpp"
#include "gnn/model_file.hpp"
#include "gnn/reinforce.hpp"
#include "gnn/sampled_decode.hpp"
#include "gnn/single_thread.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/features/reference_graph.hpp"

namespace hulk::gnn {

namespace {

// Training stops between batches and epochs once the caller's interrupt flag says so (the program's one flag,
// set by its SIGINT/SIGTERM handler; gnn/ keeps no signal state of its own).
bool stop_requested(const TrainOptions& opt) { return opt.interrupted && opt.interrupted(); }

// Fisher-Yates with our own index draws (std::shuffle's use of the generator is implementation-defined).
void shuffle(std::vector<int>& v, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
}

struct Prepared {
  const Sample* sample;
  GraphTensors tensors;
  RoleTargets targets;
  Placement reference;    ///< the greedy placement the graph's reference features describe
  double label_s = std::numeric_limits<double>::quiet_NaN();      ///< evaluator time of the label (lazy)
  double reference_s = std::numeric_limits<double>::quiet_NaN();  ///< evaluator time of the reference (lazy)
};

std::optional<Prepared> prepare(const Sample& s, const ModelConfig& c) {
  if (s.scenario.only_job().par.pp > c.p_max ||
      static_cast<int>(s.label.gpu_of_rank.size()) != s.scenario.only_job().par.ranks())
    return std::nullopt;
  GraphOptions go;
  go.nearest_neighbours = c.nearest_neighbours;
  // The model sees the graph it sees at inference (GnnPlacer): greedy reference roles and estimated traffic. The
  // SimGrid trace stored in the sample is not used (it would cost a simulation per placement at inference).
  Placement reference = GreedyPlacer().place(s.scenario);
  const ClusterGraph g = build_reference_graph(s.scenario, go, reference);
  Prepared p{&s, to_tensors(g, c.p_max), make_targets(role_counts(s.scenario, s.label), g.pp, c.p_max),
             std::move(reference)};
  return p;
}

/** The model's best decode of one sample from its logits (sampling decoder judged by the evaluator). */
SampledPlacement model_decode(const torch::Tensor& logits, const Prepared& p, int candidates, std::uint64_t seed,
                              const Evaluator& evaluator) {
  const Scenario& s = p.sample->scenario;
  SamplingOptions so;
  so.candidates = std::max(1, candidates);
  so.seed = seed;
  return decode_best_of_samples(s, scores_from_logits(logits, p.tensors.pp), so,
                                [&](const Placement& x) { return evaluator(s, x); });
}

/** Self-imitation (train.hpp): refreshes every sample's target; returns the share taken from the model. */
double refresh_targets(PlacementGnn& model, std::vector<Prepared>& set, const Evaluator& evaluator,
                       const TrainOptions& opt, int epoch) {
  torch::NoGradGuard no_grad;
  model->eval();
  const int p_max = model->config().p_max;
  int from_model = 0;
  for (Prepared& p : set) {
    const Scenario& s = p.sample->scenario;
    if (std::isnan(p.label_s)) {
      p.label_s = evaluator(s, p.sample->label);
      p.reference_s = evaluator(s, p.reference);
    }
    const SampledPlacement mine = model_decode(model->forward(p.tensors), p, opt.self_imitation_candidates,
                                               sample_seed(opt.seed ^ 0x5e1f, static_cast<std::uint64_t>(epoch) * 1000003u +
                                                                           static_cast<std::uint64_t>(p.sample->index)),
                                               evaluator);
    const double good_enough = std::min({p.label_s, p.reference_s, mine.cost}) * (1.0 + opt.self_imitation_tolerance);
    const Placement& target = mine.cost <= good_enough          ? mine.placement
                              : p.reference_s <= good_enough ? p.reference
                                                             : p.sample->label;
    from_model += &target == &mine.placement;
    p.targets = make_targets(role_counts(s, target), p.tensors.pp, p_max);
  }
  return set.empty() ? 0.0 : static_cast<double>(from_model) / static_cast<double>(set.size());
}

constexpr const char* kCkptEpoch = "ckpt_epoch";
constexpr const char* kCkptInputs = "ckpt_inputs";

/** What a resumed run must share with the run that wrote its checkpoint, as (name, value): the command-line option's
 *  name where it has one. Not the number of epochs: a finished or interrupted run may be given more. */
std::vector<std::pair<std::string, std::string>> run_inputs(const TrainOptions& opt, const std::vector<Sample>& data) {
  const auto real = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    return std::string(text);
  };
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(samples_fingerprint(data)));
  std::vector<std::pair<std::string, std::string>> in{
      {"--seed", std::to_string(opt.seed)},
      {"--reinforce", std::to_string(opt.reinforce_candidates)},
      {"--reinforce-weight", real(opt.reinforce_weight)},
      {"--init", opt.init_model.empty() ? "(none)" : opt.init_model},
      {"learning rate", real(opt.lr)},
      {"batch", std::to_string(opt.batch)},
      {"validation share", real(opt.val_fraction)},
      {"self-imitation candidates", std::to_string(opt.self_imitation_candidates)},
      {"self-imitation tolerance", real(opt.self_imitation_tolerance)},
      {"validation candidates", std::to_string(opt.validation_candidates)}};
  in.insert(in.end(), opt.data_inputs.begin(), opt.data_inputs.end());
  in.push_back({"training data", std::to_string(data.size()) + " samples, digest " + digest});
  return in;
}

std::string inputs_text(const std::vector<std::pair<std::string, std::string>>& inputs) {
  std::string text;
  for (const auto& [name, value] : inputs) text += name + "\t" + value + "\n";
  return text;
}

/** The first input whose value differs between the checkpoint's text and this run's, said as "NAME (was A, now
 *  B)"; empty when they agree. */
std::string first_changed_input(const std::string& was_text, const std::vector<std::pair<std::string, std::string>>& now) {
  std::map<std::string, std::string> was;
  std::istringstream lines(was_text);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) was[line.substr(0, tab)] = line.substr(tab + 1);
  }
  for (const auto& [name, value] : now) {
    const auto it = was.find(name);
    const std::string before = it == was.end() ? "not recorded" : it->second;
    if (before != value) return name + " (was " + before + ", now " + value + ")";
  }
  return "";
}

void save_checkpoint(const std::string& path, PlacementGnn& model, torch::optim::Adam& opt, int epoch,
                     const std::vector<EpochStats>& history, const std::string& inputs) {
  torch::serialize::OutputArchive a;
  a.write(kCkptEpoch, torch::tensor(static_cast<std::int64_t>(epoch), torch::kInt64));
  a.write(kCkptInputs, c10::IValue(inputs));
  torch::Tensor h = torch::zeros({static_cast<std::int64_t>(history.size()), 5}, torch::kFloat64);
  for (std::size_t i = 0; i < history.size(); ++i) {
    h[i][0] = history[i].epoch;
    h[i][1] = history[i].train_loss;
    h[i][2] = history[i].val_loss;
    h[i][3] = history[i].val_gap;
    h[i][4] = history[i].seconds;
  }
  a.write("ckpt_history", h);
  torch::serialize::OutputArchive m, o;
  model_to_archive(model, m);
  a.write("model", m);
  opt.save(o);
  a.write("optimizer", o);
  // Stream form (as save_model): the archive's bytes do not depend on the file name.
  try {
    write_file_atomic(path, [&a](std::ostream& file) { a.save_to(file); });
  } catch (const c10::Error& e) {
    throw InputError(path, 0, "", "cannot write checkpoint");
  }
}

}  // namespace

double evaluate_loss(PlacementGnn& model, const std::vector<Sample>& data) {
  torch::NoGradGuard no_grad;
  model->eval();
  double sum = 0;
  int n = 0;
  for (const Sample& s : data) {
    auto p = prepare(s, model->config());
    if (!p) continue;
    sum += placement_loss(model->forward(p->tensors), p->targets, p->tensors.host_weight).item<double>();
    ++n;
  }
  return n ? sum / n : std::numeric_limits<double>::quiet_NaN();
}

namespace {

void check_options(const std::string& out, const TrainOptions& opt) {
  if (opt.epochs < 0 || opt.batch < 1 || !(opt.lr > 0) || opt.val_fraction < 0 || opt.val_fraction >= 1)
    throw InputError(out, 0, "", "bad training options (need epochs >= 0, batch >= 1, lr > 0, 0 <= val_fraction < 1)");
}

/** Loads model weights, history and optimiser state from the checkpoint `ckpt` of the same run (the same inputs,
 *  run_inputs); returns the last finished epoch. */
int resume_from_checkpoint(const std::string& ckpt, const std::vector<std::pair<std::string, std::string>>& inputs,
                           PlacementGnn& model, TrainResult& result,
                           std::optional<torch::serialize::InputArchive>& opt_state) {
  torch::serialize::InputArchive a;
  try {
    a.load_from(ckpt);
  } catch (const std::exception&) {
    throw InputError(ckpt, 0, "", "corrupt checkpoint (delete it to start afresh)");
  }
  torch::Tensor ep, hist;
  if (!a.try_read(kCkptEpoch, ep) || !a.try_read("ckpt_history", hist))
    throw InputError(ckpt, 0, "", "not a hulk training checkpoint");
  c10::IValue recorded;
  if (!a.try_read(kCkptInputs, recorded) || !recorded.isString())
    throw InputError(ckpt, 0, "", "checkpoint of an older hulk, without a record of its run's options; delete it to "
                                  "start afresh");
  const std::string changed = first_changed_input(recorded.toStringRef(), inputs);
  if (!changed.empty())
    throw InputError(ckpt, 0, "", "checkpoint belongs to another run: " + changed +
                                      "; delete it to start afresh, or rerun with that run's options and data");
  torch::serialize::InputArchive m;
  if (!a.try_read("model", m)) throw InputError(ckpt, 0, "", "checkpoint has no model");
  model = model_from_archive(m, ckpt);
  for (int i = 0; i < hist.size(0); ++i)
    result.history.push_back(EpochStats{static_cast<int>(hist[i][0].item<double>()), hist[i][1].item<double>(),
                                        hist[i][2].item<double>(), hist[i][3].item<double>(),
                                        hist[i][4].item<double>()});
  opt_state.emplace();
  if (!a.try_read("optimizer", *opt_state)) throw InputError(ckpt, 0, "", "checkpoint has no optimizer state");
  return static_cast<int>(ep.item<std::int64_t>());
}

/** Deterministic train/validation split, featurising every sample once. Validation only takes samples with a
 *  search label (synthetic samples' labels are the reference itself). */
void split_samples(const std::vector<Sample>& data, const TrainOptions& opt, const ModelConfig& cfg,
                   TrainResult& result, std::vector<Prepared>& train, std::vector<Prepared>& val) {
  const int N = static_cast<int>(data.size());
  std::vector<int> order(N);
  for (int i = 0; i < N; ++i) order[i] = i;
  shuffle(order, sample_seed(opt.seed, 0x5011u));
  int labelled = 0;
  for (const Sample& smp : data) labelled += smp.reference_label ? 0 : 1;
  int n_val = static_cast<int>(std::lround(labelled * opt.val_fraction));
  if (opt.val_fraction > 0 && labelled >= 2) n_val = std::max(1, n_val);
  n_val = std::min(n_val, N - 1);
  for (int i = 0; i < N; ++i) {
    const Sample& smp = data[order[i]];
    auto p = prepare(smp, cfg);
    if (!p) {
      ++result.skipped_samples;
      continue;
    }
    const bool to_val = !smp.reference_label && static_cast<int>(val.size()) < n_val;
    (to_val ? val : train).push_back(std::move(*p));
  }
  result.train_samples = static_cast<int>(train.size());
  result.val_samples = static_cast<int>(val.size());
}

/** One pass of mini-batch Adam over the training split in this epoch's shuffled order; returns the summed
 *  per-sample loss. Stops between batches once stop_requested (the caller checks it too). */
double train_one_epoch(PlacementGnn& model, torch::optim::Adam& adam, const std::vector<Prepared>& train,
                       const TrainOptions& opt, int epoch, const Evaluator& evaluator) {
  const bool reinforce = evaluator && opt.reinforce_candidates > 1;
  std::vector<int> idx(train.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int>(i);
  shuffle(idx, sample_seed(opt.seed, static_cast<std::uint64_t>(epoch)));
  model->train();
  double loss_sum = 0;
  for (std::size_t b = 0; b < idx.size() && !stop_requested(opt); b += opt.batch) {
    const std::size_t e = std::min(idx.size(), b + opt.batch);
    adam.zero_grad();
    for (std::size_t i = b; i < e; ++i) {
      const Prepared& p = train[idx[i]];
      const torch::Tensor logits = model->forward(p.tensors);
      torch::Tensor loss = placement_loss(logits, p.targets, p.tensors.host_weight);
      loss_sum += loss.item<double>();  // the imitation loss (the policy-gradient term has no fixed scale)
      if (reinforce) {
        const Scenario& s = p.sample->scenario;
        const std::uint64_t seed = sample_seed(opt.seed ^ 0x7e1full, static_cast<std::uint64_t>(epoch) * 1000003u +
                                                                        static_cast<std::uint64_t>(p.sample->index));
        loss = loss + opt.reinforce_weight *
                          reinforce_loss(logits, s, p.tensors.host_weight, opt.reinforce_candidates, seed,
                                         [&](const Placement& x) { return evaluator(s, x); });
      }
      (loss / static_cast<double>(e - b)).backward();  // per sample: memory stays one graph's
    }
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    adam.step();
  }
  return loss_sum;
}

/** Validation loss and, with an evaluator, the mean gap of the model's decodes to the labels (fills st). */
void validate_epoch(PlacementGnn& model, const std::vector<Prepared>& val, const Evaluator& evaluator,
                    const TrainOptions& opt, EpochStats& st) {
  torch::NoGradGuard no_grad;
  model->eval();
  double vl = 0, gap = 0;
  int n_gap = 0;
  for (const Prepared& p : val) {
    const torch::Tensor logits = model->forward(p.tensors);
    vl += placement_loss(logits, p.targets, p.tensors.host_weight).item<double>();
    if (!evaluator) continue;
    try {
      const double t_mine = model_decode(logits, p, opt.validation_candidates, 1, evaluator).cost;
      const double t_label = evaluator(p.sample->scenario, p.sample->label);
      if (t_label > 0 && std::isfinite(t_mine)) {
        gap += t_mine / t_label - 1.0;
        ++n_gap;
      }
    } catch (const InputError&) {
      // No valid placement for this sample's job: it cannot have a label either; leave it out of the gap.
    }
  }
  st.val_loss = vl / static_cast<double>(val.size());
  if (n_gap) st.val_gap = gap / n_gap;
}

/** Model selection on the validation split (part of the training data, never the held-out sets): the written
 *  model is the epoch with the lowest validation gap (what inference is judged on), or the lowest validation loss
 *  without an evaluator (small data sets overfit). Ties keep the earlier epoch. */
double selection_score(const EpochStats& e, bool by_gap) { return by_gap ? e.val_gap : e.val_loss; }

bool is_best_epoch(const std::vector<EpochStats>& history, const EpochStats& st, bool by_gap) {
  if (std::isnan(selection_score(st, by_gap))) return false;
  for (const EpochStats& e : history)
    if (!std::isnan(selection_score(e, by_gap)) && selection_score(e, by_gap) <= selection_score(st, by_gap))
      return false;
  return true;
}

void print_epoch(std::ostream& progress, const EpochStats& st, int epochs) {
  char line[256];
  std::snprintf(line, sizeof line, "epoch %d/%d loss %.4f val_loss %.4f val_gap %.2f%% own_targets %.0f%% time %.1fs\n",
                st.epoch, epochs, st.train_loss, st.val_loss, 100.0 * st.val_gap, 100.0 * st.model_targets, st.seconds);
  progress << line << std::flush;
}

/** True if some epoch of `history` can be selected (its score is a number). */
bool has_selected_epoch(const std::vector<EpochStats>& history, bool by_gap) {
  for (const EpochStats& e : history)
    if (!std::isnan(selection_score(e, by_gap))) return true;
  return false;
}

/** The error of a selected epoch whose weights (`out`.best) are gone: never silently the last epoch's weights. */
InputError missing_best_weights(const std::string& out) {
  return InputError(out + ".best", 0, "",
                    "the selected best epoch's weights are missing (deleted?); delete " + out +
                        ".ckpt to train afresh");
}

/** Writes the selected model to `out`: a copy of the best epoch's weights (`out`.best, kept so that a rerun or a
 *  run with more epochs still has them) when an epoch was selected, else the last epoch's. */
void write_selected_model(PlacementGnn& model, const std::string& out, const std::vector<EpochStats>& history,
                          bool by_gap) {
  const std::string best = out + ".best";
  if (!has_selected_epoch(history, by_gap)) {
    save_model(model, out);
    return;
  }
  std::ifstream in(best, std::ios::binary);
  if (!in) throw missing_best_weights(out);
  write_file_atomic(out, [&in](std::ostream& o) { o << in.rdbuf(); });
}

}  // namespace

TrainResult train_model(const std::vector<Sample>& data, const std::string& out, const TrainOptions& opt,
                        const Evaluator& evaluator, std::ostream* progress) {
  if (data.empty()) throw InputError(out, 0, "", "no training samples");
  check_options(out, opt);
  SingleThread threads;  // one intra-op thread while training (determinism)
  const std::string ckpt = out + ".ckpt";
  const std::vector<std::pair<std::string, std::string>> inputs = run_inputs(opt, data);

  // Model and optimiser: fresh (seeded) or from the checkpoint.
  torch::manual_seed(opt.seed);
  PlacementGnn model = opt.init_model.empty() ? PlacementGnn(opt.model) : load_model(opt.init_model);
  TrainResult result;
  std::optional<torch::serialize::InputArchive> opt_state;
  const int start_epoch =
      opt.resume && std::filesystem::exists(ckpt) ? resume_from_checkpoint(ckpt, inputs, model, result, opt_state) : 0;
  if (start_epoch == 0) {
    std::error_code ec;
    std::filesystem::remove(out + ".best", ec);  // a fresh run never inherits another run's selection
  } else if (has_selected_epoch(result.history, static_cast<bool>(evaluator)) &&
             !std::filesystem::exists(out + ".best")) {
    throw missing_best_weights(out);  // before training: the selection could not be written at the end
  }
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(opt.lr));
  if (opt_state) adam.load(*opt_state);

  std::vector<Prepared> train, val;
  split_samples(data, opt, model->config(), result, train, val);
  if (train.empty()) throw InputError(out, 0, "", "no usable training sample (all exceed the model's p_max?)");

  const bool by_gap = static_cast<bool>(evaluator);
  for (int epoch = start_epoch + 1; epoch <= opt.epochs; ++epoch) {
    if (stop_requested(opt)) {
      result.interrupted = true;
      break;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const bool self_imitation = evaluator && opt.self_imitation_candidates > 0;
    EpochStats st;
    st.epoch = epoch;
    st.model_targets = self_imitation ? refresh_targets(model, train, evaluator, opt, epoch) : 0.0;
    const double loss_sum = train_one_epoch(model, adam, train, opt, epoch, evaluator);
    if (stop_requested(opt)) {
      result.interrupted = true;
      break;  // the checkpoint still holds the last finished epoch
    }
    st.train_loss = loss_sum / static_cast<double>(train.size());
    st.val_loss = st.val_gap = std::numeric_limits<double>::quiet_NaN();
    if (!val.empty()) validate_epoch(model, val, evaluator, opt, st);
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (is_best_epoch(result.history, st, by_gap)) save_model(model, out + ".best");
    result.history.push_back(st);
    save_checkpoint(ckpt, model, adam, epoch, result.history, inputs_text(inputs));
    if (progress) print_epoch(*progress, st, opt.epochs);
  }
  if (!result.interrupted) write_selected_model(model, out, result.history, by_gap);
  return result;
}

}  // namespace hulk::gnn
