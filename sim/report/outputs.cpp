#include "sim/report/outputs.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/core/atomic_file.hpp"
#include "sim/core/csv_text.hpp"
#include "sim/core/jobs.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/workload/cost_model.hpp"

namespace hulk {

namespace {

// Fixed printf formats (not iostream defaults) so the text is byte-identical across runs and locales.
std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

namespace {

nlohmann::json comm_json(const SimResult& r) {
  return {{"dp", r.comm_dp_s}, {"tp", r.comm_tp_s}, {"pp", r.comm_pp_s}};
}

nlohmann::json iteration_costs_json(const IterationCosts& c) {
  return {{"optimizer_step_s", c.optimizer_step_s},
          {"grad_norm_allreduce_s", c.grad_norm_allreduce_s},
          {"embedding_allreduce_s", c.embedding_allreduce_s},
          {"framework_overhead_s", c.framework_overhead_s}};
}

nlohmann::json bytes_json(const BytesByClass& b) {
  return {{"intra_host", b.intra_host}, {"intra_region", b.intra_region}, {"inter_region", b.inter_region}};
}

/** Each rank's peak memory, with the rank's coordinates and GPU (rank_json) beside it (`job` as rank_json's). */
nlohmann::json memory_json(const Scenario& scenario, const SimResult& result, const std::string& job) {
  nlohmann::json mem = nlohmann::json::array();
  for (size_t r = 0; r < result.peak_memory_bytes.size(); ++r) {
    nlohmann::json e = rank_json(scenario, result.placement, static_cast<int>(r), job);
    e["bytes"] = result.peak_memory_bytes[r];
    mem.push_back(e);
  }
  return mem;
}

/** Model FLOP/s of a job over the peak FLOP/s of its GPUs, and each term (mfu(): their ratio). */
struct FlopRates {
  double model = 0, peak = 0;
  double mfu() const { return peak > 0 ? model / peak : 0; }
};

FlopRates flop_rates(const Scenario& view, const SimResult& r) {
  FlopRates f;
  if (r.iteration_time_s > 0) f.model = model_flops_per_iteration(view.only_job()) / r.iteration_time_s;
  for (const GpuSlot& g : r.placement.gpu_of_rank)
    f.peak += view.platform.hosts.at(g.host).gpu.peak_flops(view.only_job().precision);
  return f;
}

/** One job's entry of "jobs": its times, traffic, memory and placement (`view` is the job's one-job scenario). */
nlohmann::json job_json(const Scenario& view, const SimResult& r) {
  const JobSpec& job = view.only_job();
  return {{"name", job.name.empty() ? job.model.name : job.name},
          {"weight", job.weight},
          {"gpus", r.placement.gpu_of_rank.size()},
          {"iterations", job.iterations},
          {"iteration_time_s", r.iteration_time_s},
          {"total_time_s", r.total_time_s},
          {"compute_s", r.compute_s},
          {"compute_time_share", compute_time_share(r)},
          {"mfu", flop_rates(view, r).mfu()},
          {"comm_s", comm_json(r)},
          {"bubble_s", r.bubble_s},
          {"iteration_costs", iteration_costs_json(r.iteration_costs)},
          {"bytes", bytes_json(r.bytes)},
          {"peak_memory_bytes", memory_json(view, r, job.name)},
          {"messages", r.messages},
          {"placement", placement_to_json(view, r.placement)}};
}

}  // namespace

double model_flops_per_iteration(const JobSpec& job) {
  const JobCost cost = compute_job_cost(job);
  double forward = 0;  // one micro-batch's forward over every stage, per TP rank
  for (const StageCost& st : cost.stages) forward += st.fwd_flops_per_mb();
  // Backward is twice the forward; recomputation is not model work (MFU, not hardware FLOPs utilisation).
  return 3.0 * forward * job.par.tp * cost.micro_batches * job.par.dp;
}

double compute_time_share(const SimResult& r) { return r.iteration_time_s > 0 ? r.compute_s / r.iteration_time_s : 0; }

nlohmann::json result_to_json(const Scenario& scenario, const SimResult& result) {
  nlohmann::json j;
  j["scenario"] = scenario.name;
  j["seed"] = scenario.seed;
  j["gpus_used"] = result.placement.gpu_of_rank.size();
  j["bytes"] = bytes_json(result.bytes);
  j["messages"] = result.messages;
  j["placement"] = placement_to_json(scenario, result.placement);
  if (names_jobs(scenario)) {
    nlohmann::json jobs = nlohmann::json::array();
    for (int k = 0; k < job_count(scenario); ++k) jobs.push_back(job_json(job_view(scenario, k), result.jobs.at(k)));
    j["jobs"] = jobs;
    // The cluster's: every job's model FLOP/s over the peak of every GPU used (the jobs run at the same time).
    FlopRates all;
    for (int k = 0; k < job_count(scenario); ++k) {
      const FlopRates one = flop_rates(job_view(scenario, k), result.jobs.at(k));
      all.model += one.model;
      all.peak += one.peak;
    }
    j["mfu"] = all.mfu();
    j["objective_s"] = result.objective_s;
    j["makespan_s"] = result.makespan_s;
    return j;
  }
  // One job: its keys at the top (as before several jobs existed), and the several-job keys as well.
  j["iterations"] = scenario.only_job().iterations;
  j["iteration_time_s"] = result.iteration_time_s;
  j["total_time_s"] = result.total_time_s;
  j["compute_s"] = result.compute_s;
  j["compute_time_share"] = compute_time_share(result);
  j["mfu"] = flop_rates(scenario, result).mfu();
  j["comm_s"] = comm_json(result);
  j["bubble_s"] = result.bubble_s;
  j["iteration_costs"] = iteration_costs_json(result.iteration_costs);
  j["peak_memory_bytes"] = memory_json(scenario, result, "");
  j["jobs"] = nlohmann::json::array({job_json(scenario, result)});
  j["objective_s"] = result.iteration_time_s;
  j["makespan_s"] = result.total_time_s;
  return j;
}

const char* comm_csv_header() {
  return "iteration,kind,collective,src_rank,dst_rank,src_host,dst_host,bytes,start_s,end_s\n";
}

std::string comm_csv_header(const Scenario& scenario) {
  return std::string(names_jobs(scenario) ? "job," : "") + comm_csv_header();
}

void append_comm_csv_row(std::string& out, const Scenario& scenario, const CommEvent& e) {
  const auto& hosts = scenario.platform.hosts;
  if (names_jobs(scenario)) out += csv_field(scenario.jobs.at(e.job).name) + ',';
  out += std::to_string(e.iteration) + ',' + e.kind + ',' + e.collective + ',' + std::to_string(e.src_rank) + ',' +
         std::to_string(e.dst_rank) + ',' + csv_field(hosts.at(e.src_host).name) + ',' +
         csv_field(hosts.at(e.dst_host).name) + ',' + num(e.bytes) + ',' + num(e.start_s) + ',' + num(e.end_s) + '\n';
}

std::string comm_csv(const Scenario& scenario, const SimResult& result) {
  std::string out = comm_csv_header(scenario);
  for (const CommEvent& e : result.events) append_comm_csv_row(out, scenario, e);
  return out;
}

namespace {

/** The trace's process of a rank: its host; with several jobs one process per (job, host), so that each job's GPUs
 *  form a group of tracks (job after job). */
int process_of(const TrackLayout& layout, int rank) {
  const GpuSlot& g = layout.placement->gpu_of_rank.at(rank);
  if (layout.job_of_rank.empty()) return g.host;
  return layout.job_of_rank[rank] * layout.hosts + g.host;
}

/** The metadata events that name one process per host (per job and host with several jobs) and one track per GPU,
 *  in rank order. */
nlohmann::json track_names(const Scenario& scenario, const TrackLayout& layout) {
  nlohmann::json events = nlohmann::json::array();
  const auto& hosts = scenario.platform.hosts;
  const Placement& placement = *layout.placement;
  std::vector<bool> named(hosts.size() * job_count(scenario), false);
  for (size_t r = 0; r < placement.gpu_of_rank.size(); ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    const int pid = process_of(layout, static_cast<int>(r));
    const int job = layout.job_of_rank.empty() ? 0 : layout.job_of_rank[r];
    const std::string job_prefix = layout.job_of_rank.empty() ? "" : scenario.jobs[job].name + ": ";
    if (!named[pid]) {
      named[pid] = true;
      events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0},
                        {"args", {{"name", job_prefix + hosts[g.host].name}}}});
      events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", 0},
                        {"args", {{"sort_index", pid}}}});
    }
    const int local = static_cast<int>(r) - job_rank_offset(scenario, job);
    const std::string rank_text = layout.job_of_rank.empty()
                                      ? "rank " + std::to_string(r)
                                      : scenario.jobs[job].name + " rank " + std::to_string(local);
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", g.slot},
                      {"args", {{"name", "GPU " + std::to_string(g.slot) + " (" + rank_text + ")"}}}});
  }
  return events;
}

