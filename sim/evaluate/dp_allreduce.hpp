#pragma once
/** @file dp_allreduce.hpp
 *  @brief The Evaluator's data-parallel part: ring, tree and hierarchical all-reduces as collectives.cpp runs them
 *  (approximations 2 and 3 of docs/model.md), every stage's DP all-reduce from its stage's end in one fluid
 *  simulation, or stage by stage with the others as load above the fluid's size. Writes w.dp_s_. */
#include <vector>

#include "sim/evaluate/evaluator_core.hpp"

namespace hulk::eval {

/** @brief Every stage's DP time (dp_s_) from stage_done_ / replica_done_ (approximation 3). */
void dp_times(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank);
/** @brief DP all-reduces of all stages in one fluid simulation, each from its stage's end (stage_done_); fills
 *  dp_s_. False (nothing done) when the job has too many DP transfers for it. */
bool dp_allreduces_from_stage_ends(const EvaluatorCore& core, EvaluatorScratch& w,
                                   const std::vector<int>& host_of_rank);
/** @brief True when the DP all-reduces are estimated in the all-stage fluid (dp_allreduces_from_stage_ends), false
 *  when stage by stage (too many transfers for the fluid). */
bool dp_fluid_applies(const EvaluatorCore& core);
/** @brief DP all-reduce time of one stage (all tp groups concurrently). */
double dp_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w, int stage, const std::vector<int>& host_of_rank);
/** @brief Approximation 3 (fallback): recomputes each stage's DP time with the overlapping stages' DP rings as
 *  load. */
void refine_dp_overlap(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank);
double ring_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<std::vector<int>>& rings,
                        double bytes);
double tree_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<std::vector<int>>& groups,
                        double bytes);
double hierarchical_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w,
                                const std::vector<std::vector<int>>& groups, double bytes);
/** @brief Concurrent rings (each: steps x its slowest hop of its chunk bytes), time of the slowest ring. */
double rings_phase_s(const EvaluatorCore& core, EvaluatorScratch& w, const RingSet& rings);

}  // namespace hulk::eval
