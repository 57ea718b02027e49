#pragma once
/** @file jobs_memory_fit.hpp
 *  @brief Whether the job (or several jobs together) can get GPUs that hold their stages at all, checked when the
 *  scenario is loaded (a job that fits no placement is the scenario's error, not a placer's:
 *  sim/methods/scenario_loading.cpp names the job's line) and by the scenario sampler. */
#include <string>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Why the jobs cannot all get GPUs that hold their stages ("" if they can): some job alone has too few
 *  GPUs that fit its stages, or the jobs together do. Exact for memory (a stage fits every GPU with at least its
 *  peak memory, so the fit sets are nested and assigning the heaviest ranks to the largest GPUs first finds an
 *  assignment whenever one exists). Jobs with check_memory false need no memory. @return the message and, in
 *  job_index, the job it names (-1 if none). */
std::string jobs_memory_problem(const Scenario& scenario, int& job_index);

}  // namespace hulk
