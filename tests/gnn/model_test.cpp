// Torch-side tests: tensor shapes and masking, loss properties, equivariance, overfitting a tiny data set,
// deterministic and resumable training, interrupts, model file round trip and errors, inference time.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <numeric>
#include <random>

#include <torch/torch.h>

#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/features/reference_graph.hpp"
#include "gnn/features.hpp"
#include "gnn/gnn_placer.hpp"
#include "gnn/loss.hpp"
#include "gnn/model.hpp"
#include "gnn/model_file.hpp"
#include "gnn/train.hpp"
#include "gnn_test_helpers.hpp"
#include "sim/core/errors.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;
using testing::grid_scenario;

std::string tmp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("hulk_gnn_" + name + "_" + std::to_string(::getpid()))).string();
}

void remove_run(const std::string& out) {
  fs::remove(out);
  fs::remove(out + ".ckpt");
}

ModelConfig small_config() {
  ModelConfig c;
  c.hidden = 32;
  c.layers = 2;
  c.p_max = 8;
  c.nearest_neighbours = 8;
  return c;
}

bool same_weights(PlacementGnn& a, PlacementGnn& b) {
  auto pa = a->named_parameters(), pb = b->named_parameters();
  if (pa.size() != pb.size()) return false;
  for (const auto& kv : pa)
    if (!torch::equal(kv.value(), pb[kv.key()])) return false;
  return true;
}

TEST(GnnTensors, ShapesAndMasking) {
  const Scenario s = grid_scenario(3, 2, 4, Parallelism{2, 2, 3});
  const ClusterGraph g = build_cluster_graph(s, nullptr);
  const GraphTensors t = to_tensors(g, 8);
  const int64_t H = 6, E = static_cast<int64_t>(g.edges.size());
  EXPECT_EQ(t.nodes.sizes(), (std::vector<int64_t>{H, kNodeFeatures + kJobFeatures}));
  EXPECT_EQ(t.edges.sizes(), (std::vector<int64_t>{E, kEdgeFeatures}));
  EXPECT_EQ(t.edge_src.sizes(), (std::vector<int64_t>{E}));
  EXPECT_EQ(t.stages.sizes(), (std::vector<int64_t>{8, kStageFeatures + kJobFeatures}));
  EXPECT_EQ(t.role_mask.sum().item<int64_t>(), 4);  // stages 0..2 + unused
  EXPECT_NEAR(t.host_weight.sum().item<double>(), 1.0, 1e-6);
  torch::manual_seed(0);
  PlacementGnn model(small_config());
  const torch::Tensor logits = model->forward(t);
  EXPECT_EQ(logits.sizes(), (std::vector<int64_t>{H, 9}));
  const torch::Tensor prob = torch::softmax(logits, 1);
  EXPECT_TRUE(torch::allclose(prob.sum(1), torch::ones({H})));
  EXPECT_EQ(prob.slice(1, 3, 8).abs().max().item<float>(), 0.0f);  // masked stages 3..7 get probability 0
  EXPECT_GT(prob.slice(1, 0, 3).min().item<float>(), 0.0f);
  EXPECT_FALSE(torch::isnan(logits).any().item<bool>());
  const RoleScores sc = scores_from_logits(logits, 3);
  EXPECT_EQ(sc.roles, 4);
  EXPECT_NEAR(std::exp(sc.at(0, 3)), prob[0][8].item<float>(), 1e-5);  // unused column maps to role pp
  // A job deeper than p_max is refused with a clear error.
  const Scenario deep = grid_scenario(3, 4, 8, Parallelism{1, 1, 9});
  EXPECT_THROW(to_tensors(build_cluster_graph(deep, nullptr), 8), InputError);
}

