#pragma once
/** @file move_calibrate.hpp
 *  @brief The model-only walk's stopping bound (MoveScorerImpl::stop_bound), fitted on the training split's
 *  validation clusters and stored in the model file, so `model-only` uses it with no evaluator call.
 *
 *  Why: the scorer ranks a state's moves better than it predicts their size; its predictions are biased slow (from
 *  greedy's placement the move it ranks first is predicted a few % slower where it evaluates faster on average), so
 *  the neutral bound 0 stops the walk at greedy's placement on most clusters. How: on each held-out cluster of
 *  train-moves' split (held_out_move_sample: clusters never trained on) the walk runs once from greedy's placement
 *  with no bound, recording each move's predicted change; the walk with bound t is the prefix of moves predicted
 *  below t (follow_learned_moves takes the best-scored move first), so one walk and one evaluation per step measure
 *  every bound of the grid. One bound per size group (at most MoveScorerImpl::kStopBoundGpus GPUs, more): the bound
 *  kept maximises the group's geometric mean of t_greedy / t_walk among the bounds whose worst cluster of the group
 *  keeps min_worst of greedy's speed (the smallest such bound on ties; the smallest grid bound if none does); a
 *  group without validation clusters takes the other's bound. Why per group: the scorer's bias differs with the
 *  cluster's size (on larger clusters its predictions are further from the evaluated changes), and one bound fitted
 *  on a mix of mostly small clusters leaves the walk at greedy's placement on the larger ones. */
#include <cstdint>
#include <iosfwd>
#include <vector>

#include "gnn/move_data.hpp"
#include "gnn/move_model.hpp"

namespace hulk::gnn {

/** @brief One validation cluster's unbounded walk: each move's predicted change and t_greedy / t after it. */
struct CalibrationWalk {
  bool large = false;             ///< more than MoveScorerImpl::kStopBoundGpus GPUs
  std::vector<double> scores;     ///< predicted change of the k-th move taken
  std::vector<double> speedups;   ///< t_greedy / t after the k-th move (evaluator's; 0 if infeasible)
};

/** @brief One grid bound's result on the walks. */
struct CalibrationRow {
  double bound = 0;
  double geomean_small = 1, geomean_large = 1;  ///< per size group (1 for an empty group)
  double worst_small = 1, worst_large = 1;
  double mean_moves = 0;                        ///< moves taken, mean over all walks
};

/** @brief The fitted bounds and the grid's rows. */
struct StopCalibration {
  double bound_small = 0, bound_large = 0;  ///< per size group (MoveScorerImpl::stop_bound)
  int clusters_small = 0, clusters_large = 0;
  std::vector<CalibrationRow> rows;
};

/** @brief Options of the fit. */
struct CalibrationOptions {
  std::uint64_t seed = 1;     ///< train-moves' seed: selects the held-out clusters
  double val_fraction = 0.1;  ///< train-moves' held-out share
  int max_moves = 16;         ///< the walk's length (SamplingOptions::learned_moves)
  double margin = 0.0;        ///< the walk's margin (SamplingOptions::learned_move_margin)
  double min_worst = 0.90;    ///< the group's worst t_greedy / t_walk a kept bound must reach
  double grid_min = -0.05, grid_max = 0.25, grid_step = 0.005;  ///< bounds compared
};

/** @brief The unbounded walks of the held-out samples (the evaluator measures each step; the walk calls none). */
std::vector<CalibrationWalk> calibration_walks(MoveScorer& model, const std::vector<MoveSample>& samples,
                                               const CalibrationOptions& options, std::ostream* progress);

/** @brief The grid's rows on `walks` and the bounds kept (see the file comment). Pure: no model, no evaluator. */
StopCalibration choose_stop_bound(const std::vector<CalibrationWalk>& walks, const CalibrationOptions& options);

}  // namespace hulk::gnn
