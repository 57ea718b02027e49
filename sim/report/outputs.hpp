#pragma once
/** @file outputs.hpp
 *  @brief Renderings of the result files: result.json, comm.csv rows, trace.json (Chrome trace-event format, one
 *  track per GPU). Their writers (simulate() for comm.csv and trace.json, streamed; its callers for result.json) use
 *  write_file_atomic, so a failed run leaves no half file. */
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/atomic_file.hpp"  // write_file_atomic: callers of the result writers use it for their files too
#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Model FLOPs of one iteration of the job: 3 x the forward FLOPs (backward = 2 x forward) of every
 *  micro-batch of every pipeline, the cost model's count (Narayanan et al. 2021); recomputation is not counted. */
double model_flops_per_iteration(const JobSpec& job);

/** @brief compute_s / iteration_time_s: the share of an iteration a GPU spends computing (mean over ranks); 0 for
 *  an iteration of no time. */
double compute_time_share(const SimResult& result);

/** @brief The JSON result: scenario name, seed, gpus_used, bytes{...} and messages of the cluster, placement{...},
 *  mfu, objective_s (weighted mean iteration time, sim/core/jobs.hpp), makespan_s, and jobs[{name, weight, gpus,
 *  iterations, iteration_time_s, total_time_s, compute_s, compute_time_share, mfu, comm_s{dp,tp,pp}, bubble_s,
 *  bytes, peak_memory_bytes, messages, placement}]. A one-job scenario also has its job's keys at the top
 *  (iteration_time_s, compute_s, ...). mfu = model_flops_per_iteration / iteration_time_s / the summed peak FLOP/s
 *  (GpuSpec::peak_flops at the job's precision) of the job's GPUs; the cluster's sums every job's rates. Every key
 *  is described in docs/outputs.md. */
nlohmann::json result_to_json(const Scenario& scenario, const SimResult& result);

/** @brief comm.csv's first line (with its newline) for one job. */
const char* comm_csv_header();

/** @brief comm.csv's first line for the scenario: with several jobs it starts with a `job` column (the job's name;
 *  the rank columns are then the job's own ranks). */
std::string comm_csv_header(const Scenario& scenario);

/** @brief Appends one comm.csv row (with its newline) for `e` to `out`. */
void append_comm_csv_row(std::string& out, const Scenario& scenario, const CommEvent& e);

/** @brief comm.csv text: header iteration,kind,collective,src_rank,dst_rank,src_host,dst_host,bytes,start_s,end_s. */
std::string comm_csv(const Scenario& scenario, const SimResult& result);

/** @brief How ranks map to trace processes and tracks: one process per host (per job and host with several jobs),
 *  one thread (track) per GPU. */
struct TrackLayout {
  TrackLayout(const Scenario& scenario, const Placement& placement);
  const Placement* placement;
  int hosts = 0;
  std::vector<int> job_of_rank;  ///< empty for one job
};

/** @brief Chrome trace-event JSON: one process per host (per job and host with several jobs), one thread (track)
 *  per GPU. */
nlohmann::json chrome_trace(const Scenario& scenario, const SimResult& result);

/** @brief Writes trace.json span by span, without holding the trace in memory: the bytes are those of
 *  `chrome_trace(scenario, result).dump() + "\n"` for the same placement and spans. */
class ChromeTraceWriter {
 public:
  /** @brief Writes the head of the document and the track names of `placement` to `out`. */
  ChromeTraceWriter(std::ostream& out, const Scenario& scenario, const Placement& placement);
  /** @brief Appends one span (ranks as in the placement). */
  void add(const Span& span);
  /** @brief Appends the scenario's events (Scenario::events) on a track of their own, process "events": one span
   *  per event in force during the run, clipped to [0, end_s] of the run, whose time 0 is origin_s of the
   *  scenario's clock. */
  void add_events(const Scenario& scenario, double origin_s, double end_s);
  /** @brief Ends the document (call once, after the last span). */
  void finish();

 private:
  void event(const nlohmann::json& e);
  std::ostream& out_;
  TrackLayout layout_;
  bool first_ = true;
};

}  // namespace hulk
