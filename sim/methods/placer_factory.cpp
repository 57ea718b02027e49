#include "sim/methods/placer_factory.hpp"

#include <algorithm>

#include "sim/core/errors.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/place/exhaustive_placer.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {
namespace {

/** round-robin as a Placer (the placement itself is sim/placement.cpp's round_robin_placement). */
class RoundRobinPlacer : public Placer {
 public:
  std::string name() const override { return "round-robin"; }
  Placement place(const Scenario& scenario) override {
    Placement p = round_robin_placement(scenario);
    const std::string problem = placement_problem(scenario, p, scenario.job.check_memory);
    if (!problem.empty()) throw InputError(scenario.file, 0, "placement", "round-robin placement: " + problem);
    return p;
  }
};

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

const std::vector<std::string>& placer_methods() {
  static const std::vector<std::string> names{"round-robin", "random", "greedy", "search", "exhaustive"};
  return names;
}

std::unique_ptr<Placer> make_placer(const std::string& method, const PlacerOptions& options) {
  if (method == "round-robin") return std::make_unique<RoundRobinPlacer>();
  if (method == "random") return std::make_unique<RandomPlacer>();
  if (method == "greedy") return std::make_unique<GreedyPlacer>();
  if (method == "search") {
    SearchOptions o;
    o.max_evaluations = options.search_evaluations;
    o.max_seconds = options.search_seconds;
    o.simgrid_candidates = options.search_simgrid_candidates;
    o.simgrid_time = simulated_iteration_time_s;
    return std::make_unique<SearchPlacer>(o);
  }
  if (method == "exhaustive") {
    ExhaustiveOptions o;
    if (options.exhaustive_simgrid) o.time_oracle = simulated_iteration_time_s;
    o.max_placements = options.exhaustive_cap;
    return std::make_unique<ExhaustivePlacer>(o);
  }
  std::string list, closest;
  size_t best = std::string::npos;
  for (const auto& n : placer_methods()) {
    list += (list.empty() ? "" : ", ") + n;
    const size_t d = edit_distance(method, n);
    if (d < best) {
      best = d;
      closest = n;
    }
  }
  std::string msg = "unknown placement method '" + method + "' (expected one of: " + list + ")";
  if (best <= 3) msg += "; did you mean '" + closest + "'?";
  throw InputError("", 0, "placement", msg);
}

}  // namespace hulk
