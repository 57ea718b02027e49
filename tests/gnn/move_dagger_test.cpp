// Data aggregation for the move scorer (gnn/move_dagger.hpp) and train-moves' --dagger / --init-scorer
// (gnn/move_train_command.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "gnn/dataset.hpp"
#include "gnn/model_file.hpp"
#include "gnn/move_dagger.hpp"
#include "gnn/move_train_command.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;

std::string tmp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("hulk_move_dagger_" + name + "_" + std::to_string(::getpid()))).string();
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/** A small move data set: `count` samples of gen-moves' kind. */
std::string write_data(int count, std::uint64_t seed) {
  const std::string dir = tmp_path("data" + std::to_string(seed));
  fs::remove_all(dir);
  Manifest m;
  m.count = count;
  m.seed = seed;
  m.generator = "test";
  write_manifest(dir, m);
  MoveDataOptions o;
  o.max_gpus = 64;
  o.states = 3;
  o.moves_per_state = 24;
  for (int i = 0; i < count; ++i) write_move_sample(dir, make_move_sample(i, seed, o));
  return dir;
}

TEST(MoveDagger, AddsTheScorersWalkLabelledByTheEvaluator) {
  const std::string dir = write_data(6, 41);
  const std::vector<MoveSample> samples = load_move_dataset(dir, false);
  torch::manual_seed(9);
  MoveScorer model{MoveModelConfig{}};
  DaggerOptions o;
  o.walk = 3;
  const std::vector<MoveSample> added = policy_states(model, samples, o);
  ASSERT_EQ(added.size(), samples.size());
  int states = 0;
  for (std::size_t i = 0; i < added.size(); ++i) {
    const MoveSample& s = added[i];
    EXPECT_EQ(s.index, samples[i].index);
    EXPECT_LE(s.states.size(), 3u);
    // The walk's placements, in order: the last is where the policy walks without a bound on its scores.
    std::vector<Placement> steps;
    const Evaluator ev(s.scenario);
    const Placement end = follow_learned_moves(model, s.scenario, ev.network(), samples[i].states.front().placement,
                                               3, -std::numeric_limits<double>::infinity(), &steps);
    ASSERT_EQ(s.states.size(), steps.size()) << i;
    if (!steps.empty()) EXPECT_EQ(s.states.back().placement.gpu_of_rank, end.gpu_of_rank);
    for (const MoveState& st : s.states) {
      ++states;
      EXPECT_EQ(placement_violation(s.scenario, st.placement), "");
      const double before = ev.iteration_time_s(st.placement);
      for (const MoveExample& m : st.moves) {
        Placement q = st.placement;
        ASSERT_TRUE(exchange_hosts(s.scenario, q, m.a, m.b));
        EXPECT_DOUBLE_EQ(m.label, move_label(before, ev.iteration_time_s(q)));
      }
    }
  }
  EXPECT_GT(states, 0);
  // Deterministic: the same states and labels again.
  const std::vector<MoveSample> again = policy_states(model, samples, o);
  for (std::size_t i = 0; i < added.size(); ++i) {
    ASSERT_EQ(again[i].states.size(), added[i].states.size());
    for (std::size_t k = 0; k < added[i].states.size(); ++k) {
      EXPECT_EQ(again[i].states[k].placement.gpu_of_rank, added[i].states[k].placement.gpu_of_rank);
      ASSERT_EQ(again[i].states[k].moves.size(), added[i].states[k].moves.size());
      for (std::size_t m = 0; m < added[i].states[k].moves.size(); ++m)
        EXPECT_EQ(again[i].states[k].moves[m].label, added[i].states[k].moves[m].label);
    }
  }
  fs::remove_all(dir);
}

TEST(MoveDagger, ARunInTwoStepsWritesTheSameModelAsOneRun) {
  const std::string dir = write_data(12, 43);
  MoveTrainCommand c;
  c.data_dirs = {dir};
  c.epochs = 2;
  c.val_fraction = 0.25;
  c.dagger_rounds = 1;
  c.dagger_epochs = 1;
  c.dagger_walk = 2;
  c.model_out = tmp_path("one.pt");
  const MoveTrainSummary one = train_moves_from_dir(c, nullptr);
  EXPECT_GT(one.train_states, 0);
  // The first epochs alone, then the round from that file's scorer.
  MoveTrainCommand first = c;
  first.dagger_rounds = 0;
  first.model_out = tmp_path("first.pt");
  const MoveTrainSummary before = train_moves_from_dir(first, nullptr);
  EXPECT_GT(one.train_states, before.train_states);  // the walk's states were added
  MoveTrainCommand second = c;
  second.init = first.model_out;
  second.init_scorer = true;
  second.epochs = 0;
  second.model_out = tmp_path("two.pt");
  train_moves_from_dir(second, nullptr);
  EXPECT_EQ(bytes_of(c.model_out), bytes_of(second.model_out));
  // --init-scorer needs a file with a scorer; --epochs 0 needs --init-scorer.
  MoveTrainCommand bad = c;
  bad.epochs = 0;
  EXPECT_THROW(train_moves_from_dir(bad, nullptr), InputError);
  bad.init_scorer = true;
  EXPECT_THROW(train_moves_from_dir(bad, nullptr), InputError);
  fs::remove_all(dir);
  for (const char* f : {"one.pt", "first.pt", "two.pt"}) fs::remove(tmp_path(f));
}

}  // namespace
}  // namespace hulk::gnn
