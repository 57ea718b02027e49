#pragma once
/** @file jobs_placement.hpp
 *  @brief Greedy over a scenario's jobs (sim/core/jobs.hpp): the whole Placement (all jobs' ranks, job after job),
 *  each job placed by the one-job greedy on the GPUs the jobs before it left. GreedyPlacer::place comes here for
 *  every scenario, one job the list of one. Round-robin and random need nothing here: their one rule takes the
 *  jobs' ranks as one list (placer.hpp, random_placer.hpp). */
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

class JobsEvaluator;

/** @brief The greedy's job order: most ranks first; ties: larger weight, then listed order. */
std::vector<int> largest_jobs_first(const Scenario& scenario);

/** @brief The one-job greedy's placements of a scenario's jobs on GPU sets, kept for reuse. Greedy over many job
 *  orders places the same job on the same free GPUs again and again (orders that share a prefix; `reserve` when it
 *  reserves nothing): a pure cache, every answer is the one greedy computes. Valid for one scenario only. Safe to
 *  share between threads (two may compute the same entry at once; both get the same placement). */
class GreedyShareCache {
 public:
  /** @brief The one-job greedy's placement of job j on `gpus` (sorted, as free_gpus gives them), in original slots. */
  Placement place(const Scenario& scenario, int j, const std::vector<GpuSlot>& gpus);

 private:
  std::mutex mutex_;
  std::map<std::pair<int, std::vector<GpuSlot>>, Placement> placed_;
};

/** @brief Greedy for several jobs: jobs in `order` (a permutation of 0..jobs-1), each placed by the one-job greedy
 *  (GreedyPlacer) on the share of the GPUs still free, so it takes the best compact share left. With `reserve`, if
 *  that share holds GPUs the later jobs' stages need (they would no longer fit together), the job is placed again
 *  on the free GPUs minus those the later jobs get in the heaviest-rank-to-largest-GPU assignment of all these
 *  jobs' ranks (a fit exists iff that assignment fits), so the order places every job whenever they fit at all.
 *  cache (optional, this scenario's) saves repeated one-job placements across calls.
 *  @throws InputError naming the job that cannot be placed (too few GPUs left, or memory). */
Placement greedy_jobs_placement(const Scenario& scenario, const std::vector<int>& order, bool reserve = false,
                                GreedyShareCache* cache = nullptr);

/** @brief Job counts up to which greedy_jobs_first_fit tries every order of the jobs (6! = 720 greedy runs). */
constexpr int kMaxJobsForEveryGreedyOrder = 6;

/** @brief Job orders, as greedy_jobs_first_fit and the joint search's start try them: largest_jobs_first; the
 *  job with the heaviest stage first (if another order); then, with at most every_order_up_to jobs, every other
 *  order in lexicographic order. */
std::vector<std::vector<int>> greedy_job_orders(const Scenario& scenario, int every_order_up_to);

/** @brief The greedy method for several jobs: greedy_jobs_placement in largest_jobs_first order; if that leaves a
 *  job without room (memory), the order with the heaviest stage first (it needs the largest GPUs), then (up to
 *  kMaxJobsForEveryGreedyOrder jobs) every other order in lexicographic order, until one places every job; if none
 *  does, the same orders again with greedy_jobs_placement's `reserve`.
 *  @param order_used if not null, receives the order that succeeded.
 *  @throws InputError: the first order's error when no order works. */
Placement greedy_jobs_first_fit(const Scenario& scenario, std::vector<int>* order_used = nullptr);

/** @brief Round-robin's placement of the jobs (round_robin_placement) if it is valid (memory included) and the jobs'
 *  objective by `ev` finds it strictly faster than objective_s; else nullopt. Greedy keeps it as a candidate for
 *  any number of jobs (greedy_placer.hpp): on a cluster of mixed hosts where each job's compact share is behind
 *  slow WAN links, first-fit greedy can be slower than round-robin. */
std::optional<Placement> faster_round_robin_jobs(const Scenario& scenario, const JobsEvaluator& ev,
                                                 double objective_s);

/** @brief True if job j's ranks can be given distinct GPUs among `gpus` that fit their stages' memory (nested fit
 *  sets: for every stage, enough GPUs fit the stages at least as heavy). Always true without job.check_memory when
 *  there are enough GPUs. */
bool job_fits_gpus(const Scenario& scenario, int j, const std::vector<GpuSlot>& gpus);

}  // namespace hulk