TEST(GnnLoss, BoundedBelowByEntropyAndMirrorInvariant) {
  const Scenario s = grid_scenario(2, 3, 2, Parallelism{2, 1, 2});
  RoleCounts c = {{2, 0, 0}, {1, 1, 0}, {0, 0, 2}, {0, 2, 0}, {0, 0, 2}, {0, 0, 2}};
  const RoleTargets y = make_targets(c, 2, 4);
  const torch::Tensor w = torch::full({6}, 1.0 / 6);
  const double bound = loss_lower_bound(y, w);
  EXPECT_NEAR(bound, std::log(2.0) / 6, 1e-6);  // only host 1 is split (1/2, 1/2)
  torch::manual_seed(1);
  for (int i = 0; i < 20; ++i) {
    const torch::Tensor logits = torch::randn({6, 5}) * 3;
    EXPECT_GE(placement_loss(logits, y, w).item<double>(), bound - 1e-6);  // Gibbs' inequality
  }
  // Logits equal to log of the targets reach the bound; so do the mirrored targets' logits.
  const torch::Tensor ideal = torch::log(y.direct.clamp_min(1e-12));
  const torch::Tensor mirror = torch::log(y.mirrored.clamp_min(1e-12));
  EXPECT_NEAR(placement_loss(ideal, y, w).item<double>(), bound, 1e-5);
  EXPECT_NEAR(placement_loss(mirror, y, w).item<double>(), bound, 1e-5);
}

TEST(GnnModel, PermutingHostsPermutesScores) {
  // Equivariance: the model sees no host ids, so relabelling hosts must relabel its output.
  SamplerOptions o;
  o.max_total_gpus = 64;
  ModelConfig cfg = small_config();
  cfg.nearest_neighbours = 0;  // complete graph: neighbour tie-breaks by index would differ otherwise
  // The first sampled scenario from seed 12 on that the model accepts (pp <= p_max): independent of what one seed
  // happens to draw.
  std::uint64_t seed = 12;
  while (sample_scenario(seed, o).only_job().par.pp > cfg.p_max) ++seed;
  const Scenario s = sample_scenario(seed, o);
  Scenario p = s;
  const int H = static_cast<int>(s.platform.hosts.size());
  std::vector<int> perm(H);
  std::iota(perm.begin(), perm.end(), 0);
  std::reverse(perm.begin(), perm.end());  // new host i = old host perm[i]
  for (int i = 0; i < H; ++i) p.platform.hosts[i] = s.platform.hosts[perm[i]];
  torch::manual_seed(3);
  PlacementGnn model(cfg);
  const RoleScores a = predict_scores(model, build_cluster_graph(s, nullptr, GraphOptions{0}));
  const RoleScores b = predict_scores(model, build_cluster_graph(p, nullptr, GraphOptions{0}));
  for (int i = 0; i < H; ++i)
    for (int r = 0; r < a.roles; ++r) EXPECT_NEAR(b.at(i, r), a.at(perm[i], r), 1e-4);
}

