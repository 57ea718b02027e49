#include "sim/place/jobs_placement.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/memory_fit.hpp"
#include "sim/workload/placement_check.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

/** The scenario key that errors name: "jobs" where the scenario lists jobs, "job" for a `job:` scenario. */
const char* jobs_key(const Scenario& s) { return names_jobs(s) ? "jobs" : "job"; }

void require_enough_gpus(const Scenario& s, const std::string& method) {
  const int ranks = total_ranks(s), gpus = s.platform.total_gpus();
  if (ranks > gpus)
    throw InputError(s.file, 0, jobs_key(s),
                     method + (names_jobs(s) ? " placement: the jobs need " : " placement: the job needs ") +
                         std::to_string(ranks) + " GPUs but the platform has " + std::to_string(gpus));
}

}  // namespace

std::vector<int> largest_jobs_first(const Scenario& s) {
  std::vector<int> order(job_count(s));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const JobSpec &ja = job_at(s, a), &jb = job_at(s, b);
    if (ja.par.ranks() != jb.par.ranks()) return ja.par.ranks() > jb.par.ranks();
    return ja.weight > jb.weight;
  });
  return order;
}

bool job_fits_gpus(const Scenario& s, int j, const std::vector<GpuSlot>& gpus) {
  return first_memory_misfit(rank_memory_needs(s, {j}), memory_largest_first(s.platform, gpus)) < 0;
}

namespace {

/** GPUs sorted by memory, largest first (listed order among equals). */
std::vector<GpuSlot> by_memory(const Scenario& s, std::vector<GpuSlot> gpus) {
  std::stable_sort(gpus.begin(), gpus.end(), [&](const GpuSlot& a, const GpuSlot& b) {
    return s.platform.hosts[a.host].gpu.memory_bytes > s.platform.hosts[b.host].gpu.memory_bytes;
  });
  return gpus;
}

/** The GPUs of `gpus` that the jobs `later` get when the ranks of `job` and `later`, heaviest first, take the
 *  GPUs largest first (a fit exists iff this one fits: a stage fits every GPU with at least its memory); empty if
 *  that assignment does not fit. */
std::vector<GpuSlot> reserve_for_later(const Scenario& s, int job, const std::vector<int>& later,
                                       const std::vector<GpuSlot>& gpus) {
  std::vector<int> jobs{job};
  jobs.insert(jobs.end(), later.begin(), later.end());
  const std::vector<RankNeed> needs = rank_memory_needs(s, jobs);
  const std::vector<GpuSlot> sorted = by_memory(s, gpus);
  if (first_memory_misfit(needs, memory_largest_first(s.platform, gpus)) >= 0) return {};
  std::vector<GpuSlot> reserved;
  for (std::size_t k = 0; k < needs.size(); ++k)
    if (needs[k].job != job) reserved.push_back(sorted[k]);
  return reserved;
}

/** True if every job of `jobs` together fits `gpus` (memory, one GPU per rank). */
bool jobs_fit_gpus(const Scenario& s, const std::vector<int>& jobs, const std::vector<GpuSlot>& gpus) {
  return first_memory_misfit(rank_memory_needs(s, jobs), memory_largest_first(s.platform, gpus)) < 0;
}

std::vector<GpuSlot> without(const std::vector<GpuSlot>& gpus, std::vector<GpuSlot> removed) {
  std::sort(removed.begin(), removed.end());
  std::vector<GpuSlot> out;
  for (const GpuSlot& g : gpus)
    if (!std::binary_search(removed.begin(), removed.end(), g)) out.push_back(g);
  return out;
}

/** One-job greedy of job j on the GPUs `gpus`, mapped back to the cluster. */
Placement greedy_on(const Scenario& s, int j, const std::vector<GpuSlot>& gpus) {
  const GpuShare share = make_gpu_share(s, j, gpus);
  return share.to_original(GreedyPlacer::place_with(share.scenario, Evaluator(share.scenario)));
}

}  // namespace

Placement GreedyShareCache::place(const Scenario& s, int j, const std::vector<GpuSlot>& gpus) {
  auto key = std::make_pair(j, gpus);
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (const auto it = placed_.find(key); it != placed_.end()) return it->second;
  }
  const long long calls_before = evaluator_calls_of_this_thread();
  Placement placed = greedy_on(s, j, gpus);  // outside the lock: other threads' greedy runs go on meanwhile
  const std::lock_guard<std::mutex> lock(mutex_);
  // Another thread placed the same job on the same GPUs meanwhile (same answer): count the estimates once, so the
  // process's count does not depend on timing.
  if (!placed_.emplace(std::move(key), placed).second)
    uncount_evaluator_calls(evaluator_calls_of_this_thread() - calls_before);
  return placed;
}

