#include "gnn/guided_anneal.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "gnn/moves.hpp"

namespace hulk::gnn {

namespace {

/** The softmax weights of the scores at `temperature`, cumulated (the last entry is their sum). */
std::vector<double> cumulative_weights(const std::vector<double>& scores, double temperature) {
  std::vector<double> cum(scores.size());
  if (scores.empty()) return cum;
  const double best = *std::min_element(scores.begin(), scores.end());
  const double t = std::max(temperature, 1e-9);
  double sum = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    // Scores can be NaN only with broken weights: such a move gets no weight, as an infinitely slow one.
    const double w = std::isfinite(scores[i]) ? std::exp(-(scores[i] - best) / t) : 0.0;
    cum[i] = sum += w;
  }
  return cum;
}

/** The index drawn by u in [0, 1) from cumulated weights (the first with cum > u x sum). */
std::size_t drawn(const std::vector<double>& cum, double u) {
  const double x = u * cum.back();
  const auto it = std::upper_bound(cum.begin(), cum.end(), x);
  return std::min<std::size_t>(static_cast<std::size_t>(it - cum.begin()), cum.size() - 1);
}

}  // namespace

SampledPlacement guided_anneal(const Scenario& scenario, SampledPlacement start, const GuidedAnnealOptions& options,
                               const PlacementCost& cost, const PlacementBound& bound, const ScoredExchanges& scorer,
                               GuidedAnnealStats* stats) {
  GuidedAnnealStats own;
  GuidedAnnealStats& st = stats ? *stats : own;
  st = GuidedAnnealStats{};
  SampledPlacement best = std::move(start);
  if (options.evaluations <= 0 || !scorer || !std::isfinite(best.cost)) return best;
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double temp0 = std::max(0.03 * best.cost, 1e-12), temp1 = std::max(1e-5 * best.cost, 1e-15);
  Placement cur = best.placement;
  double cur_t = best.cost;
  const long long max_proposals =
      static_cast<long long>(options.evaluations) * std::max(1, options.proposals_per_evaluation);
  std::vector<std::pair<int, int>> moves;
  std::vector<double> cum;
  std::map<std::size_t, double> known;  // this state's moves already costed (candidate exchanges are all valid)
  bool rescore = true;
  while (st.evaluations < options.evaluations && st.proposals < max_proposals) {
    if (rescore) {
      auto [m, s] = scorer(cur);
      ++st.scorings;
      moves = std::move(m);
      cum = cumulative_weights(s, options.temperature);
      known.clear();
      rescore = false;
      if (moves.empty() || !(cum.back() > 0)) break;  // no exchange changes anything
    }
    ++st.proposals;
    const std::size_t i = drawn(cum, unit(rng));
    const double frac = static_cast<double>(st.evaluations + 1) / options.evaluations;
    const double temp = temp0 * std::pow(temp1 / temp0, frac);
    const double u = unit(rng);  // drawn for every proposal: the same numbers whatever the bound does
    const auto kept_by = [&](double t) { return std::isfinite(t) && (t <= cur_t || u < std::exp(-(t - cur_t) / temp)); };
    Placement p = cur;
    if (!exchange_hosts(scenario, p, moves[i].first, moves[i].second)) continue;
    double t;
    if (const auto hit = known.find(i); hit != known.end()) {
      t = hit->second;
    } else {
      if (bound) {
        const double lower = bound(p) * (1.0 - kBoundRoundingSlack);
        if (lower > cur_t && std::isfinite(lower) && !kept_by(lower)) continue;  // the cost would be rejected too
      }
      t = cost(p);
      ++st.evaluations;
      known[i] = t;
    }
    if (!kept_by(t)) continue;
    ++st.accepted;
    cur = std::move(p);
    cur_t = t;
    rescore = true;
    if (t < best.cost) {
      best.placement = cur;
      best.cost = t;
      ++best.polished;
    }
  }
  return best;
}

}  // namespace hulk::gnn
