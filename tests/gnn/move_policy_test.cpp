// `hulk gnn move-policy` (gnn/move_policy_command.hpp): model-only's walk measured on a move data set's held-out
// clusters, by stopping margin and walk length.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include <unistd.h>

#include "gnn/dataset.hpp"
#include "gnn/model_file.hpp"
#include "gnn/move_data.hpp"
#include "gnn/move_model.hpp"
#include "gnn/move_policy_command.hpp"
#include "sim/core/errors.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;

std::string tmp_path(const std::string& name) {
  return (fs::temp_directory_path() / ("hulk_move_policy_" + name + "_" + std::to_string(::getpid()))).string();
}

/** A small move data set (greedy's states only) and a model file with fresh weights. */
MovePolicyCommand small_setup(bool with_scorer) {
  const std::string dir = tmp_path("data");
  fs::remove_all(dir);
  Manifest m;
  m.count = 6;
  m.seed = 17;
  m.generator = "test";
  write_manifest(dir, m);
  MoveDataOptions o;
  o.states = 1;
  o.moves_per_state = 4;
  for (int i = 0; i < m.count; ++i) write_move_sample(dir, make_move_sample(i, m.seed, o));
  torch::manual_seed(3);
  PlacementGnn gnn{ModelConfig{}};
  MovePolicyCommand c;
  c.data_dirs = {dir};
  c.model = tmp_path(with_scorer ? "with.pt" : "without.pt");
  if (with_scorer)
    save_model(gnn, c.model, MoveScorer{MoveModelConfig{}});
  else
    save_model(gnn, c.model);
  c.val_fraction = 1.0;  // every cluster held out
  c.max_moves = 4;
  c.margins = {-1.0, 100.0};
  return c;
}

TEST(MovePolicy, ReportsEachMarginAndLengthAndAHugeMarginStaysOnGreedy) {
  const MovePolicyCommand c = small_setup(true);
  const MovePolicyReport r = report_move_policy(c, nullptr);
  EXPECT_EQ(r.clusters, 6);
  ASSERT_EQ(r.rows.size(), 6u);  // 2 margins x lengths 1, 2, 4
  for (int k = 0; k < 3; ++k) {
    const MovePolicyRow& always = r.rows[static_cast<std::size_t>(k)];
    const MovePolicyRow& never = r.rows[static_cast<std::size_t>(3 + k)];
    EXPECT_EQ(always.max_moves, 1 << k);
    EXPECT_EQ(never.max_moves, 1 << k);
    // No score is 100 (relative time) below its state's median: the walk never leaves greedy's placement.
    EXPECT_EQ(never.geomean_vs_greedy, 1.0);
    EXPECT_EQ(never.worst_vs_greedy, 1.0);
    EXPECT_EQ(never.mean_moves, 0.0);
    EXPECT_EQ(never.improved_share, 0.0);
    // Margin -1 takes a move whenever there is an unvisited one: at least one per cluster with candidates.
    EXPECT_GT(always.mean_moves, 0.0);
    EXPECT_LE(always.mean_moves, 1 << k);
    EXPECT_LE(always.worst_vs_greedy, always.geomean_vs_greedy);
    if (k > 0) EXPECT_GE(always.mean_moves, r.rows[static_cast<std::size_t>(k - 1)].mean_moves);
  }
  // The one-move oracle never loses to greedy and gains exactly where a labelled move is faster.
  EXPECT_GE(r.greedy_improvable, 0.0);
  EXPECT_LE(r.greedy_improvable, 1.0);
  EXPECT_GE(r.greedy_one_move_oracle, 1.0);
  EXPECT_EQ(r.greedy_one_move_oracle > 1.0, r.greedy_improvable > 0.0);
  // A bound no prediction is below (a change of -100%) keeps every margin's walk on greedy's placement.
  MovePolicyCommand bounded = c;
  bounded.max_scores = {std::numeric_limits<double>::infinity(), -1.0};
  const MovePolicyReport b = report_move_policy(bounded, nullptr);
  ASSERT_EQ(b.rows.size(), 12u);  // 2 margins x 2 bounds x 3 lengths
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(b.rows[i].geomean_vs_greedy, r.rows[i].geomean_vs_greedy);  // margin -1, no bound: as before
    EXPECT_EQ(b.rows[3 + i].max_score, -1.0);
    EXPECT_EQ(b.rows[3 + i].mean_moves, 0.0);
    EXPECT_EQ(b.rows[3 + i].geomean_vs_greedy, 1.0);
  }
  // Deterministic.
  const MovePolicyReport again = report_move_policy(c, nullptr);
  for (std::size_t i = 0; i < r.rows.size(); ++i)
    EXPECT_EQ(again.rows[i].geomean_vs_greedy, r.rows[i].geomean_vs_greedy);
  EXPECT_EQ(again.greedy_top_actual, r.greedy_top_actual);
  fs::remove_all(c.data_dirs.front());
  fs::remove(c.model);
}

TEST(MovePolicy, RefusesAModelWithoutScorerAndASplitWithoutHeldOutClusters) {
  MovePolicyCommand c = small_setup(false);
  EXPECT_THROW(report_move_policy(c, nullptr), InputError);
  fs::remove(c.model);
  c = small_setup(true);
  c.val_fraction = 0.0;
  EXPECT_THROW(report_move_policy(c, nullptr), InputError);
  fs::remove_all(c.data_dirs.front());
  fs::remove(c.model);
}

}  // namespace
}  // namespace hulk::gnn
