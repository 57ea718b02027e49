// `hulk gnn move-policy`: model-only's walk on a move data set's held-out clusters (gnn/move_policy_command.hpp).
#include <algorithm>
#include <cmath>
#include <ostream>

#include "gnn/model_file.hpp"
#include "gnn/move_data.hpp"
#include "gnn/move_model.hpp"
#include "gnn/move_policy_command.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk::gnn {

namespace {

/** Walk lengths measured: 1, 2, 4, ... up to max_moves, and max_moves itself. */
std::vector<int> walk_lengths(int max_moves) {
  std::vector<int> out;
  for (int k = 1; k < max_moves; k *= 2) out.push_back(k);
  out.push_back(max_moves);
  return out;
}

/** Sums of one rule over the clusters. */
struct RowSums {
  double log_ratio = 0, worst = INFINITY, improved = 0, moves = 0;
};

/** t_greedy / t of a placement (0 if the evaluator finds it infeasible). */
double speedup(const Evaluator& ev, double greedy_s, const Placement& p) {
  const double t = ev.iteration_time_s(p);
  return std::isfinite(t) && t > 0 ? greedy_s / t : 0.0;
}

/** Greedy's state: the predicted change of its top-ranked move, the median prediction, the top move's real change. */
void greedy_state(MoveScorer& scorer, const Scenario& s, const Evaluator& ev, const Placement& greedy,
                  double greedy_s, MovePolicyReport& r) {
  const std::vector<std::pair<int, int>> moves = candidate_exchanges(s, greedy);
  if (moves.empty()) return;
  std::vector<double> score = predict_moves(scorer, s, ev.network(), greedy, moves);
  const auto top = std::min_element(score.begin(), score.end()) - score.begin();
  Placement next = greedy;
  exchange_hosts(s, next, moves[static_cast<std::size_t>(top)].first, moves[static_cast<std::size_t>(top)].second);
  r.greedy_top_predicted += score[static_cast<std::size_t>(top)];
  r.greedy_top_actual += move_label(greedy_s, ev.iteration_time_s(next));
  const auto mid = score.begin() + static_cast<std::ptrdiff_t>(score.size() / 2);
  std::nth_element(score.begin(), mid, score.end());
  r.greedy_median_predicted += *mid;
}

/** A rule's bound on this cluster: NaN = the model file's stop bound for its size, the one model-only uses. */
double bound_for(const MoveScorerImpl& scorer, const Scenario& s, double max_score) {
  return std::isnan(max_score) ? scorer.stop_bound(s.platform.total_gpus()) : max_score;
}

}  // namespace

MovePolicyReport report_move_policy(const MovePolicyCommand& c, std::ostream* progress) {
  if (c.max_moves < 1 || c.margins.empty() || c.max_scores.empty())
    throw InputError("", 0, "--max-moves", "expected at least one move, one margin and one max score");
  MoveScorer scorer = load_move_scorer(c.model);
  if (!scorer) throw InputError(c.model, 0, "moves", "the model file has no move scorer (hulk gnn train-moves)");

  const std::vector<MoveSample> samples = load_move_datasets(c.data_dirs, c.allow_partial);
  const std::vector<int> lengths = walk_lengths(c.max_moves);
  const std::size_t rules = c.margins.size() * c.max_scores.size();
  std::vector<RowSums> sums(rules * lengths.size());
  MovePolicyReport r;
  for (const MoveSample& sample : samples) {
    if (!held_out_move_sample(c.seed, sample.index, c.val_fraction)) continue;
    const Evaluator ev(sample.scenario);
    const Placement greedy = GreedyPlacer::place_with(sample.scenario, ev);
    const double greedy_s = ev.iteration_time_s(greedy);
    greedy_state(scorer, sample.scenario, ev, greedy, greedy_s, r);
    if (!sample.states.empty()) {
      double best = 0;
      for (const MoveExample& m : sample.states.front().moves) best = std::min(best, m.label);
      r.greedy_improvable += best < 0;
      r.greedy_one_move_oracle += -std::log1p(best);
    }
    for (std::size_t m = 0; m < rules; ++m) {
      std::vector<Placement> steps;
      follow_learned_moves(scorer, sample.scenario, ev.network(), greedy, c.max_moves,
                           c.margins[m / c.max_scores.size()], &steps,
                           bound_for(*scorer, sample.scenario, c.max_scores[m % c.max_scores.size()]));
      for (std::size_t k = 0; k < lengths.size(); ++k) {
        const int taken = std::min<int>(lengths[k], static_cast<int>(steps.size()));
        const double x = taken == 0 ? 1.0 : speedup(ev, greedy_s, steps[static_cast<std::size_t>(taken - 1)]);
        RowSums& row = sums[m * lengths.size() + k];
        row.log_ratio += std::log(std::max(x, 1e-9));
        row.worst = std::min(row.worst, x);
        row.improved += x > 1.0 + 1e-9;
        row.moves += taken;
      }
    }
    ++r.clusters;
    if (progress && r.clusters % 20 == 0) *progress << "move-policy: " << r.clusters << " held-out clusters\n";
  }
  if (r.clusters == 0) throw InputError(c.data_dirs.front(), 0, "", "no held-out cluster for this seed and share");
  const double n = r.clusters;
  r.greedy_top_predicted /= n;
  r.greedy_median_predicted /= n;
  r.greedy_top_actual /= n;
  r.greedy_improvable /= n;
  r.greedy_one_move_oracle = std::exp(r.greedy_one_move_oracle / n);
  for (std::size_t m = 0; m < rules; ++m)
    for (std::size_t k = 0; k < lengths.size(); ++k) {
      const RowSums& s = sums[m * lengths.size() + k];
      r.rows.push_back({c.margins[m / c.max_scores.size()], c.max_scores[m % c.max_scores.size()], lengths[k],
                        std::exp(s.log_ratio / n), s.worst, s.improved / n, s.moves / n});
    }
  return r;
}

}  // namespace hulk::gnn
