#include "gnn/sampled_decode.hpp"

#include "gnn/dataset.hpp"
#include "sim/place/placer_common.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

namespace hulk::gnn {

namespace {

/** Uniform double in (0, 1) from 53 random bits (std distributions are implementation-defined). */
double open_unit(std::mt19937_64& rng) { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; }

}  // namespace

RoleScores perturb_scores(const RoleScores& scores, double temperature, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  RoleScores out = scores;
  for (float& v : out.values) v += static_cast<float>(temperature * -std::log(-std::log(open_unit(rng))));
  return out;
}

SampledPlacement decode_best_of_samples(const Scenario& scenario, const RoleScores& scores,
                                        const SamplingOptions& options, const PlacementCost& cost,
                                        const PlacementBound& bound) {
  static constexpr double kTemperatureScale[] = {0.25, 0.5, 1.0, 2.0};
  SampledPlacement best;
  best.placement = decode_placement(scenario, scores);  // throws if no valid placement exists
  best.cost = cost(best.placement);
  // Only the host of each rank matters to the cost (GPUs of a host are identical): dedupe on that.
  std::set<std::vector<int>> seen{hosts_of(best.placement)};
  int candidates = options.candidates;
  if (options.rank_budget > 0)
    candidates = std::min(candidates, std::max(1, options.rank_budget / std::max(1, scenario.only_job().par.ranks())));
  for (int c = 1; c < candidates; ++c) {
    const double t = options.temperature * kTemperatureScale[(c - 1) % 4];
    Placement p = decode_placement(scenario, perturb_scores(scores, t, sample_seed(options.seed, static_cast<std::uint64_t>(c))));
    if (!seen.insert(hosts_of(p)).second) continue;
    if (bound && cannot_beat(bound(p), best.cost)) continue;
    const double v = cost(p);
    if (v < best.cost) {
      best.placement = std::move(p);
      best.cost = v;
      best.chosen = c;
    }
  }
  best.distinct = static_cast<int>(seen.size());
  return best;
}

}  // namespace hulk::gnn
