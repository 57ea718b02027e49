#include "gnn/polish.hpp"

#include "gnn/moves.hpp"

#include "sim/place/placer_common.hpp"

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

namespace hulk::gnn {

namespace {

/** E(h, k): host h's score under host k's role shares. */
double expected_score(const RoleScores& s, const std::vector<double>& share_k, int h) {
  double e = 0;
  for (int r = 0; r < s.roles; ++r) e += share_k[r] * static_cast<double>(s.at(h, r));
  return e;
}

/** Host pairs whose role shares differ, by the scores' estimated gain of exchanging them, best first. */
std::vector<std::pair<int, int>> ranked_pairs(const RoleScores& s, const std::vector<std::vector<double>>& share) {
  std::vector<std::tuple<double, int, int>> ranked;
  const int n = static_cast<int>(share.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (share[a] == share[b]) continue;
      const double gain = expected_score(s, share[b], a) + expected_score(s, share[a], b) -
                          expected_score(s, share[a], a) - expected_score(s, share[b], b);
      ranked.emplace_back(-gain, a, b);  // ascending: largest gain first, then (a, b)
    }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::pair<int, int>> out;
  out.reserve(ranked.size());
  for (const auto& [g, a, b] : ranked) out.emplace_back(a, b);
  return out;
}

}  // namespace

int polish_budget(const Scenario& scenario, int evaluations, int rank_budget) {
  if (evaluations <= 0) return 0;
  if (rank_budget <= 0) return evaluations;
  return std::max(1, std::min(evaluations, rank_budget / std::max(1, scenario.only_job().par.ranks())));
}

SampledPlacement polish_placement(const Scenario& scenario, const RoleScores& scores, SampledPlacement start,
                                  int evaluations, const PlacementCost& cost, const PlacementBound& bound,
                                  const PairRanker& ranker, int top_k) {
  SampledPlacement best = std::move(start);
  if (evaluations <= 0 || scores.hosts != static_cast<int>(scenario.platform.hosts.size())) return best;
  std::set<std::vector<int>> seen{hosts_of(best.placement)};
  int spent = 0;
  bool improved = true;
  while (improved && spent < evaluations) {
    improved = false;
    const std::vector<std::pair<int, int>> pairs =
        ranker ? ranker(best.placement) : ranked_pairs(scores, role_shares(scenario, best.placement));
    int tried = 0;  // this step's exchanges tried (top_k)
    for (const auto& [a, b] : pairs) {
      if (spent >= evaluations || (top_k > 0 && tried >= top_k)) break;
      Placement p = best.placement;
      if (!exchange_hosts(scenario, p, a, b) || !placement_violation(scenario, p).empty()) continue;
      if (!seen.insert(hosts_of(p)).second) continue;
      ++spent;
      ++tried;
      if (bound && cannot_beat(bound(p), best.cost)) continue;
      const double c = cost(p);
      if (c < best.cost) {
        best.placement = std::move(p);
        best.cost = c;
        ++best.polished;
        improved = true;
        break;
      }
    }
  }
  best.polish_evaluations = spent;
  return best;
}

}  // namespace hulk::gnn
