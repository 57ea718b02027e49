#pragma once
/** @file evaluation_count.hpp
 *  @brief A process-wide count of the analytic evaluator's full estimates (Evaluator::evaluate_hosts calls, every
 *  Evaluator of the process, every thread), so a caller can say how many estimates a placement cost: `gnn families`
 *  gives its `equal-budget` row as many as the gnn method spent. Lower bounds (time_lower_bound_of_hosts) are not
 *  counted: they cost a fraction of an estimate. A relaxed atomic add per estimate, far below an estimate's cost.
 *  The GNN plugin keeps its own copy of the sim libraries; share_evaluation_counter makes its copy count into the
 *  program's counter (tools/plugins/gnn_plugin_api.hpp), so the learned placer's estimates are counted too. */
#include <atomic>

namespace hulk {

/** @brief Full estimates counted in this process since it started (a child process starts from its parent's). */
long long evaluator_calls();

/** @brief Counts one full estimate (called by Evaluator::evaluate_hosts). Thread-safe. */
void count_evaluator_call();

/** @brief The counter this copy of the library counts into (its own unless share_evaluation_counter was called). */
std::atomic<long long>& evaluation_counter();

/** @brief Counts into `counter` from now on (another copy of the library's evaluation_counter(), which must outlive
 *  every later count). */
void share_evaluation_counter(std::atomic<long long>& counter);

}  // namespace hulk