nlohmann::json span_event(const TrackLayout& layout, const Span& s) {
  const GpuSlot& g = layout.placement->gpu_of_rank.at(s.rank);
  return {{"name", s.name}, {"cat", s.cat}, {"ph", "X"}, {"ts", s.start_s * 1e6},
          {"dur", (s.end_s - s.start_s) * 1e6}, {"pid", process_of(layout, s.rank)}, {"tid", g.slot}};
}

}  // namespace

TrackLayout::TrackLayout(const Scenario& scenario, const Placement& placement)
    : placement(&placement), hosts(static_cast<int>(scenario.platform.hosts.size())) {
  if (names_jobs(scenario))
    for (int r = 0; r < total_ranks(scenario); ++r) job_of_rank.push_back(hulk::job_of_rank(scenario, r));
}

nlohmann::json chrome_trace(const Scenario& scenario, const SimResult& result) {
  const TrackLayout layout(scenario, result.placement);
  nlohmann::json events = track_names(scenario, layout);
  for (const Span& s : result.spans) events.push_back(span_event(layout, s));
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

// nlohmann::json keeps object keys sorted and dumps without spaces: the document is
// {"displayTimeUnit":"ms","traceEvents":[e1,e2,...]} with each event dumped alone.
ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, const Scenario& scenario, const Placement& placement)
    : out_(out), layout_(scenario, placement) {
  out_ << R"({"displayTimeUnit":"ms","traceEvents":[)";
  for (const nlohmann::json& e : track_names(scenario, layout_)) event(e);
}

