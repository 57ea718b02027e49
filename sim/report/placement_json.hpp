#pragma once
/** @file placement_json.hpp
 *  @brief The placement JSON format: what `hulk simulate` and `hulk place` write and `placement: file:PATH.json`
 *  reads. */
#include <string>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief One rank's entry: {"rank", "stage", "replica", "tp_index", "host", "slot", "region"} and, when `job` is
 *  not "", "job". The coordinates are ParallelPlan::coord_of(rank) (Megatron order: rank = (stage * dp + replica) *
 *  tp + tp_index). `scenario` is a one-job scenario or a job's view; `rank` is the job's own rank. */
nlohmann::json rank_json(const Scenario& scenario, const Placement& placement, int rank, const std::string& job);

/** @brief Placement as JSON: {"parallelism": {dp,tp,pp}, "ranks": [rank_json...]} in rank order; with several jobs
 *  {"jobs": [{"name", "parallelism", "ranks"}...]} in job order (ranks numbered inside each job, each with "job"). */
nlohmann::json placement_to_json(const Scenario& scenario, const Placement& placement);

/** @brief Reads a placement from JSON (the object above, or a result.json holding it under "placement"). A rank
 *  entry needs rank, host and slot; its job, stage, replica, tp_index and region are optional (a hand-written file
 *  may omit them), and each one present must agree with the rank and host.
 *  Host names resolve against the scenario's platform; with several jobs, each job's entry is found by name and
 *  every job must have exactly one. @throws InputError naming file and key. */
Placement placement_from_json(const Scenario& scenario, const nlohmann::json& doc, const std::string& file);

/** @brief Reads a placement file. @throws InputError on a missing/malformed file or a placement that does not
 *  match the scenario. */
Placement load_placement_file(const Scenario& scenario, const std::string& path);

}  // namespace hulk
