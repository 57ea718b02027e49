#pragma once
/** @file jobs.hpp
 *  @brief Several training jobs sharing one cluster (`jobs:`): rank offsets into the one Placement, one-job views
 *  of a scenario, and the cluster objective. A one-job scenario (`job:`) is the case of one job everywhere here.
 *
 *  The objective a placer minimises with several jobs is the weighted mean of the jobs' iteration times,
 *  sum_j w_j t_j / sum_j w_j (JobSpec::weight, default 1); with one job it is that job's iteration time. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief True when results and messages name each job: the scenario was written with `jobs:` (even a list of one)
 *  or holds more than one job. A question of format only (a job column, "job 'NAME'"). */
inline bool names_jobs(const Scenario& s) { return s.jobs_listed || s.jobs.size() > 1; }

/** @brief Whether validity includes memory fit: the one job's check_memory, or (jobs named) always, each job's
 *  own flag then deciding for its ranks (placement_problem). */
inline bool checks_memory(const Scenario& s) { return names_jobs(s) || s.jobs.front().check_memory; }

/** @brief True if the job synchronises with DiLoCo (sync.algorithm diloco); only a one-job scenario can (the loader
 *  refuses diloco with jobs:). */
inline bool runs_diloco(const Scenario& s) { return s.jobs.size() == 1 && s.jobs.front().sync.diloco(); }

/** @brief Number of jobs (at least 1). */
int job_count(const Scenario& s);

/** @brief Job j (0 <= j < job_count). */
const JobSpec& job_at(const Scenario& s, int j);

/** @brief Index of the first rank of job j in the scenario's Placement. */
int job_rank_offset(const Scenario& s, int j);

/** @brief Ranks of all jobs together (the length of a valid Placement). */
int total_ranks(const Scenario& s);

/** @brief The job that a Placement entry (global rank) belongs to. */
int job_of_rank(const Scenario& s, int global_rank);

/** @brief A one-job scenario of job j on the same platform and network (Scenario::jobs = {job j}, not named). The
 *  scenario keeps its name and file, so errors still name the file. */
Scenario job_view(const Scenario& s, int j);

/** @brief The part of `placement` that belongs to job j, ranks renumbered from 0. */
Placement job_slice(const Scenario& s, const Placement& placement, int j);

/** @brief The jobs' placements one after the other (in job order): the scenario's Placement. */
Placement concat_placements(const std::vector<Placement>& per_job);

/** @brief sum_j w_j t_j / sum_j w_j over the jobs' iteration times (one per job, in job order). */
double weighted_objective(const Scenario& s, const std::vector<double>& iteration_times_s);

/** @brief "job 'NAME'" for messages, or "the job" in a one-job scenario. */
std::string job_label(const Scenario& s, int j);

/** @brief The job's shape for summaries: "dp 2 x tp 1 x pp 4". */
std::string parallelism_text(const JobSpec& job);

}  // namespace hulk
