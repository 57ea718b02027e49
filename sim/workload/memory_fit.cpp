#include "sim/workload/memory_fit.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "sim/core/jobs.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

/** GPUs of the platform with at least `bytes` of memory. */
int gpus_holding(const std::vector<double>& gpu_memory, double bytes) {
  return static_cast<int>(std::count_if(gpu_memory.begin(), gpu_memory.end(), [&](double m) { return m >= bytes; }));
}

/** "stage 2 needs 52.42 GiB per GPU (weights+optimizer 4.33 GiB, activations 5.34 GiB x 9 micro-batches in flight)":
 *  what the user can change (more stages, a smaller micro-batch, another schedule) is in the parts. */
std::string stage_need(const Scenario& s, const RankNeed& need) {
  const StageCost& st = compute_job_cost(job_at(s, need.job)).stages[need.stage];
  return "stage " + std::to_string(need.stage) + " needs " + gib(st.peak_memory_bytes) +
         " per GPU (weights+optimizer " + gib(st.weight_state_bytes) + ", activations " +
         gib(st.activation_bytes_per_mb) + " x " + std::to_string(st.in_flight_micro_batches) +
         " micro-batches in flight)";
}

}  // namespace

std::vector<RankNeed> rank_memory_needs(const Scenario& s, const std::vector<int>& jobs) {
  std::vector<RankNeed> needs;
  for (int j : jobs) {
    const JobSpec& job = job_at(s, j);
    const JobCost cost = compute_job_cost(job);
    const ParallelPlan plan(job.par);
    for (int r = 0; r < plan.ranks(); ++r)
      needs.push_back({job.check_memory ? cost.stages[plan.coord_of(r).pp].peak_memory_bytes : 0.0, j,
                       plan.coord_of(r).pp});
  }
  std::stable_sort(needs.begin(), needs.end(), [](const RankNeed& a, const RankNeed& b) { return a.bytes > b.bytes; });
  return needs;
}

std::vector<double> memory_largest_first(const PlatformSpec& platform, const std::vector<GpuSlot>& gpus) {
  std::vector<double> memory;
  memory.reserve(gpus.size());
  for (const GpuSlot& g : gpus) memory.push_back(platform.hosts[g.host].gpu.memory_bytes);
  std::sort(memory.begin(), memory.end(), std::greater<double>());
  return memory;
}

int first_memory_misfit(const std::vector<RankNeed>& needs, const std::vector<double>& gpu_memory) {
  for (std::size_t k = 0; k < needs.size(); ++k)
    if (k >= gpu_memory.size() || needs[k].bytes > gpu_memory[k]) return static_cast<int>(k);
  return -1;
}

std::string memory_fit_problem(const Scenario& s, int& job_index) {
  job_index = -1;
  std::vector<double> memory;
  for (const HostSpec& h : s.platform.hosts) memory.insert(memory.end(), h.gpus, h.gpu.memory_bytes);
  std::sort(memory.begin(), memory.end(), std::greater<double>());
  std::vector<int> all;
  for (int j = 0; j < job_count(s); ++j) {
    all.push_back(j);
    const std::vector<RankNeed> alone = rank_memory_needs(s, {j});
    const int k = first_memory_misfit(alone, memory);
    if (k < 0) continue;
    job_index = j;
    const int holding = gpus_holding(memory, alone[k].bytes);
    const std::string shortfall =
        holding == 0 ? "the largest GPU of the platform has " + (memory.empty() ? gib(0) : gib(memory.front()))
                     : std::to_string(k + 1) + " of its ranks need " + gib(alone[k].bytes) + " or more and only " +
                           std::to_string(holding) + " GPUs of the platform have that much";
    return (names_jobs(s) ? job_label(s, j) + " fits no share of the platform in memory: "
                                : std::string("the job does not fit the platform's GPU memory: ")) +
           stage_need(s, alone[k]) + ", but " + shortfall +
           " (expected stages that fit the GPUs: more pipeline stages or a smaller micro_batch" +
           (job_at(s, j).schedule == "gpipe" ? ", or the 1f1b schedule)" : ")");
  }
  const std::vector<RankNeed> together = rank_memory_needs(s, all);
  const int k = first_memory_misfit(together, memory);
  if (k < 0) return "";
  job_index = together[k].job;
  return "the jobs do not fit the platform's GPU memory together: " + std::to_string(k + 1) + " ranks (" +
         job_label(s, job_index) + " among them) need " + gib(together[k].bytes) + " or more per GPU, and only " +
         std::to_string(gpus_holding(memory, together[k].bytes)) +
         " GPUs have that much (expected the jobs' ranks to fit distinct GPUs)";
}

}  // namespace hulk
