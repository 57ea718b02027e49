#pragma once
/** @file parallel_tasks.hpp
 *  @brief Independent tasks on the machine's cores (the search's annealing restarts, the gnn method's two annealing
 *  branches). Each task writes only its own result slot, so the results, and everything computed from them in task
 *  order, are the same bit for bit on any number of threads. */
#include <functional>
#include <vector>

namespace hulk {

/** @brief Threads run_tasks uses at most: HULK_THREADS if set (a positive integer; 1 = run in the calling thread),
 *  else the machine's hardware threads. @throws InputError if HULK_THREADS is set to anything else. */
int task_threads();

/** @brief Runs every task, on up to task_threads() threads (never more than there are tasks), and returns when all
 *  have finished. Called from inside a task, it runs the tasks in the calling thread: the outer tasks already use
 *  the cores. If tasks throw, the exception of the first of them in task order is rethrown after all ended. */
void run_tasks(const std::vector<std::function<void()>>& tasks);

/** @brief True while the calling thread runs a task of run_tasks. */
bool inside_task();

}  // namespace hulk
