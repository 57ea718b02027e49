#include "sim/place/jobs_search.hpp"

#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/jobs_placement.hpp"

namespace hulk {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/** Up to this many jobs the start is the best greedy over every job order (4! = 24 greedy runs). */
constexpr int kMaxJobsForEveryStartOrder = 4;

}  // namespace

Placement best_greedy_jobs_placement(const Scenario& s, const JobsEvaluator& ev, std::vector<int>* order_used,
                                     GreedyShareCache* cache) {
  // Every (reserve, order) greedy run is independent: they run on the machine's cores (parallel_tasks.hpp), then are
  // judged one after another in their order, so the answer is the same on any number of threads.
  struct Run {
    bool reserve;
    std::vector<int> order;
    Placement placement;
    std::optional<InputError> error;  // this order leaves a job no room; another may not
  };
  std::vector<Run> runs;
  for (bool reserve : {false, true})
    for (const std::vector<int>& order : greedy_job_orders(s, kMaxJobsForEveryStartOrder))
      if (!reserve || order.size() > 1)  // reserving GPUs for later jobs needs a later job (one job: one run)
        runs.push_back({reserve, order, Placement{}, std::nullopt});
  GreedyShareCache own_cache;  // 48 greedy runs over 4 jobs place the same job on the same GPUs many times
  GreedyShareCache* shares = cache ? cache : &own_cache;
  std::vector<std::function<void()>> tasks;
  for (Run& run : runs)
    tasks.push_back([&s, shares, &run]() {
      try {
        run.placement = greedy_jobs_placement(s, run.order, run.reserve, shares);
      } catch (const InputError& e) {
        run.error = e;
      }
    });
  run_tasks(tasks);
  std::optional<InputError> first;
  Placement best;
  double best_s = kInf;
  std::map<std::vector<GpuSlot>, double> objective_of;  // different orders often give the same placement
  for (Run& run : runs) {
    if (run.error) {
      if (!first) first = run.error;
      continue;
    }
    const auto [known, fresh] = objective_of.try_emplace(run.placement.gpu_of_rank, 0.0);
    if (fresh) known->second = ev.objective_s(run.placement);
    const double t = known->second;
    if (best.gpu_of_rank.empty() || t < best_s) {  // the first of equal candidates wins
      best = std::move(run.placement);
      best_s = t;
      if (order_used) *order_used = run.order;
    }
  }
  if (best.gpu_of_rank.empty()) throw *first;
  return best;
}

Placement greedy_search_start(const Scenario& scenario, const JobsEvaluator& ev) {
  // One job is the list of one: its only order places it on the whole cluster (a share of every GPU).
  return best_greedy_jobs_placement(scenario, ev);
}

}  // namespace hulk