void ChromeTraceWriter::add(const Span& span) { event(span_event(layout_, span)); }

void ChromeTraceWriter::event(const nlohmann::json& e) {
  if (!first_) out_ << ',';
  first_ = false;
  out_ << e.dump();
}

void ChromeTraceWriter::add_events(const Scenario& scenario, double origin_s, double end_s) {
  if (scenario.events.empty()) return;
  const int pid = layout_.hosts * job_count(scenario);  // after every (job, host) process
  event({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"name", "events"}}}});
  event({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid}, {"tid", 0}, {"args", {{"sort_index", -1}}}});
  static const char* kinds[] = {"link change", "link down", "straggler", "host failure"};
  for (const EventSpec& e : scenario.events) {
    const double start = std::max(0.0, e.at_s - origin_s);
    const double end = std::min(end_s, e.at_s + e.duration_s - origin_s);
    if (end <= start && !(e.kind == EventSpec::Kind::host_fail && start <= end_s)) continue;
    event({{"name", e.origin + ": " + kinds[static_cast<int>(e.kind)]},
           {"cat", "event"},
           {"ph", "X"},
           {"ts", start * 1e6},
           {"dur", std::max(0.0, end - start) * 1e6},
           {"pid", pid},
           {"tid", static_cast<int>(e.kind)}});
  }
}

void ChromeTraceWriter::finish() { out_ << "]}\n"; }

}  // namespace hulk