TEST(GnnTraining, TinyModelOverfitsTinyDataSet) {
  // Four hand-built scenarios whose hosts all have distinct features (NIC bandwidth, GPU speed), labels from random
  // scores: the model must memorise them. A perfect fit reaches the entropy bound. The margin is relative to the
  // problem, not a fixed number of nats: the excess over the bound must fall below a quarter of the untrained
  // model's excess (~1.1 nats, about log(pp + 1)). A fixed "bound + 0.05" failed on another 2-core Debian 12 CPU
  // (0.0629): 100 epochs of Adam amplify the last-bit differences of that CPU's vector kernels, although training
  // already runs on one intra-op thread (train.cpp ThreadGuard) so summation order is fixed. Memorisation gives a
  // ratio ~0.03-0.06 on the machines measured, not learning gives ~1: a quarter is clear of both. The decoded
  // placements must also have the label's (or its mirror's) per-host stage counts.
  std::vector<Sample> data;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 4; ++i) {
    Sample smp;
    smp.index = i;
    smp.scenario = grid_scenario(2 + i % 2, 2 + i / 2, 4, Parallelism{2, 2, 2 + i % 2});  // 4 different platforms
    // Make hosts clearly distinct: NIC bandwidth doubles from host to host, GPU speed cycles over 3 values.
    for (std::size_t h = 0; h < smp.scenario.platform.hosts.size(); ++h) {
      smp.scenario.platform.hosts[h].host_link.bandwidth_Bps = 1.25e8 * std::pow(2.0, static_cast<double>(h));
      smp.scenario.platform.hosts[h].gpu.fp16_flops *= 1.0 + static_cast<double>(h % 3);
    }
    smp.label = decode_placement(smp.scenario, testing::random_scores(smp.scenario, rng));
    data.push_back(smp);
  }
  TrainOptions opt;
  opt.epochs = 100;
  opt.batch = 1;
  opt.lr = 3e-3;
  opt.val_fraction = 0;
  opt.model = small_config();
  opt.resume = false;
  const std::string out = tmp_path("overfit.pt");
  remove_run(out);
  const TrainResult r = train_model(data, out, opt, {}, std::getenv("HULK_TEST_VERBOSE") ? &std::cerr : nullptr);
  ASSERT_EQ(r.train_samples, 4);
  PlacementGnn model = load_model(out);
  double bound = 0;
  for (const Sample& smp : data) {
    const ClusterGraph g = build_reference_graph(smp.scenario, GraphOptions{opt.model.nearest_neighbours});
    const GraphTensors t = to_tensors(g, opt.model.p_max);
    bound += loss_lower_bound(make_targets(role_counts(smp.scenario, smp.label), g.pp, opt.model.p_max), t.host_weight);
  }
  bound /= 4;
  const double loss = evaluate_loss(model, data);
  torch::manual_seed(opt.seed);  // the same initial weights train_model started from
  PlacementGnn untrained(opt.model);
  const double untrained_loss = evaluate_loss(untrained, data);
  ASSERT_GT(untrained_loss - bound, 0.5) << "the untrained model already fits: the test would prove nothing";
  EXPECT_LT(loss - bound, 0.25 * (untrained_loss - bound))
      << "loss " << loss << ", bound " << bound << ", untrained loss " << untrained_loss << ", first epoch loss "
      << r.history.front().train_loss;
  SamplingOptions argmax_only;  // the argmax decode: what the loss trained (not greedy's placement)
  argmax_only.candidates = 1;
  argmax_only.greedy_candidate = false;
  GnnPlacer placer(out, argmax_only);
  for (const Sample& smp : data) {
    const RoleCounts want = role_counts(smp.scenario, smp.label);
    RoleCounts mirrored = want;
    const int pp = smp.scenario.only_job().par.pp;
    for (auto& row : mirrored) std::reverse(row.begin(), row.begin() + pp);
    const RoleCounts got = role_counts(smp.scenario, placer.place(smp.scenario));
    if (std::getenv("HULK_TEST_VERBOSE")) {
      const ClusterGraph g = build_reference_graph(smp.scenario, GraphOptions{opt.model.nearest_neighbours});
      torch::NoGradGuard ng;
      std::cerr << torch::softmax(model->forward(to_tensors(g, opt.model.p_max)), 1) << "\n"
                << make_targets(want, pp, opt.model.p_max).direct << "\n";
    }
    EXPECT_TRUE(got == want || got == mirrored) << "sample " << smp.index;
  }
  remove_run(out);
}

TrainOptions quick_options() {
  TrainOptions opt;
  opt.epochs = 3;
  opt.batch = 2;
  opt.seed = 77;
  opt.val_fraction = 0.25;
  opt.model = small_config();
  return opt;
}

TEST(GnnTraining, DeterministicForASeed) {
  const std::vector<Sample> data = testing::tiny_dataset(8, 21);
  const std::string a = tmp_path("det_a.pt"), b = tmp_path("det_b.pt"), c = tmp_path("det_c.pt");
  for (const auto& p : {a, b, c}) remove_run(p);
  TrainOptions opt = quick_options();
  const TrainResult ra = train_model(data, a, opt, testing::stand_in_time_s);
  const TrainResult rb = train_model(data, b, opt, testing::stand_in_time_s);
  opt.seed = 78;
  train_model(data, c, opt, testing::stand_in_time_s);
  ASSERT_EQ(ra.history.size(), 3u);
  EXPECT_EQ(ra.val_samples, 2);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ra.history[i].train_loss, rb.history[i].train_loss);
    EXPECT_EQ(ra.history[i].val_loss, rb.history[i].val_loss);
    EXPECT_TRUE(std::isfinite(ra.history[i].val_gap));  // evaluator used
  }
  PlacementGnn ma = load_model(a), mb = load_model(b), mc = load_model(c);
  EXPECT_TRUE(same_weights(ma, mb));
  EXPECT_FALSE(same_weights(ma, mc));
  for (const auto& p : {a, b, c}) remove_run(p);
}

