#include "sim/place/random_placer.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/place/jobs_placement.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

Placement RandomPlacer::place(const Scenario& scenario) {
  const std::uint64_t seed = seed_ ? *seed_ : component_seed(scenario.seed, "random");
  // Several jobs: their own draw (jobs_placement.hpp); a `jobs:` list of one is one job here.
  if (job_count(scenario) > 1) return random_jobs_placement(scenario, seed);
  std::mt19937_64 rng(seed);
  const JobCost cost = compute_job_cost(scenario.only_job());
  const ParallelPlan plan(scenario.only_job().par);
  const int R = plan.ranks();
  std::vector<GpuSlot> free = all_gpus(scenario.platform);
  if (static_cast<int>(free.size()) < R)
    throw InputError(scenario.file, 0, "job.parallelism",
                     "random placement: " + std::to_string(R) + " ranks but only " + std::to_string(free.size()) +
                         " GPUs");
  std::vector<int> order(R);
  std::iota(order.begin(), order.end(), 0);
  auto need = [&](int r) { return cost.stages[plan.coord_of(r).pp].peak_memory_bytes; };
  // Heaviest ranks first (stable: ties keep rank order, so the stream use is deterministic).
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return need(a) > need(b); });
  Placement out;
  out.gpu_of_rank.assign(R, GpuSlot{});
  std::vector<size_t> fitting;
  for (int r : order) {
    fitting.clear();
    for (size_t i = 0; i < free.size(); ++i)
      if (!scenario.only_job().check_memory || need(r) <= scenario.platform.hosts[free[i].host].gpu.memory_bytes)
        fitting.push_back(i);
    if (fitting.empty())
      throw InputError(scenario.file, 0, "job",
                       "random placement: no free GPU has memory for stage " + std::to_string(plan.coord_of(r).pp) +
                           " (needs " + std::to_string(need(r) / 1e9) + " GB per GPU)");
    std::uniform_int_distribution<size_t> pick(0, fitting.size() - 1);
    const size_t i = fitting[pick(rng)];
    out.gpu_of_rank[r] = free[i];
    free.erase(free.begin() + static_cast<long>(i));
  }
  return out;
}

}  // namespace hulk
