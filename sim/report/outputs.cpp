#include "sim/report/outputs.hpp"

#include <cstdio>

#include "sim/core/atomic_file.hpp"
#include "sim/report/placement_json.hpp"

namespace hulk {

namespace {

// Fixed printf formats (not iostream defaults) so the text is byte-identical across runs and locales.
std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

nlohmann::json result_to_json(const Scenario& scenario, const SimResult& result) {
  nlohmann::json j;
  j["scenario"] = scenario.name;
  j["seed"] = scenario.seed;
  j["iterations"] = scenario.job.iterations;
  j["iteration_time_s"] = result.iteration_time_s;
  j["total_time_s"] = result.total_time_s;
  j["compute_s"] = result.compute_s;
  j["comm_s"] = {{"dp", result.comm_dp_s}, {"tp", result.comm_tp_s}, {"pp", result.comm_pp_s}};
  j["bubble_s"] = result.bubble_s;
  j["bytes"] = {{"intra_host", result.bytes.intra_host},
                {"intra_region", result.bytes.intra_region},
                {"inter_region", result.bytes.inter_region}};
  nlohmann::json mem = nlohmann::json::array();
  for (size_t r = 0; r < result.peak_memory_bytes.size(); ++r) {
    const GpuSlot& g = result.placement.gpu_of_rank.at(r);
    mem.push_back({{"rank", r},
                   {"host", scenario.platform.hosts.at(g.host).name},
                   {"slot", g.slot},
                   {"bytes", result.peak_memory_bytes[r]}});
  }
  j["peak_memory_bytes"] = mem;
  j["messages"] = result.messages;
  j["placement"] = placement_to_json(scenario, result.placement);
  return j;
}

const char* comm_csv_header() {
  return "iteration,kind,collective,src_rank,dst_rank,src_host,dst_host,bytes,start_s,end_s\n";
}

void append_comm_csv_row(std::string& out, const Scenario& scenario, const CommEvent& e) {
  const auto& hosts = scenario.platform.hosts;
  out += std::to_string(e.iteration) + ',' + e.kind + ',' + e.collective + ',' + std::to_string(e.src_rank) + ',' +
         std::to_string(e.dst_rank) + ',' + hosts.at(e.src_host).name + ',' + hosts.at(e.dst_host).name + ',' +
         num(e.bytes) + ',' + num(e.start_s) + ',' + num(e.end_s) + '\n';
}

std::string comm_csv(const Scenario& scenario, const SimResult& result) {
  std::string out = comm_csv_header();
  for (const CommEvent& e : result.events) append_comm_csv_row(out, scenario, e);
  return out;
}

namespace {

/** The metadata events that name one process per host and one track per GPU, in rank order. */
nlohmann::json track_names(const Scenario& scenario, const Placement& placement) {
  nlohmann::json events = nlohmann::json::array();
  const auto& hosts = scenario.platform.hosts;
  std::vector<bool> host_named(hosts.size(), false);
  for (size_t r = 0; r < placement.gpu_of_rank.size(); ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    if (!host_named[g.host]) {
      host_named[g.host] = true;
      events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", g.host}, {"tid", 0},
                        {"args", {{"name", hosts[g.host].name}}}});
      events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", g.host}, {"tid", 0},
                        {"args", {{"sort_index", g.host}}}});
    }
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", g.host}, {"tid", g.slot},
                      {"args", {{"name", "GPU " + std::to_string(g.slot) + " (rank " + std::to_string(r) + ")"}}}});
  }
  return events;
}

nlohmann::json span_event(const Placement& placement, const Span& s) {
  const GpuSlot& g = placement.gpu_of_rank.at(s.rank);
  return {{"name", s.name}, {"cat", s.cat}, {"ph", "X"}, {"ts", s.start_s * 1e6},
          {"dur", (s.end_s - s.start_s) * 1e6}, {"pid", g.host}, {"tid", g.slot}};
}

}  // namespace

nlohmann::json chrome_trace(const Scenario& scenario, const SimResult& result) {
  nlohmann::json events = track_names(scenario, result.placement);
  for (const Span& s : result.spans) events.push_back(span_event(result.placement, s));
  return {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
}

// nlohmann::json keeps object keys sorted and dumps without spaces: the document is
// {"displayTimeUnit":"ms","traceEvents":[e1,e2,...]} with each event dumped alone.
ChromeTraceWriter::ChromeTraceWriter(std::ostream& out, const Scenario& scenario, const Placement& placement)
    : out_(out), placement_(placement) {
  out_ << R"({"displayTimeUnit":"ms","traceEvents":[)";
  for (const nlohmann::json& e : track_names(scenario, placement)) event(e);
}

void ChromeTraceWriter::add(const Span& span) { event(span_event(placement_, span)); }

void ChromeTraceWriter::event(const nlohmann::json& e) {
  if (!first_) out_ << ',';
  first_ = false;
  out_ << e.dump();
}

void ChromeTraceWriter::finish() { out_ << "]}\n"; }

}  // namespace hulk