TEST(GnnTraining, WritesTheSelectedEpochOrFails) {
  const std::vector<Sample> data = testing::tiny_dataset(8, 21);
  const std::string out = tmp_path("select.pt"), upto = tmp_path("select_upto.pt");
  for (const auto& p : {out, upto}) remove_run(p);
  TrainOptions opt = quick_options();  // 3 epochs, a validation split, selection by validation gap
  opt.resume = false;
  const TrainResult r = train_model(data, out, opt, testing::stand_in_time_s);
  ASSERT_EQ(r.history.size(), 3u);
  std::size_t best = 0;  // the first epoch with the lowest gap
  for (std::size_t i = 1; i < r.history.size(); ++i)
    if (r.history[i].val_gap < r.history[best].val_gap) best = i;
  // Training is deterministic per epoch, so a run stopped at the selected epoch ends with its weights (and selects
  // it too: no earlier epoch is as good).
  opt.epochs = static_cast<int>(best) + 1;
  train_model(data, upto, opt, testing::stand_in_time_s);
  PlacementGnn written = load_model(out), selected = load_model(upto);
  EXPECT_TRUE(same_weights(written, selected)) << "selected epoch " << best + 1;
  EXPECT_TRUE(fs::exists(out + ".best"));  // copied into place, kept for a rerun or more epochs

  // Rerunning the finished run (nothing left to train) writes the same selected model again.
  opt.epochs = 3;
  opt.resume = true;
  train_model(data, out, opt, testing::stand_in_time_s);
  PlacementGnn rewritten = load_model(out);
  EXPECT_TRUE(same_weights(rewritten, selected));

  // Without the selected epoch's weights, writing the last epoch's instead would be a silent change of the model:
  // an error, before any epoch is trained.
  fs::remove(out + ".best");
  opt.epochs = 5;
  EXPECT_THROW(train_model(data, out, opt, testing::stand_in_time_s), InputError);

  // The selected weights cannot be moved onto the output (a non-empty folder is in the way): an error.
  for (const auto& p : {out, upto}) remove_run(p);
  fs::create_directories(fs::path(out) / "in_the_way");
  opt.resume = false;
  EXPECT_THROW(train_model(data, out, opt, testing::stand_in_time_s), InputError);
  fs::remove_all(out);
  fs::remove(out + ".best");
  remove_run(out);
}

TEST(GnnTraining, ReferenceLabelledSamplesTrainButNeverValidate) {
  TrainOptions opt = quick_options();
  // 12 samples the model accepts (pp <= p_max), so that every one is used: none skipped whatever the sampler draws.
  std::vector<Sample> data;
  for (const Sample& smp : testing::tiny_dataset(24, 23))
    if (smp.scenario.only_job().par.pp <= opt.model.p_max && data.size() < 12) data.push_back(smp);
  ASSERT_EQ(data.size(), 12u);
  for (int i = 0; i < 8; ++i) data[i].reference_label = true;  // 4 searched labels left
  const std::string out = tmp_path("synthetic.pt");
  remove_run(out);
  opt.epochs = 1;
  opt.val_fraction = 0.5;  // half of the 4 labelled samples, none of the 8 synthetic ones
  const TrainResult r = train_model(data, out, opt, testing::stand_in_time_s);
  EXPECT_EQ(r.skipped_samples, 0);
  EXPECT_EQ(r.val_samples, 2);
  EXPECT_EQ(r.train_samples, 10);
  remove_run(out);
}

