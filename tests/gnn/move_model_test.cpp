// The move scorer of the learned improvement policy (gnn/move_model.hpp), its model file records and its training
// (gnn/move_train_command.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <unistd.h>

#include "gnn/dataset.hpp"
#include "gnn/decode.hpp"
#include "gnn/model_file.hpp"
#include "gnn/move_data.hpp"
#include "gnn/move_model.hpp"
#include "gnn/single_thread.hpp"
#include "gnn/move_train_command.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;

std::string tmp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("hulk_move_model_" + name + "_" + std::to_string(::getpid()))).string();
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Scenario small_scenario(std::uint64_t seed) {
  SamplerOptions o;
  o.max_total_gpus = 32;
  return sample_scenario(seed, o);
}

TEST(MoveScorer, ScoresDoNotDependOnTheOrderOfThePairOrOfTheMoves) {
  torch::manual_seed(3);
  MoveScorer model{MoveModelConfig{}};
  std::uint64_t seed = 1;  // the first sampled cluster with several exchanges
  while (candidate_exchanges(small_scenario(seed), GreedyPlacer().place(small_scenario(seed))).size() < 4) ++seed;
  const Scenario s = small_scenario(seed);
  const Evaluator ev(s);
  const Placement p = GreedyPlacer().place(s);
  std::vector<std::pair<int, int>> moves = candidate_exchanges(s, p);
  const std::vector<double> x = predict_moves(model, s, ev.network(), p, moves);
  std::vector<std::pair<int, int>> swapped;
  for (auto it = moves.rbegin(); it != moves.rend(); ++it) swapped.emplace_back(it->second, it->first);
  const std::vector<double> y = predict_moves(model, s, ev.network(), p, swapped);
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[y.size() - 1 - i], 1e-5 * (1 + std::abs(x[i])));
}

TEST(MoveScorer, PredictionsAreTheForwardPassesBytesWithAutogradOff) {
  torch::manual_seed(4);
  MoveScorer model{MoveModelConfig{}};
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Scenario s = small_scenario(seed);
    const Evaluator ev(s);
    const Placement p = GreedyPlacer().place(s);
    const auto moves = candidate_exchanges(s, p);
    if (moves.empty()) continue;
    // The pass predict_moves makes, with no-grad instead of its inference mode: the same bytes.
    torch::NoGradGuard no_grad;
    SingleThread threads;
    model->eval();
    const MoveInputs in = move_inputs(s, ev.network(), p, moves, model->config());
    const torch::Tensor y = model->forward(in.graph, in.a, in.b, in.pair).to(torch::kDouble);
    const std::vector<double> x = predict_moves(model, s, ev.network(), p, moves);
    ASSERT_EQ(static_cast<std::int64_t>(x.size()), y.size(0));
    for (std::size_t i = 0; i < x.size(); ++i)
      EXPECT_EQ(x[i], y[static_cast<std::int64_t>(i)].item<double>() / kMoveLabelScale) << seed << " " << i;
  }
}

TEST(MoveScorer, FollowingMovesGivesValidPlacementsAndStopsWhenNoMoveStandsOut) {
  torch::manual_seed(5);
  MoveScorer model{MoveModelConfig{}};
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Scenario s = small_scenario(seed);
    const Evaluator ev(s);
    const Placement start = GreedyPlacer().place(s);
    const Placement p = follow_learned_moves(model, s, ev.network(), start, 6, -1.0);  // any prediction "gains"
    EXPECT_EQ(placement_violation(s, p), "") << seed;
    EXPECT_EQ(follow_learned_moves(model, s, ev.network(), start, 6, -1.0).gpu_of_rank, p.gpu_of_rank);
    // The steps are the placements after each move taken, all distinct, ending at the answer.
    std::vector<Placement> steps;
    std::vector<double> scores;
    follow_learned_moves(model, s, ev.network(), start, 6, -1.0, &steps, std::numeric_limits<double>::infinity(),
                         &scores);
    EXPECT_LE(steps.size(), 6u);
    EXPECT_EQ(scores.size(), steps.size());
    // A bound just above the k-th move's prediction stops the walk before the first later move predicted above it.
    for (std::size_t k = 0; k < scores.size(); ++k) {
      const double bound = std::nextafter(scores[k], std::numeric_limits<double>::infinity());
      std::size_t taken = 0;
      while (taken < scores.size() && scores[taken] < bound) ++taken;
      std::vector<Placement> bounded;
      follow_learned_moves(model, s, ev.network(), start, 6, -1.0, &bounded, bound);
      EXPECT_EQ(bounded.size(), taken) << seed;
    }
    EXPECT_EQ(steps.empty() ? start.gpu_of_rank : steps.back().gpu_of_rank, p.gpu_of_rank);
    for (std::size_t i = 1; i < steps.size(); ++i) EXPECT_NE(steps[i].gpu_of_rank, steps[i - 1].gpu_of_rank);
    // No move's score is a whole time below the state's median score: the start.
    EXPECT_EQ(follow_learned_moves(model, s, ev.network(), start, 6, 1.0).gpu_of_rank, start.gpu_of_rank);
    EXPECT_EQ(follow_learned_moves(model, s, ev.network(), start, 0, -1.0).gpu_of_rank, start.gpu_of_rank);
  }
}

