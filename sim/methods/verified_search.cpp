#include "sim/methods/verified_search.hpp"

#include <iostream>
#include <algorithm>
#include <cmath>
#include <limits>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/place/alternative_starts.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/methods/known_simulations.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {

namespace {

/** The SimGrid time options.known_simgrid gives `placement`, or NaN. */
double known_time_s(const VerifiedSearchOptions& options, const Placement& placement) {
  double t = NAN;
  for (const auto& [known, known_s] : options.known_simgrid)
    if (known.gpu_of_rank == placement.gpu_of_rank) t = known_s;
  return t;
}

/** Every placement of the pool timed by SimGrid (options.known_simgrid, a result in `results` run before, or a run
 *  now) and judged by the objective, in pool order, each recorded in `out`. The SimGrid runs are independent
 *  children, run side by side on the cores (parallel_tasks.hpp): each writes its own slot and the choice is made
 *  afterwards in pool order, so the answer does not depend on the threads. @return the index of the first with the
 *  least objective. */
size_t judge_pool(const Scenario& scenario, const std::vector<std::pair<std::string, Placement>>& pool,
                  const std::shared_ptr<const RouteModel>& network, const VerifiedSearchOptions& options,
                  std::vector<nlohmann::json> results, std::vector<VerifiedCandidate>& out) {
  const JobsEvaluator ev(scenario, network);  // one job: exactly its Evaluator; several: the objective
  // A DiLoCo job's estimate is its step time (what the annealing minimised), not the every-step iteration time.
  std::unique_ptr<SyncEvaluator> sync;
  if (runs_diloco(scenario)) sync = std::make_unique<SyncEvaluator>(scenario);
  results.resize(pool.size());
  std::vector<std::function<void()>> runs;
  for (size_t i = 0; i < pool.size(); ++i)
    if (std::isnan(known_time_s(options, pool[i].second)) && results[i].is_null())
      runs.push_back([&, i]() { results[i] = quiet_simulation(scenario, pool[i].second, nullptr); });
  run_tasks(runs);
  double best = std::numeric_limits<double>::infinity();
  size_t best_i = 0;
  for (size_t i = 0; i < pool.size(); ++i) {
    const double estimate_s = sync ? sync->step_time_s(pool[i].second) : ev.objective_s(pool[i].second);
    VerifiedCandidate c{pool[i].first, estimate_s, 0};
    c.simgrid_result = results[i];
    c.simgrid_s = c.simgrid_result.is_null() ? known_time_s(options, pool[i].second)
                                             : c.simgrid_result.at("objective_s").get<double>();
    c.objective = options.objective_of ? options.objective_of(hosts_of(pool[i].second), c.simgrid_s) : c.simgrid_s;
    if (c.objective < best) best = c.objective, best_i = i;
    out.push_back(c);
  }
  return best_i;
}

}  // namespace

Placement VerifiedSearchPlacer::place(const Scenario& scenario) {
  candidates_.clear();
  placements_.clear();
  std::vector<std::pair<std::string, Placement>> pool;
  auto add = [&pool](const std::string& origin, const Placement& p) {
    for (const auto& [o, q] : pool)
      if (q.gpu_of_rank == p.gpu_of_rank) return;  // identical placements are simulated once
    pool.emplace_back(origin, p);
  };
  // One route model for greedy and every restart.
  const std::shared_ptr<const RouteModel> network = analytic_route_model(scenario);
  try {
    add("greedy", GreedyPlacer::place_with(scenario, JobsEvaluator(scenario, network)));
  } catch (const InputError&) {
  }
  if (options_.start) add("start", *options_.start);
  const Placement rr = round_robin_placement(scenario);
  if (placement_problem(scenario, rr, checks_memory(scenario)).empty()) add("round-robin", rr);
  // The restarts and the alternative start's run are independent annealing runs, one per core (parallel_tasks.hpp);
  // their answers join the pool in the order below whatever the threads. The SimGrid checks of the placements known
  // before them (greedy, the start, round-robin) run as tasks of the same pool, each in a child of its own that runs
  // the engine only (no lock an annealing thread may hold is taken there); the others' checks come after.
  const int restarts = std::max(1, options_.restarts);
  std::vector<Placement> annealed(restarts + 1);
  std::string alternative_origin;
  std::vector<std::function<void()>> runs;
  for (int k = 0; k < restarts; ++k)
    runs.push_back([&, k]() {
      SearchOptions so;
      so.max_evaluations = std::max<long long>(1, options_.total_evaluations / restarts);
      so.seed = component_seed(scenario.seed, "search#" + std::to_string(k));
      so.network = network;
      so.objective_of = options_.objective_of;
      so.start = options_.start;
      if (k == 0) {  // one restart speaks for all: they run side by side with equal budgets
        so.progress = &std::cerr;
        so.progress_label = "search (restart 1 of " + std::to_string(restarts) + ")";
      }
      annealed[k] = SearchPlacer(so).place(scenario);  // throws if nothing fits
    });
  // One more run, from an alternative start when the evaluator finds one faster than greedy's: the restarts all
  // start from greedy (or round-robin), and where the gradient all-reduce dominates they rarely leave its grouping
  // of each stage's replicas (found where the gnn method, starting from DP clusters, beat the search 3x), nor its
  // choice of hosts when leaving slow GPUs out pays only once every stage is off them.
  // Alternative starts are placements of one job (alternative_starts.hpp); several jobs start from greedy's job
  // orders (jobs_search.hpp).
  if (job_count(scenario) == 1 && !runs_diloco(scenario) && !options_.start) {
    const bool has_greedy = !pool.empty() && pool[0].first == "greedy";
    runs.push_back([&, has_greedy]() {
      const Evaluator one_job(scenario, network);
      const double greedy_s = has_greedy ? one_job.iteration_time_s(pool[0].second) : INFINITY;
      if (const AlternativeStart other = fastest_alternative_start(one_job, kSearchStageOrders, greedy_s);
          other.timed.time_s < greedy_s) {
        SearchOptions so;
        so.max_evaluations = std::max<long long>(1, options_.total_evaluations / restarts);
        so.seed = component_seed(scenario.seed, "search#" + other.origin);
        so.network = network;
        so.start = other.timed.placement;
        so.objective_of = options_.objective_of;
        alternative_origin = other.origin;
        annealed[restarts] = SearchPlacer(so).place(scenario);
      }
    });
  }
  std::vector<nlohmann::json> results(pool.size());
  for (size_t i = 0; i < pool.size(); ++i)
    if (std::isnan(known_time_s(options_, pool[i].second)))
      runs.push_back([&, i]() { results[i] = quiet_simulation(scenario, pool[i].second, nullptr); });
  run_tasks(runs);
  for (int k = 0; k < restarts; ++k) add("anneal#" + std::to_string(k), annealed[k]);
  if (!alternative_origin.empty()) add("anneal-" + alternative_origin, annealed[restarts]);
  const size_t chosen = judge_pool(scenario, pool, network, options_, std::move(results), candidates_);
  placements_.clear();
  for (const auto& [origin, p] : pool) placements_.push_back(p);
  return pool[chosen].second;
}

KnownSimulations VerifiedSearchPlacer::simulated() const {
  KnownSimulations out;
  for (size_t i = 0; i < candidates_.size(); ++i)
    if (!candidates_[i].simgrid_result.is_null()) out.push_back({placements_[i], candidates_[i].simgrid_result});
  return out;
}

}  // namespace hulk