TEST(GnnTraining, ResumeAndSigintGiveTheUninterruptedResult) {
  const std::vector<Sample> data = testing::tiny_dataset(8, 22);
  const std::string straight = tmp_path("straight.pt"), resumed = tmp_path("resumed.pt");
  remove_run(straight);
  remove_run(resumed);
  TrainOptions opt = quick_options();
  opt.epochs = 4;
  // Plain labels and an argmax validation decode, so that the evaluator is called exactly twice per validation
  // sample (self-imitation's determinism is covered by GnnTraining.DeterministicForASeed).
  opt.self_imitation_candidates = 0;
  opt.validation_candidates = 1;
  train_model(data, straight, opt, testing::stand_in_time_s);  // with an evaluator: model selection by gap

  // An interrupt while epoch 2 validates: epoch 2 completes and is checkpointed, epoch 3 stops at once.
  int calls = 0;
  bool interrupted = false;
  Evaluator interrupt_in_epoch_2 = [&](const Scenario& s, const Placement& p) {
    if (++calls == 5) interrupted = true;  // 2 val samples x 2 calls per epoch: call 5 is epoch 2's first
    return testing::stand_in_time_s(s, p);
  };
  TrainOptions interruptible = opt;
  interruptible.interrupted = [&] { return interrupted; };
  const TrainResult r1 = train_model(data, resumed, interruptible, interrupt_in_epoch_2);
  EXPECT_TRUE(r1.interrupted);
  EXPECT_EQ(r1.history.size(), 2u);
  EXPECT_FALSE(fs::exists(resumed));  // no model file from an interrupted run
  EXPECT_TRUE(fs::exists(resumed + ".ckpt"));
  const TrainResult r2 = train_model(data, resumed, opt, testing::stand_in_time_s);
  EXPECT_FALSE(r2.interrupted);
  EXPECT_EQ(r2.history.size(), 4u);
  PlacementGnn a = load_model(straight), b = load_model(resumed);
  EXPECT_TRUE(same_weights(a, b));
  // A checkpoint from another seed is refused, not silently mixed.
  opt.seed = 5;
  EXPECT_THROW(train_model(data, resumed, opt), InputError);
  remove_run(straight);
  remove_run(resumed);
}

/** The message of the InputError `run` throws ("" if none). */
std::string refusal_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Resuming a checkpoint with other data of the same size, or with another --reinforce, would give a model no single
// run makes. Every input but the number of epochs must match, and the refusal names what changed.
TEST(GnnTraining, ACheckpointOfAnotherRunIsRefusedNamingWhatChanged) {
  const std::vector<Sample> data = testing::tiny_dataset(8, 22), other = testing::tiny_dataset(8, 23);
  const std::string out = tmp_path("another_run.pt");
  remove_run(out);
  TrainOptions opt = quick_options();
  opt.epochs = 1;
  opt.data_inputs = {{"--synthetic", "0"}};
  train_model(data, out, opt);
  ASSERT_TRUE(fs::exists(out + ".ckpt"));
  EXPECT_NE(refusal_of([&] { train_model(other, out, opt); }).find("training data (was 8 samples, digest"),
            std::string::npos);
  TrainOptions reinforce = opt;
  reinforce.reinforce_candidates = 2;
  EXPECT_NE(refusal_of([&] { train_model(data, out, reinforce); }).find("--reinforce (was 0, now 2)"),
            std::string::npos);
  TrainOptions synthetic = opt;
  synthetic.data_inputs = {{"--synthetic", "40"}};
  EXPECT_NE(refusal_of([&] { train_model(data, out, synthetic); }).find("--synthetic (was 0, now 40)"),
            std::string::npos);
  // More epochs of the same run resume it.
  TrainOptions longer = opt;
  longer.epochs = 2;
  EXPECT_EQ(train_model(data, out, longer).history.size(), 2u);
  remove_run(out);
}

// A signal the CLI's handler caught while the data loaded: the run must stop before the first epoch, not train
// every epoch and then report an interrupt.
TEST(GnnTraining, AnInterruptBeforeTheFirstEpochTrainsAndWritesNothing) {
  const std::vector<Sample> data = testing::tiny_dataset(8, 22);
  const std::string out = tmp_path("stopped_early.pt");
  remove_run(out);
  TrainOptions opt = quick_options();
  opt.interrupted = [] { return true; };
  const TrainResult r = train_model(data, out, opt, testing::stand_in_time_s);
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(r.history.empty());
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".ckpt"));
  remove_run(out);
}

