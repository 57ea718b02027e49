#include "gnn/move_calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>

#include "gnn/move_policy_command.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk::gnn {

std::vector<CalibrationWalk> calibration_walks(MoveScorer& model, const std::vector<MoveSample>& samples,
                                               const CalibrationOptions& o, std::ostream* progress) {
  std::vector<CalibrationWalk> out;
  for (const MoveSample& sample : samples) {
    if (!held_out_move_sample(o.seed, sample.index, o.val_fraction)) continue;
    const Evaluator ev(sample.scenario);
    const Placement greedy = GreedyPlacer::place_with(sample.scenario, ev);
    const double greedy_s = ev.iteration_time_s(greedy);
    CalibrationWalk walk;
    walk.large = sample.scenario.platform.total_gpus() > MoveScorerImpl::kStopBoundGpus;
    std::vector<Placement> steps;
    follow_learned_moves(model, sample.scenario, ev.network(), greedy, o.max_moves, o.margin, &steps,
                         std::numeric_limits<double>::infinity(), &walk.scores);
    for (const Placement& p : steps) {
      const double t = ev.iteration_time_s(p);
      walk.speedups.push_back(std::isfinite(t) && t > 0 ? greedy_s / t : 0.0);
    }
    out.push_back(std::move(walk));
    if (progress && out.size() % 20 == 0) *progress << "calibration: " << out.size() << " held-out clusters\n";
  }
  return out;
}

namespace {

/** One bound's row: each walk stops before its first move predicted at or above the bound. */
CalibrationRow bound_row(const std::vector<CalibrationWalk>& walks, double bound) {
  CalibrationRow row;
  row.bound = bound;
  double log_sum[2] = {0, 0}, worst[2] = {1e300, 1e300}, moves = 0;
  int count[2] = {0, 0};
  for (const CalibrationWalk& w : walks) {
    std::size_t taken = 0;
    while (taken < w.scores.size() && w.scores[taken] < bound) ++taken;
    const double x = taken == 0 ? 1.0 : w.speedups[taken - 1];
    const int g = w.large ? 1 : 0;
    log_sum[g] += std::log(std::max(x, 1e-9));
    worst[g] = std::min(worst[g], x);
    ++count[g];
    moves += static_cast<double>(taken);
  }
  row.geomean_small = count[0] ? std::exp(log_sum[0] / count[0]) : 1.0;
  row.geomean_large = count[1] ? std::exp(log_sum[1] / count[1]) : 1.0;
  row.worst_small = count[0] ? worst[0] : 1.0;
  row.worst_large = count[1] ? worst[1] : 1.0;
  row.mean_moves = walks.empty() ? 0.0 : moves / static_cast<double>(walks.size());
  return row;
}

}  // namespace

StopCalibration choose_stop_bound(const std::vector<CalibrationWalk>& walks, const CalibrationOptions& o) {
  StopCalibration out;
  for (const CalibrationWalk& w : walks) ++(w.large ? out.clusters_large : out.clusters_small);
  const int n = static_cast<int>(std::floor((o.grid_max - o.grid_min) / o.grid_step + 1e-9)) + 1;
  double best[2] = {-1.0, -1.0};  // the kept bounds' geomeans; -1: none kept yet
  double bound[2] = {o.grid_min, o.grid_min};
  for (int i = 0; i < n; ++i) {
    // From the index, not by accumulation: the same grid values on any machine.
    const CalibrationRow row = bound_row(walks, o.grid_min + i * o.grid_step);
    out.rows.push_back(row);
    const double geomean[2] = {row.geomean_small, row.geomean_large};
    const double worst[2] = {row.worst_small, row.worst_large};
    for (int g = 0; g < 2; ++g)
      if (worst[g] >= o.min_worst && geomean[g] > best[g] + 1e-12) {  // ties: the smaller bound, fewer moves
        best[g] = geomean[g];
        bound[g] = row.bound;
      }
  }
  out.bound_small = out.clusters_small > 0 || out.clusters_large == 0 ? bound[0] : bound[1];
  out.bound_large = out.clusters_large > 0 ? bound[1] : out.bound_small;
  return out;
}

}  // namespace hulk::gnn
