// The model-only walk's stopping bounds (gnn/move_calibrate.hpp): the grid's choice on known walks, the walks of a
// scorer, and the bounds' records in the model file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include <unistd.h>

#include "gnn/model_file.hpp"
#include "gnn/move_calibrate.hpp"
#include "gnn/move_model.hpp"
#include "sim/core/errors.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;

CalibrationOptions grid(double lo, double hi) {
  CalibrationOptions o;
  o.grid_min = lo;
  o.grid_max = hi;
  o.grid_step = 0.01;
  return o;
}

TEST(MoveCalibrate, KeepsEachGroupsFastestSafeBound) {
  // Small group: A gains 1.1x after its first move (predicted -0.5%) and 1.3x after its second (+1.5%); B's only
  // move (+2.5%) costs half the speed. Bounds 0.00 and 0.01 take A's first move, 0.02 both, 0.03 B's too.
  // Large group: C's one move (+3.5%) gains 1.2x from bound 0.04 on.
  const std::vector<CalibrationWalk> walks{{false, {-0.005, 0.015}, {1.1, 1.3}},
                                           {false, {0.025}, {0.5}},
                                           {true, {0.035}, {1.2}}};
  const StopCalibration fit = choose_stop_bound(walks, grid(-0.02, 0.05));
  ASSERT_EQ(fit.rows.size(), 8u);
  EXPECT_EQ(fit.clusters_small, 2);
  EXPECT_EQ(fit.clusters_large, 1);
  EXPECT_NEAR(fit.bound_small, 0.02, 1e-12);  // 0.03 would reach 0.5x, below min_worst 0.9
  EXPECT_NEAR(fit.bound_large, 0.04, 1e-12);  // the smallest of the bounds with C's 1.2x
  EXPECT_NEAR(fit.rows[2].geomean_small, std::sqrt(1.1), 1e-12);  // bound 0.00
  EXPECT_NEAR(fit.rows[4].geomean_small, std::sqrt(1.3), 1e-12);  // bound 0.02
  EXPECT_NEAR(fit.rows[5].worst_small, 0.5, 1e-12);
  EXPECT_NEAR(fit.rows[4].mean_moves, 2.0 / 3.0, 1e-12);
  EXPECT_NEAR(fit.rows[7].geomean_large, 1.2, 1e-12);
}

TEST(MoveCalibrate, AGroupWithoutClustersTakesTheOthersAndNoSafeBoundKeepsTheSmallest) {
  const StopCalibration small_only = choose_stop_bound({{false, {0.015}, {1.4}}}, grid(0.0, 0.05));
  EXPECT_NEAR(small_only.bound_small, 0.02, 1e-12);
  EXPECT_EQ(small_only.bound_large, small_only.bound_small);
  // A move predicted below the whole grid that loses: every bound takes it, none is safe.
  const StopCalibration unsafe = choose_stop_bound({{true, {-0.3}, {0.4}}}, grid(-0.05, 0.05));
  EXPECT_NEAR(unsafe.bound_large, -0.05, 1e-12);
  EXPECT_EQ(unsafe.bound_small, unsafe.bound_large);
}

TEST(MoveCalibrate, BoundsAreStoredInTheModelFileAndOlderFilesHaveTheNeutralOne) {
  torch::manual_seed(7);
  PlacementGnn gnn{ModelConfig{}};
  MoveScorer moves{MoveModelConfig{}};
  EXPECT_EQ(moves->stop_bound(8), 0.0);
  EXPECT_THROW(moves->set_stop_bounds(std::nan(""), 0.0), std::invalid_argument);
  EXPECT_THROW(moves->set_stop_bounds(0.0, 0.6), std::invalid_argument);
  moves->set_stop_bounds(0.01, 0.04);
  EXPECT_EQ(moves->stop_bound(MoveScorerImpl::kStopBoundGpus), 0.01);
  EXPECT_EQ(moves->stop_bound(MoveScorerImpl::kStopBoundGpus + 1), 0.04);
  const std::string path =
      (fs::temp_directory_path() / ("hulk_move_calibrate_" + std::to_string(::getpid()) + ".pt")).string();
  save_model(gnn, path, moves);
  MoveScorer loaded = load_move_scorer(path);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->stop_bound(16), 0.01);
  EXPECT_EQ(loaded->stop_bound(256), 0.04);
  save_model(gnn, path, MoveScorer{MoveModelConfig{}});
  EXPECT_EQ(load_move_scorer(path)->stop_bound(256), 0.0);
  fs::remove(path);
}

}  // namespace
}  // namespace hulk::gnn
