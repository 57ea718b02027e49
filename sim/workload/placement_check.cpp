#include "sim/workload/placement_check.hpp"

#include <set>
#include <sstream>

#include "sim/core/jobs.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

std::vector<GpuSlot> all_gpus(const PlatformSpec& platform) {
  std::vector<GpuSlot> out;
  for (int h = 0; h < static_cast<int>(platform.hosts.size()); ++h)
    for (int s = 0; s < platform.hosts[h].gpus; ++s) out.push_back({h, s});
  return out;
}

namespace {

std::string gib(double bytes) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed << bytes / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return os.str();
}

}  // namespace

namespace {

/** "rank 3" for one job, "rank 3 of job 'bert'" with several. */
std::string rank_name(const Scenario& scenario, int global_rank) {
  if (!names_jobs(scenario)) return "rank " + std::to_string(global_rank);
  const int j = job_of_rank(scenario, global_rank);
  return "rank " + std::to_string(global_rank - job_rank_offset(scenario, j)) + " of " + job_label(scenario, j);
}

/** Why job j's ranks (entries offset.. of the placement) do not fit their GPUs' memory ("" if they do). */
std::string memory_problem(const Scenario& scenario, const Placement& placement, int j) {
  const auto& hosts = scenario.platform.hosts;
  const JobSpec& job = job_at(scenario, j);
  const int offset = job_rank_offset(scenario, j), ranks = job.par.ranks();
  const JobCost cost = compute_job_cost(job);
  const ParallelPlan plan(job.par);
  for (int r = 0; r < ranks; ++r) {
    const GpuSlot& g = placement.gpu_of_rank[offset + r];
    const StageCost& st = cost.stages[plan.coord_of(r).pp];
    const GpuSpec& gpu = hosts[g.host].gpu;
    if (st.peak_memory_bytes > gpu.memory_bytes)
      return rank_name(scenario, offset + r) + " (stage " + std::to_string(plan.coord_of(r).pp) + ") needs " +
             gib(st.peak_memory_bytes) + " (weights+optimizer " + gib(st.weight_state_bytes) + ", activations " +
             gib(st.activation_bytes_per_mb) + " x " + std::to_string(st.in_flight_micro_batches) +
             " micro-batches) but GPU " + std::to_string(g.slot) + " of host " + hosts[g.host].name + " (" + gpu.name +
             ") has " + gib(gpu.memory_bytes);
  }
  return "";
}

}  // namespace

std::string placement_problem(const Scenario& scenario, const Placement& placement, bool check_memory) {
  const auto& hosts = scenario.platform.hosts;
  const int ranks = total_ranks(scenario);
  if (static_cast<int>(placement.gpu_of_rank.size()) != ranks)
    return "placement has " + std::to_string(placement.gpu_of_rank.size()) + " ranks, " +
           (names_jobs(scenario) ? "the jobs have " : "the job has ") + std::to_string(ranks);
  std::set<GpuSlot> used;
  for (int r = 0; r < ranks; ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    if (g.host < 0 || g.host >= static_cast<int>(hosts.size()))
      return rank_name(scenario, r) + " is on host index " + std::to_string(g.host) + ", which does not exist";
    if (g.slot < 0 || g.slot >= hosts[g.host].gpus)
      return rank_name(scenario, r) + " is on GPU " + std::to_string(g.slot) + " of host " + hosts[g.host].name +
             ", which has " + std::to_string(hosts[g.host].gpus) + " GPUs";
    if (!used.insert(g).second)
      return "GPU " + std::to_string(g.slot) + " of host " + hosts[g.host].name + " is given to two ranks" +
             (names_jobs(scenario) ? " (the second: " + rank_name(scenario, r) + ")" : "");
  }
  if (!check_memory) return "";
  // With several jobs each job's own check_memory decides; with one, the caller's flag (scenario.only_job()'s) does.
  for (int j = 0; j < job_count(scenario); ++j) {
    if (names_jobs(scenario) && !job_at(scenario, j).check_memory) continue;
    const std::string problem = memory_problem(scenario, placement, j);
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace hulk
