#pragma once
/** @file evaluation_count.hpp
 *  @brief A process-wide count of the analytic evaluator's full estimates (Evaluator::evaluate_hosts calls, every
 *  Evaluator of the process, every thread), so a caller can say how many estimates a placement cost: `gnn families`
 *  gives its `equal-budget` row as many as the gnn method spent. Lower bounds (time_lower_bound_of_hosts) are not
 *  counted: they cost a fraction of an estimate. A relaxed atomic add per estimate, far below an estimate's cost.
 *  The GNN plugin has no copy of this library (tools/plugins/gnn_plugin_api.hpp): the learned placer's estimates are
 *  counted with the program's. */

namespace hulk {

/** @brief Full estimates counted in this process since it started (a child process starts from its parent's). */
long long evaluator_calls();

/** @brief Full estimates counted on the calling thread since it started. */
long long evaluator_calls_of_this_thread();

/** @brief Counts one full estimate (called by Evaluator::evaluate_hosts). Thread-safe. */
void count_evaluator_call();

/** @brief Takes n estimates off the count: speculative ones a parallel search made beyond those its sequential
 *  order needs (fastest_candidate.hpp), whose number depends on timing, or a cache's entry two threads computed at once. Keeps the count deterministic. */
void uncount_evaluator_calls(long long n);

}  // namespace hulk
