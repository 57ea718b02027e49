#pragma once
/** @file memory_fit.hpp
 *  @brief Whether the jobs of a scenario (one job is the list of one) can get GPUs that hold their stages at all:
 *  checked when the scenario is loaded (a job that fits no placement is the scenario's error, not a placer's:
 *  sim/methods/scenario_loading.cpp names the job's line), by the scenario sampler, and by the several-job placers
 *  on the GPUs left to a job (sim/place/jobs_placement.cpp).
 *
 *  Exact for memory: a stage fits every GPU with at least its peak memory, so the sets of GPUs that fit the ranks
 *  are nested, and giving the heaviest ranks the largest GPUs first finds an assignment whenever one exists. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The memory one rank needs on its GPU: its stage's peak (0 when its job has check_memory false). */
struct RankNeed {
  double bytes = 0;  ///< bytes per GPU
  int job = 0;       ///< index into Scenario::jobs
  int stage = 0;     ///< the rank's pipeline stage
};

/** @brief The need of every rank of the listed jobs (job indices), heaviest first; ties keep the order of the
 *  jobs as listed, then of their ranks. */
std::vector<RankNeed> rank_memory_needs(const Scenario& scenario, const std::vector<int>& jobs);

/** @brief The memory of each of `gpus`, largest first. */
std::vector<double> memory_largest_first(const PlatformSpec& platform, const std::vector<GpuSlot>& gpus);

/** @brief Index of the first need (heaviest first) that the GPU of the same index in `gpu_memory` (largest first)
 *  cannot hold, or that has no GPU left; -1 if every need gets a GPU. */
int first_memory_misfit(const std::vector<RankNeed>& needs, const std::vector<double>& gpu_memory);

/** @brief Why the jobs cannot all get GPUs that hold their stages ("" if they can): some job alone has too few
 *  GPUs that fit its stages, or the jobs together do. Jobs with check_memory false need no memory. @return the
 *  message and, in job_index, the job it names (-1 if none). */
std::string memory_fit_problem(const Scenario& scenario, int& job_index);

}  // namespace hulk
