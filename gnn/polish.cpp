#include "gnn/polish.hpp"

#include "sim/place/placer_common.hpp"

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

namespace hulk::gnn {

namespace {

/** Share of each host's GPUs per role, [hosts][pp + 1] (last = unused). */
std::vector<std::vector<double>> role_shares(const Scenario& scenario, const Placement& p) {
  const int pp = scenario.job.par.pp, per_stage = scenario.job.par.dp * scenario.job.par.tp;
  const auto& hosts = scenario.platform.hosts;
  std::vector<std::vector<double>> share(hosts.size(), std::vector<double>(static_cast<std::size_t>(pp) + 1, 0.0));
  std::vector<int> used(hosts.size(), 0);
  for (std::size_t r = 0; r < p.gpu_of_rank.size(); ++r) {
    const int h = p.gpu_of_rank[r].host;
    share[h][static_cast<std::size_t>(r) / per_stage] += 1.0;
    ++used[h];
  }
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const double gpus = std::max(1, hosts[h].gpus);
    share[h][pp] = std::max(0, hosts[h].gpus - used[h]);
    for (double& v : share[h]) v /= gpus;
  }
  return share;
}

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

/** All ranks of host a onto host b's slots 0.. and the reverse; false if either set does not fit by count. */
bool exchange_hosts(const Scenario& scenario, Placement& p, int a, int b) {
  std::vector<std::size_t> on_a, on_b;
  for (std::size_t r = 0; r < p.gpu_of_rank.size(); ++r) {
    if (p.gpu_of_rank[r].host == a) on_a.push_back(r);
    if (p.gpu_of_rank[r].host == b) on_b.push_back(r);
  }
  if (static_cast<int>(on_a.size()) > scenario.platform.hosts[b].gpus ||
      static_cast<int>(on_b.size()) > scenario.platform.hosts[a].gpus)
    return false;
  for (std::size_t i = 0; i < on_a.size(); ++i) p.gpu_of_rank[on_a[i]] = {b, static_cast<int>(i)};
  for (std::size_t i = 0; i < on_b.size(); ++i) p.gpu_of_rank[on_b[i]] = {a, static_cast<int>(i)};
  return true;
}

}  // namespace

int polish_budget(const Scenario& scenario, int evaluations, int rank_budget) {
  if (evaluations <= 0) return 0;
  if (rank_budget <= 0) return evaluations;
  return std::max(1, std::min(evaluations, rank_budget / std::max(1, scenario.job.par.ranks())));
}

SampledPlacement polish_placement(const Scenario& scenario, const RoleScores& scores, SampledPlacement start,
                                  int evaluations, const PlacementCost& cost, const PlacementBound& bound) {
  SampledPlacement best = std::move(start);
  if (evaluations <= 0 || scores.hosts != static_cast<int>(scenario.platform.hosts.size())) return best;
  std::set<std::vector<int>> seen{hosts_of(best.placement)};
  int spent = 0;
  bool improved = true;
  while (improved && spent < evaluations) {
    improved = false;
    for (const auto& [a, b] : ranked_pairs(scores, role_shares(scenario, best.placement))) {
      if (spent >= evaluations) break;
      Placement p = best.placement;
      if (!exchange_hosts(scenario, p, a, b) || !placement_violation(scenario, p).empty()) continue;
      if (!seen.insert(hosts_of(p)).second) continue;
      ++spent;
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