TEST(GnnModelFile, SameWeightsSameBytesWhateverTheFileName) {
  torch::manual_seed(4);
  PlacementGnn model(small_config());
  const std::string a = tmp_path("bytes_a.pt"), b = tmp_path("a_longer_name_b.pt");
  save_model(model, a);
  save_model(model, b);
  auto bytes = [](const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  EXPECT_FALSE(bytes(a).empty());
  EXPECT_EQ(bytes(a), bytes(b));
  fs::remove(a);
  fs::remove(b);
}

TEST(GnnModelFile, SaveLoadGivesIdenticalPlacements) {
  torch::manual_seed(9);
  PlacementGnn model(small_config());
  const std::string path = tmp_path("roundtrip.pt");
  save_model(model, path);
  SamplingOptions argmax_only;
  argmax_only.candidates = 1;
  argmax_only.greedy_candidate = false;  // the decode of the scores alone
  GnnPlacer placer(path, argmax_only);
  EXPECT_EQ(placer.max_stages(), 8);
  SamplerOptions o;
  o.max_total_gpus = 64;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    if (s.only_job().par.pp > 8) continue;
    const ClusterGraph g = build_reference_graph(s, GraphOptions{small_config().nearest_neighbours});
    const RoleScores direct = predict_scores(model, g);
    const RoleScores loaded = placer.scores(s);
    EXPECT_EQ(direct.values, loaded.values);
    EXPECT_EQ(decode_placement(s, direct).gpu_of_rank, placer.place(s).gpu_of_rank);
  }
  fs::remove(path);
}

/** Saves the model's archive with one record replaced (a damaged or edited file, the rest intact). */
void save_with_record(PlacementGnn& model, const std::string& key, const torch::Tensor& value, const std::string& path) {
  torch::serialize::OutputArchive a;
  model_to_archive(model, a);
  a.write(key, value);
  a.save_to(path);
}

/** load_model(path) throws an InputError whose message holds `fragment`. */
void expect_load_error(const std::string& path, const std::string& fragment) {
  try {
    load_model(path);
    FAIL() << path << " loaded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(GnnModelFile, MissingCorruptAndWrongVersionAreInputErrors) {
  const std::string missing = tmp_path("missing.pt");
  fs::remove(missing);
  try {
    GnnPlacer p(missing);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), missing);
  }
  const std::string garbage = tmp_path("garbage.pt");
  { std::ofstream(garbage) << "this is not a model"; }
  try {
    load_model(garbage);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), garbage);
  }
  // Truncated real model file.
  torch::manual_seed(1);
  PlacementGnn model(small_config());
  const std::string good = tmp_path("good.pt"), cut = tmp_path("cut.pt");
  save_model(model, good);
  {
    std::ifstream in(good, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  EXPECT_THROW(load_model(cut), InputError);
  // Other format version.
  const std::string other = tmp_path("v99.pt");
  save_with_record(model, "hulk_model_format", torch::tensor(static_cast<int64_t>(99)), other);
  expect_load_error(other, "version 99");
  // A NaN weight (every score NaN): refused, with the weight's name.
  const std::string nan_weights = tmp_path("nan.pt");
  {
    torch::NoGradGuard no_grad;
    PlacementGnn poisoned(small_config());
    poisoned->parameters().front().view(-1)[0] = std::numeric_limits<float>::quiet_NaN();
    save_model(poisoned, nan_weights);
  }
  expect_load_error(nan_weights, "NaN or infinite");
  // One weight byte damaged inside the archive (LibTorch does not check the zip's CRC-32): the digest notices.
  const std::string damaged = tmp_path("damaged.pt");
  {
    std::ifstream in(good, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    torch::Tensor w;  // the largest weight: its first 64 bytes are found once in the file
    for (const torch::Tensor& p : model->parameters())
      if (!w.defined() || p.numel() > w.numel()) w = p.detach().contiguous();
    const std::string weight_bytes(static_cast<const char*>(w.data_ptr()), 64);
    const std::size_t at = bytes.find(weight_bytes);
    ASSERT_NE(at, std::string::npos);
    bytes[at + 5] = static_cast<char>(bytes[at + 5] ^ 0x40);
    std::ofstream(damaged, std::ios::binary) << bytes;
  }
  try {
    load_model(damaged);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), damaged);
    EXPECT_NE(std::string(e.what()).find("digest"), std::string::npos) << e.what();
  }
  // A hyper-parameter changed to another plausible value (the graph's nearest neighbours), the weights intact.
  const std::string other_graph = tmp_path("other-graph.pt");
  const ModelConfig c = model->config();
  save_with_record(model, "config",
                   torch::tensor(std::vector<int64_t>{c.hidden, c.layers, c.p_max, c.nearest_neighbours + 1,
                                                      kNodeFeatures, kEdgeFeatures, kJobFeatures, kStageFeatures},
                                 torch::kInt64),
                   other_graph);
  expect_load_error(other_graph, "digest");
  for (const auto& p : {garbage, good, cut, other, nan_weights, damaged, other_graph}) fs::remove(p);
}