TEST(MoveScorer, ModelFileKeepsTheScorerAndOlderFilesHaveNone) {
  torch::manual_seed(7);
  PlacementGnn gnn{ModelConfig{}};
  MoveScorer moves{MoveModelConfig{}};
  const std::string with = tmp_path("with.pt"), without = tmp_path("without.pt");
  save_model(gnn, with, moves);
  save_model(gnn, without);
  EXPECT_FALSE(load_move_scorer(without));
  MoveScorer loaded = load_move_scorer(with);
  ASSERT_TRUE(loaded);
  const Scenario s = small_scenario(2);
  const Evaluator ev(s);
  const Placement p = GreedyPlacer().place(s);
  const auto cands = candidate_exchanges(s, p);
  EXPECT_EQ(predict_moves(moves, s, ev.network(), p, cands), predict_moves(loaded, s, ev.network(), p, cands));
  fs::remove(with);
  fs::remove(without);
}

TEST(MoveTraining, DeterministicAndBetterThanAnOrderBlindPick) {
  const std::string dir = tmp_path("data");
  fs::remove_all(dir);
  Manifest m;
  m.count = 24;
  m.seed = 31;
  m.generator = "test";
  write_manifest(dir, m);
  MoveDataOptions o;
  o.max_gpus = 64;
  o.states = 4;
  o.moves_per_state = 24;
  for (int i = 0; i < m.count; ++i) write_move_sample(dir, make_move_sample(i, m.seed, o));
  MoveTrainCommand c;
  c.data_dirs = {dir};
  c.epochs = 6;
  c.val_fraction = 0.25;
  c.model_out = tmp_path("a.pt");
  const MoveTrainSummary a = train_moves_from_dir(c, nullptr);
  c.model_out = tmp_path("b.pt");
  const MoveTrainSummary b = train_moves_from_dir(c, nullptr);
  EXPECT_EQ(bytes_of(tmp_path("a.pt")), bytes_of(tmp_path("b.pt")));
  EXPECT_EQ(a.best_epoch, b.best_epoch);
  EXPECT_GT(a.val_states, 0);
  EXPECT_GT(a.train_examples, 500);
  // The top-ranked move is on average better than a move drawn blindly, and no better than the best one.
  EXPECT_LT(a.val_chosen, a.val_random);
  EXPECT_GE(a.val_chosen, a.val_best);
  // The model-only walk's bounds, fitted on the validation clusters, are the file's.
  MoveScorer written = load_move_scorer(tmp_path("a.pt"));
  ASSERT_TRUE(written);
  EXPECT_EQ(written->stop_bound(MoveScorerImpl::kStopBoundGpus), a.stop_bound_small);
  EXPECT_EQ(written->stop_bound(MoveScorerImpl::kStopBoundGpus + 1), a.stop_bound_large);
  fs::remove_all(dir);
  fs::remove(tmp_path("a.pt"));
  fs::remove(tmp_path("b.pt"));
}

}  // namespace
}  // namespace hulk::gnn
