#pragma once
/** @file jobs_search.hpp
 *  @brief The search's start for any number of jobs (search_placer.hpp: one annealing for any number of jobs):
 *  greedy in the job order the jobs' objective finds best (JobsEvaluator::objective_s: one job's iteration time, or
 *  the weighted mean of the jobs' times under the evaluator's contention approximation, jobs_evaluator.hpp). */
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

class GreedyShareCache;
class JobsEvaluator;

/** @brief Greedy's placement in the job order (greedy_job_orders: every order up to 4 jobs; each without and with
 *  greedy_jobs_placement's `reserve`) whose objective is lowest by the evaluator (the first of equal ones); @param
 *  order_used receives that order if not null; @param cache, if not null, keeps the one-job greedy runs for the
 *  caller (each job's greedy on the GPUs left to it, GreedyShareCache). Not round-robin's placement, which the
 *  greedy method also keeps (GreedyPlacer): the gnn method checks it last (gnn_method.hpp). @throws InputError (the
 *  first order's) if no order places every job. */
Placement best_greedy_jobs_placement(const Scenario& scenario, const JobsEvaluator& ev,
                                     std::vector<int>* order_used = nullptr, GreedyShareCache* cache = nullptr);

/** @brief Greedy's placement that the search starts from, one rule for any number of jobs:
 *  best_greedy_jobs_placement (one job: its single order, greedy on every GPU of the cluster).
 *  @throws InputError if greedy cannot place the jobs. */
Placement greedy_search_start(const Scenario& scenario, const JobsEvaluator& ev);

}  // namespace hulk