double median_place_ms(GnnPlacer& placer, const Scenario& s) {
  std::vector<double> ms;
  for (int i = 0; i < 3; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const Placement p = placer.place(s);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    EXPECT_EQ(placement_violation(s, p), "");
  }
  std::sort(ms.begin(), ms.end());
  return ms[1];  // median of 3
}

TEST(GnnPlacerScale, ValidPlacementsAt47HostsAnd1024Gpus) {
  // Default-size model (inference cost does not depend on the weights' values). Asserts that every placement is
  // valid at these sizes; the times are printed for the README's speed section but never asserted: a shared 2-core
  // machine under load missed any fixed limit (299 ms against 250 ms once), and speed belongs to benchmarks.
  torch::manual_seed(2);
  PlacementGnn model{ModelConfig{}};
  const std::string path = tmp_path("speed.pt");
  save_model(model, path);
  GnnPlacer placer(path);
  Scenario hulk47 = grid_scenario(12, 4, 4, Parallelism{8, 4, 4});  // 48 hosts first, drop one -> 47 x 4 GPUs
  hulk47.platform.hosts.pop_back();
  Scenario big = grid_scenario(16, 8, 8, Parallelism{32, 4, 8});     // 128 hosts x 8 = 1,024 GPUs, all used
  Scenario flat = grid_scenario(16, 64, 1, Parallelism{64, 1, 16});  // 1,024 single-GPU hosts
  const double t47 = median_place_ms(placer, hulk47), t1024 = median_place_ms(placer, big),
               tflat = median_place_ms(placer, flat);
  std::printf("[ timing ] gnn place: 47 hosts/188 GPUs %.1f ms; 128 hosts/1024 GPUs %.1f ms; "
              "1024 hosts/1024 GPUs %.1f ms (torch threads %d)\n", t47, t1024, tflat, at::get_num_threads());
  // Phase breakdown on the largest graph (what to optimise next).
  {
    using clock = std::chrono::steady_clock;
    auto ms = [](clock::time_point a, clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    const auto t0 = clock::now();
    const ClusterGraph g = build_cluster_graph(flat, nullptr, GraphOptions{ModelConfig{}.nearest_neighbours});
    const auto t1 = clock::now();
    const RoleScores sc = predict_scores(model, g);
    const auto t2 = clock::now();
    const Placement p = decode_placement(flat, sc);
    const auto t3 = clock::now();
    std::printf("[ timing ] 1024 hosts: graph %.1f ms (%zu edges), forward %.1f ms, decode %.1f ms\n", ms(t0, t1),
                g.edges.size(), ms(t1, t2), ms(t2, t3));
  }
  fs::remove(path);
}

}  // namespace
}  // namespace hulk::gnn

namespace hulk::gnn {
namespace {

TEST(GnnTrainingSpeed, DefaultModelOnGenDataSizedSamples) {
  // Throughput of `hulk gnn train` with the default model on samples like gen-data's (<= 128 GPUs): printed for the
  // report; asserted only loosely (shared machine). Labels are decoded random scores (speed does not depend on them).
  SamplerOptions o;
  o.max_total_gpus = 128;
  std::vector<Sample> data;
  std::mt19937_64 rng(1);
  int hosts = 0;
  for (int i = 0; i < 16; ++i) {
    Sample smp;
    smp.index = i;
    smp.scenario = sample_scenario(sample_seed(99, i), o);
    smp.label = decode_placement(smp.scenario, testing::random_scores(smp.scenario, rng));
    hosts += static_cast<int>(smp.scenario.platform.hosts.size());
    data.push_back(smp);
  }
  TrainOptions opt;
  opt.epochs = 2;
  opt.val_fraction = 0;
  opt.resume = false;
  const std::string out = tmp_path("speed_train.pt");
  remove_run(out);
  const TrainResult r = train_model(data, out, opt);
  const double s = r.history.back().seconds;
  std::printf("[ timing ] train: %d samples (mean %.1f hosts) per epoch in %.2f s = %.1f ms per sample "
              "(default model, 1 thread)\n", r.train_samples, hosts / 16.0, s, 1e3 * s / r.train_samples);
  EXPECT_LT(s / r.train_samples, 1.0);
  remove_run(out);
}

}  // namespace
}  // namespace hulk::gnn
