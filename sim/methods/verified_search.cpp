#include "sim/methods/verified_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/dp_clusters.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/place/stage_order.hpp"

namespace hulk {
namespace {

/** The fastest by the evaluator of the DP-cluster placements (dp_clusters.hpp), each with its stages reordered as
 *  the search reorders its answers; nothing when there is none or it is not faster than reference_s. */
std::optional<Placement> faster_dp_cluster(const Scenario& scenario, const Evaluator& ev, double reference_s) {
  const auto time_s = [&ev](const Placement& p) { return ev.iteration_time_s(p); };
  std::optional<Placement> best;
  double best_s = reference_s;
  for (const Placement& cluster : dp_cluster_placements(ev)) {
    TimedPlacement ordered =
        fastest_stage_order(scenario, cluster, time_s(cluster), kSearchStageOrders, time_s, &ev.network());
    if (ordered.time_s < best_s) {
      best_s = ordered.time_s;
      best = std::move(ordered.placement);
    }
  }
  return best;
}

}  // namespace

Placement VerifiedSearchPlacer::place(const Scenario& scenario) {
  candidates_.clear();
  std::vector<std::pair<std::string, Placement>> pool;
  auto add = [&pool](const std::string& origin, const Placement& p) {
    for (const auto& [o, q] : pool)
      if (q.gpu_of_rank == p.gpu_of_rank) return;  // identical placements are simulated once
    pool.emplace_back(origin, p);
  };
  // One job: one route model for greedy and every restart (several jobs: the joint search builds its own).
  std::shared_ptr<const RouteModel> network;
  if (!has_several_jobs(scenario)) network = std::make_shared<const RouteModel>(scenario.platform);
  try {
    add("greedy", network ? GreedyPlacer::place_with(scenario, Evaluator(scenario, network))
                          : GreedyPlacer().place(scenario));
  } catch (const InputError&) {
  }
  const Placement rr = round_robin_placement(scenario);
  if (placement_problem(scenario, rr, checks_memory(scenario)).empty()) add("round-robin", rr);
  const int restarts = std::max(1, options_.restarts);
  for (int k = 0; k < restarts; ++k) {
    SearchOptions so;
    so.max_evaluations = std::max<long long>(1, options_.total_evaluations / restarts);
    so.seed = component_seed(scenario.seed, "search#" + std::to_string(k));
    so.network = network;
    add("anneal#" + std::to_string(k), SearchPlacer(so).place(scenario));  // throws if nothing fits
  }
  // One more run, from a DP-cluster placement when the evaluator finds one faster than greedy's: the restarts all
  // start from greedy (or round-robin), and where the gradient all-reduce dominates they rarely leave its grouping
  // of each stage's replicas (found where the gnn method, starting from those clusters, beat the search 3x).
  if (network && !scenario.job.sync.diloco()) {
    const Evaluator ev(scenario, network);
    const bool has_greedy = !pool.empty() && pool[0].first == "greedy";
    const double greedy_s = has_greedy ? ev.iteration_time_s(pool[0].second) : INFINITY;
    if (const std::optional<Placement> cluster = faster_dp_cluster(scenario, ev, greedy_s)) {
      SearchOptions so;
      so.max_evaluations = std::max<long long>(1, options_.total_evaluations / restarts);
      so.seed = component_seed(scenario.seed, "search#dp-cluster");
      so.network = network;
      so.start = *cluster;
      add("anneal-dp-cluster", SearchPlacer(so).place(scenario));
    }
  }
  const JobsEvaluator ev(scenario, network);  // one job: exactly its Evaluator; several: the objective
  double best = std::numeric_limits<double>::infinity();
  size_t best_i = 0;
  for (size_t i = 0; i < pool.size(); ++i) {
    VerifiedCandidate c{pool[i].first, ev.objective_s(pool[i].second), 0};
    c.simgrid_s = simulated_iteration_time_s(scenario, pool[i].second);
    if (c.simgrid_s < best) best = c.simgrid_s, best_i = i;
    candidates_.push_back(c);
  }
  return pool[best_i].second;
}

}  // namespace hulk
