#pragma once
/** @file outputs.hpp
 *  @brief Result files: result.json, comm.csv, trace.json (Chrome trace-event format, one track per GPU).
 *  Every file is written to a temporary name and renamed, so a failed run leaves no half file. */
#include <string>

#include <nlohmann/json.hpp>

#include "sim/core/atomic_file.hpp"  // write_file_atomic: callers of the result writers use it for their files too
#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The JSON result (iteration_time_s, compute_s, comm_s{dp,tp,pp}, bubble_s, bytes{...},
 *  peak_memory_bytes[...], placement{...}, scenario name, seed, messages). */
nlohmann::json result_to_json(const Scenario& scenario, const SimResult& result);

/** @brief comm.csv text: header iteration,kind,collective,src_rank,dst_rank,src_host,dst_host,bytes,start_s,end_s. */
std::string comm_csv(const Scenario& scenario, const SimResult& result);

/** @brief Chrome trace-event JSON: one process per host, one thread (track) per GPU. */
nlohmann::json chrome_trace(const Scenario& scenario, const SimResult& result);

/** @brief Writes result.json, comm.csv and trace.json into dir atomically. */
void write_run_outputs(const std::string& dir, const Scenario& scenario, const SimResult& result);

}  // namespace hulk
