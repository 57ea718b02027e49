#pragma once
/** @file jobs_search.hpp
 *  @brief Simulated annealing for several jobs (SearchPlacer's dispatch for more than one job): jointly over the
 *  jobs' GPU shares and the placement inside each job, driven by JobsEvaluator::objective_s (the weighted mean of
 *  the jobs' iteration times under the evaluator's contention approximation, jobs_evaluator.hpp).
 *
 *  Start: SearchOptions::start if given, else the best by the objective of greedy_jobs_placement in the orders of
 *  greedy_job_orders (every order when there are <= 4 jobs: at most 24 greedy runs; else largest first and heaviest
 *  stage first) and round-robin (if memory-feasible); random if none of them is feasible.
 *  Moves (probabilities): swap the GPUs of two ranks of different jobs (0.30: moves GPUs between shares); swap two
 *  ranks of one job on different hosts (0.30); move a rank to an unused GPU (0.25, if any is unused); exchange all
 *  ranks of two hosts, whatever their jobs (0.15: moves a whole job segment to another server). A move that breaks a
 *  job's memory is rejected without evaluation. Acceptance, temperature schedule, budget (evaluations and optional
 *  seconds) and the SimGrid re-check of the best few (simgrid_candidates; the oracle then gets the several-job
 *  scenario and Placement and must return the cluster objective) are those of the one-job search. Deterministic for
 *  a seed when the budget is in evaluations. */
#include <vector>

#include "sim/place/search_placer.hpp"

namespace hulk {

class GreedyShareCache;
class JobsEvaluator;

/** @brief Greedy's placement in the job order (greedy_job_orders: every order up to 4 jobs; each without and with
 *  greedy_jobs_placement's `reserve`) whose objective is lowest by the evaluator (the first of equal ones); @param
 *  order_used receives that order if not null; @param cache, if not null, keeps the one-job greedy runs for the
 *  caller (each job's greedy on the GPUs left to it, GreedyShareCache). Not round-robin's placement, which the greedy method also keeps
 *  (GreedyPlacer): the gnn method checks it last (gnn_method.hpp). @throws InputError (the first order's) if no order
 *  places every job. */
Placement best_greedy_jobs_placement(const Scenario& scenario, const JobsEvaluator& ev,
                                     std::vector<int>* order_used = nullptr, GreedyShareCache* cache = nullptr);

/** @brief The several-job annealing (see the file comment); fills stats (times are objectives, seconds).
 *  @throws InputError if no feasible start exists (the jobs do not fit together). */
Placement search_jobs_placement(const Scenario& scenario, const SearchOptions& options, SearchStats& stats);

}  // namespace hulk
