#include "sim/place/fastest_candidate.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "sim/evaluate/evaluator.hpp"

namespace hulk {
FastestCandidate fastest_candidate(const Evaluator& ev, const std::vector<std::vector<int>>& candidates) {
  const double inf = std::numeric_limits<double>::infinity();
  const int n = static_cast<int>(candidates.size());
  std::vector<double> bound(n);
  for (int i = 0; i < n; ++i) bound[i] = ev.time_lower_bound_of_hosts(candidates[i]);
  std::vector<int> by_bound(n);
  std::iota(by_bound.begin(), by_bound.end(), 0);
  std::stable_sort(by_bound.begin(), by_bound.end(), [&](int a, int b) { return bound[a] < bound[b]; });
  FastestCandidate best;
  best.time_s = inf;
  for (const int i : by_bound) {
    if (!(bound[i] < inf)) break;  // infeasible, as every later one
    if (best.index >= 0 && bound[i] > best.time_s * (1.0 + kBoundRoundingSlack)) break;  // nor can any later one win
    const double t = ev.time_of_hosts(candidates[i]);
    ++best.evaluated;
    if (t < best.time_s || (t == best.time_s && best.index >= 0 && i < best.index)) {
      best.index = i;
      best.time_s = t;
    }
  }
  if (best.index < 0) best.time_s = inf;
  return best;
}

}  // namespace hulk
