#pragma once
/** @file jobs_evaluator.hpp
 *  @brief Analytic estimate of the cluster objective of several jobs sharing one cluster (sim/core/jobs.hpp): the
 *  weighted mean of the jobs' iteration times, each job's time from its own Evaluator (on job_view).
 *
 *  Contention between jobs (an APPROXIMATION; final numbers always come from SimGrid, the caller checks):
 *  the jobs run concurrently and share NICs, WAN links (region-pair pipes or per-host WAN caps) and XML route links.
 *  For every shared link of the route model (Route::links of every route between two DISTINCT hosts), count the jobs
 *  k(l) that may send over it: a job is counted on every route between two hosts of one of its communication groups
 *  (a TP group; the two ranks of a PP hand-off; a DP group, all pairs of its hosts, a superset of what ring, tree
 *  and hierarchical all-reduces use), both directions. Each job is then evaluated with the capacity of every link
 *  divided by k(l) (Evaluator::share_links): a job gets an equal share of a link it shares, whatever the other
 *  jobs' flow counts and whether their transfers overlap in time (they are not phase-aligned; this is
 *  pessimistic for jobs whose traffic rarely overlaps, optimistic for a job meeting another with many more flows
 *  on a link). Intra-host links are not divided (a job's own flows on a host fit its GPUs' share of them).
 *  Jobs that share no link get exactly their alone times; with one job the objective is that job's Evaluator time,
 *  bit for bit. A placement whose ranks break a job's memory (job.check_memory), that puts more ranks on a host
 *  than it has GPUs or that is malformed has objective +infinity. */
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/evaluate/evaluator.hpp"

namespace hulk {

/** @brief The estimator of any number of jobs (see the file comment); the one the placers use. Every estimate works
 *  in the calling thread's scratch for this object (evaluator_scratch_slots.hpp), so one object serves several
 *  threads at once; set_pipeline_cache is not to be called while another thread estimates. */
class JobsEvaluator {
 public:
  /** @brief One Evaluator per job (job_view(scenario, j)), all on one route model of the platform (network, or
   *  built here if nullptr); a one-job scenario is the case of one job. */
  explicit JobsEvaluator(const Scenario& scenario, std::shared_ptr<const RouteModel> network = nullptr);

  /** @brief Number of jobs. */
  int jobs() const { return static_cast<int>(evaluators_.size()); }
  /** @brief Job j's Evaluator (it ignores the other jobs unless share_links is set on it). */
  const Evaluator& job_evaluator(int j) const { return *evaluators_.at(j); }
  /** @brief The scenario (all jobs). */
  const Scenario& scenario() const { return scenario_; }

  /** @brief Each job's estimated iteration time (s) under the contention model, in job order; +infinity for every
   *  job if the placement is infeasible (see the file comment). */
  std::vector<double> job_times_s(const Placement& placement) const;
  /** @brief Same from the host of every rank of every job (the Placement's order). The fast path of search. */
  std::vector<double> job_times_of_hosts(const std::vector<int>& host_of_rank) const;
  /** @brief The objective (s): weighted_objective of job_times_s; one job: its time exactly. */
  double objective_s(const Placement& placement) const;
  /** @brief The objective from the host of every rank. */
  double objective_of_hosts(const std::vector<int>& host_of_rank) const;

  /** @brief A lower bound of objective_of_hosts (+infinity where it is): each job's Evaluator::
   *  time_lower_bound_of_hosts under the same link sharing, combined as the objective combines the times. */
  double objective_lower_bound_of_hosts(const std::vector<int>& host_of_rank) const;

  /** @brief Evaluator::set_pipeline_cache on every job's evaluator (benchmarks time evaluations that compute). */
  void set_pipeline_cache(bool across_evaluations);

  /** @brief True if the scenario-wide rank `global_rank`'s stage fits a GPU of host (job's check_memory). */
  bool fits(int global_rank, int host) const;
  /** @brief The jobs counted on each link (route-model link ids; 0 for unused links) for the host of every rank:
   *  what divides the links' capacities (see the file comment). */
  std::vector<int> jobs_on_links(const std::vector<int>& host_of_rank) const;

  /** @brief What one estimate writes (defined in the .cpp): the jobs' link counts, each job's EvaluatorScratch and,
   *  for several jobs, copies of the jobs' Evaluators that this thread alone sets share_links on. */
  struct Scratch;

 private:
  /** @brief Counts the jobs on every link for a placement (w's jobs_on_link and divisors); true if some link has
   *  two. */
  bool count_jobs_on_links(Scratch& w, const std::vector<int>& host_of_rank) const;
  /** @brief Each job's time (or, lower_bound, its Evaluator's lower bound) under the contention model. */
  std::vector<double> per_job_of_hosts(const std::vector<int>& host_of_rank, bool lower_bound) const;
  /** @brief The calling thread's scratch for this object, sized for it. */
  Scratch& thread_scratch() const;
  /** @brief Combines per-job times into the objective (one job: its time, not w t / w). */
  double combine(const std::vector<double>& times) const;

  Scenario scenario_;
  /** @brief Per job, never changed after construction (share_links is set on a thread's copies, Scratch). */
  std::vector<std::unique_ptr<Evaluator>> evaluators_;
  std::vector<int> offset_;  ///< first global rank of each job, and the total at the end
  std::vector<int> job_of_;  ///< job of each global rank
  std::uint64_t id_;  ///< the key of this object's per-thread scratch; a new one after set_pipeline_cache
};

}  // namespace hulk
