#include "sim/place/random_placer.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

/** What one rank asks of its GPU: its stage's peak memory, and whether its job checks memory at all. */
struct RankMemory {
  double bytes = 0;
  int stage = 0;
  bool checked = true;
};

/** Every rank of every job, in Placement order (the jobs' ranks one after the other). */
std::vector<RankMemory> rank_memories(const Scenario& s) {
  std::vector<RankMemory> out;
  for (int j = 0; j < job_count(s); ++j) {
    const JobSpec& job = job_at(s, j);
    const JobCost cost = compute_job_cost(job);
    const ParallelPlan plan(job.par);
    for (int r = 0; r < plan.ranks(); ++r) {
      const int stage = plan.coord_of(r).pp;
      out.push_back({cost.stages[stage].peak_memory_bytes, stage, job.check_memory});
    }
  }
  return out;
}

}  // namespace

Placement RandomPlacer::place(const Scenario& scenario) {
  const std::uint64_t seed = seed_ ? *seed_ : component_seed(scenario.seed, "random");
  std::mt19937_64 rng(seed);
  const std::vector<RankMemory> need = rank_memories(scenario);
  const int R = static_cast<int>(need.size());
  const bool named = names_jobs(scenario);
  std::vector<GpuSlot> free = all_gpus(scenario.platform);
  if (static_cast<int>(free.size()) < R)
    throw InputError(scenario.file, 0, named ? "jobs" : "job.parallelism",
                     "random placement: " + std::to_string(R) + " ranks but only " + std::to_string(free.size()) +
                         " GPUs");
  std::vector<int> order(R);
  std::iota(order.begin(), order.end(), 0);
  // Heaviest ranks first (stable: ties keep Placement order, so the stream use is deterministic). Ranks of a job
  // that does not check memory are sorted by their stage's memory too, so adding such a flag changes no draw order.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return need[a].bytes > need[b].bytes; });
  Placement out;
  out.gpu_of_rank.assign(R, GpuSlot{});
  std::vector<size_t> fitting;
  for (int r : order) {
    fitting.clear();
    for (size_t i = 0; i < free.size(); ++i)
      if (!need[r].checked || need[r].bytes <= scenario.platform.hosts[free[i].host].gpu.memory_bytes)
        fitting.push_back(i);
    if (fitting.empty())
      throw InputError(scenario.file, 0, named ? "jobs" : "job",
                       "random placement: no free GPU has memory for stage " + std::to_string(need[r].stage) +
                           (named ? " of " + job_label(scenario, job_of_rank(scenario, r)) : std::string()) +
                           " (needs " + std::to_string(need[r].bytes / 1e9) + " GB per GPU)");
    std::uniform_int_distribution<size_t> pick(0, fitting.size() - 1);
    const size_t i = fitting[pick(rng)];
    out.gpu_of_rank[r] = free[i];
    free.erase(free.begin() + static_cast<long>(i));
  }
  return out;
}

}  // namespace hulk
