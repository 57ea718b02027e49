#pragma once
/** @file lower_bound.hpp
 *  @brief Compute-only lower bound of the iteration time: every stage on the platform's fastest GPU, all
 *  communication free.
 *
 *  Definition used: LB = critical path (pipeline_makespan_s) of the job's schedule with op times
 *  f_i = fwd_flops_per_mb(i) / v_max, b_i = 2 f_i and zero hand-off times, v_max = max over GPUs of
 *  peak_flops(precision) * utilisation.
 *
 *  Why it is a true lower bound of the simulated (and of the evaluated) iteration time: the simulated iteration
 *  executes, on each rank, the same per-stage op sequence as the schedule, and each op's duration there is its
 *  compute (flops / own speed >= flops / v_max) plus TP communication (>= 0); each dependency edge (activation or
 *  gradient hand-off) takes >= 0; DP all-reduce and barrier add >= 0 at the end. The iteration end is the longest
 *  path of that precedence graph, and the longest path of a DAG is monotone non-decreasing in every node and
 *  edge weight, so lowering every weight to its minimum gives a value <= the real one.
 *
 *  The closed form sum_i (f_i + b_i) + (m - 1) max_i (f_i + b_i) (the brief's formula) equals this critical path
 *  when all stages take the same time, but it is NOT a lower bound in general: with p = 2, 1F1B, stage 0 taking
 *  (f, b) = (1, 2) and stage 1 taking (eps, eps), stage 0 is never idle (stage 1 returns each gradient before
 *  stage 0 finishes its next forward) and the schedule ends at exactly 3m, while the formula gives 3m + 2 eps
 *  (test LowerBound.ClosedFormIsNotABoundForUnequalStages). Hence we compute the critical path (it equals the
 *  closed form for equal stages and is always valid). closed_form_bound_s() is provided for reporting and tests. */
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Compute-only critical-path lower bound of one iteration (s); with several jobs, the weighted mean of the
 *  jobs' bounds (a lower bound of the objective, sim/core/jobs.hpp). */
double lower_bound_s(const Scenario& scenario);

/** @brief The closed form sum_i (f_i + b_i) + (m - 1) max_i (f_i + b_i) at the fastest speed (s); equal to
 *  lower_bound_s() for equal stage times, not a bound in general (see file comment). */
double closed_form_bound_s(const Scenario& scenario);

/** @brief The fastest achieved GPU speed of the platform (flop/s). */
double fastest_gpu_flops(const Scenario& scenario);

}  // namespace hulk