Placement greedy_jobs_placement(const Scenario& s, const std::vector<int>& order, bool reserve,
                                GreedyShareCache* cache) {
  const auto place = [&](int j, const std::vector<GpuSlot>& gpus) {
    return cache ? cache->place(s, j, gpus) : greedy_on(s, j, gpus);
  };
  require_enough_gpus(s, "greedy");
  std::vector<Placement> per_job(job_count(s));
  std::vector<GpuSlot> used;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const int j = order[k];
    const std::vector<int> later(order.begin() + k + 1, order.end());
    const std::vector<GpuSlot> free = free_gpus(s.platform, used);
    const int ranks = job_at(s, j).par.ranks();
    if (!job_fits_gpus(s, j, free)) {
      const bool alone = job_fits_gpus(s, j, all_gpus(s.platform));
      throw InputError(s.file, 0, jobs_key(s),
                       "greedy placement: " + job_label(s, j) + " (" + std::to_string(ranks) + " ranks) " +
                           (alone ? "does not fit the GPUs left free by the jobs placed before it (" +
                                        std::to_string(free.size()) + " GPUs)"
                                  : "does not fit the platform's GPU memory"));
    }
    per_job[j] = place(j, free);
    // The job's best compact share may hold GPUs that only the later jobs' heavy stages fit: then it is placed
    // again without the GPUs those stages need (when the jobs fit the free GPUs together at all).
    if (reserve && !later.empty() && !jobs_fit_gpus(s, later, without(free, per_job[j].gpu_of_rank))) {
      const std::vector<GpuSlot> reserved = reserve_for_later(s, j, later, free);
      if (!reserved.empty()) per_job[j] = place(j, without(free, reserved));
    }
    used.insert(used.end(), per_job[j].gpu_of_rank.begin(), per_job[j].gpu_of_rank.end());
  }
  return concat_placements(per_job);
}

namespace {

/** Peak memory of the job's heaviest stage (0 without check_memory). */
double heaviest_stage_bytes(const Scenario& s, int j) {
  const JobSpec& job = job_at(s, j);
  if (!job.check_memory) return 0;
  double peak = 0;
  for (const StageCost& st : compute_job_cost(job).stages) peak = std::max(peak, st.peak_memory_bytes);
  return peak;
}

}  // namespace

std::vector<std::vector<int>> greedy_job_orders(const Scenario& s, int every_order_up_to) {
  std::vector<std::vector<int>> orders{largest_jobs_first(s)};
  std::vector<int> heaviest = orders.front();
  std::stable_sort(heaviest.begin(), heaviest.end(),
                   [&](int a, int b) { return heaviest_stage_bytes(s, a) > heaviest_stage_bytes(s, b); });
  if (heaviest != orders.front()) orders.push_back(heaviest);
  if (job_count(s) > every_order_up_to) return orders;
  std::vector<int> perm(job_count(s));
  std::iota(perm.begin(), perm.end(), 0);
  do {
    if (std::find(orders.begin(), orders.end(), perm) == orders.end()) orders.push_back(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return orders;
}

std::optional<Placement> faster_round_robin_jobs(const Scenario& s, const JobsEvaluator& ev, double objective_s) {
  Placement round_robin;
  try {
    round_robin = round_robin_placement(s);
  } catch (const InputError&) {  // more ranks than GPUs: nothing to keep
    return std::nullopt;
  }
  if (!placement_problem(s, round_robin, true).empty() || !(ev.objective_s(round_robin) < objective_s))
    return std::nullopt;
  return round_robin;
}

Placement greedy_jobs_first_fit(const Scenario& s, std::vector<int>* order_used) {
  std::optional<InputError> first;
  GreedyShareCache cache;
  // Every order as it is first; reserving GPUs for later jobs only when no order places every job without.
  for (bool reserve : {false, true})
    for (const std::vector<int>& order : greedy_job_orders(s, kMaxJobsForEveryGreedyOrder)) {
      try {
        Placement p = greedy_jobs_placement(s, order, reserve, &cache);
        if (order_used) *order_used = order;
        return p;
      } catch (const InputError& e) {
        if (!first) first = e;
      }
    }
  throw *first;
}

}  // namespace hulk
