#pragma once
/** @file tp_rings.hpp
 *  @brief The Evaluator's tensor-parallel part: every (stage, replica)'s forward and backward op time with its TP
 *  all-reduces (approximations 2 and 4 of docs/model.md), from the TP ring hops' times with the other stages'
 *  rings as load (approximation 1). Writes w.fwd_, w.bwd_, w.logits_f_, w.tp_all_*. */
#include <vector>

#include "sim/evaluate/evaluator_core.hpp"

namespace hulk::eval {

/** @brief Forward/backward op time of every (stage, replica) with its TP all-reduces (fwd_, bwd_); m =
 *  micro-batches. */
void stage_op_times(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank, int m,
                    EvalBreakdown& out);
/** @brief stage_op_times' forward and backward op time of replica d of stage s whose TP ranks differ in GPU speed
 *  or ring hops (hop, lat: its ranks' hop times and latencies). */
void skewed_op_times(const EvaluatorCore& core, EvaluatorScratch& w, int s, int d, const std::vector<int>& host_of_rank,
                     const double* hop, const double* lat, double& fwd, double& bwd);
/** @brief Time and latency of every TP ring hop of every stage (tp_all_hops_, tp_all_lat_; approximation 1). */
void tp_hop_times(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank);

}  // namespace hulk::eval
