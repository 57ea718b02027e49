#include "sim/engine/failure_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <cstdio>
#include <sstream>

#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/report/outputs.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/topology/event_timeline.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/** One job's iterations in one attempt: start and end times, relative to the attempt's start. */
struct JobIterations {
  std::vector<double> starts, ends;
};

/** What one attempt (one SimGrid run in a child) produced. */
struct AttemptRun {
  nlohmann::json result;                          ///< result_to_json of the attempt
  std::vector<JobIterations> jobs;                ///< per job
  std::vector<std::pair<double, int>> checkpoints;  ///< (time, iterations held), the first job's
  bool stopped = false;
};

AttemptRun run_attempt(const Scenario& scenario, const Placement& placement, SimOptions opts,
                       const std::string& dir) {
  const nlohmann::json j = run_in_child([&]() {
    if (!dir.empty()) opts.trace_dir = dir;  // the caller's record_events / record_spans decide what is written
    const SimResult r = simulate(scenario, placement, opts);
    nlohmann::json jobs = nlohmann::json::array();
    if (r.jobs.empty()) jobs.push_back({{"starts", r.iteration_start_s}, {"ends", r.iteration_end_s}});
    for (const SimResult& job : r.jobs)
      jobs.push_back({{"starts", job.iteration_start_s}, {"ends", job.iteration_end_s}});
    return nlohmann::json{{"result", result_to_json(scenario, r)},
                          {"jobs", jobs},
                          {"checkpoints", r.checkpoints},
                          {"stopped", r.stopped}};
  });
  AttemptRun out;
  out.result = j.at("result");
  for (const auto& job : j.at("jobs"))
    out.jobs.push_back({job.at("starts").get<std::vector<double>>(), job.at("ends").get<std::vector<double>>()});
  out.checkpoints = j.at("checkpoints").get<std::vector<std::pair<double, int>>>();
  out.stopped = j.at("stopped").get<bool>();
  return out;
}

/** Hosts holding a rank of the placement. */
std::vector<bool> hosts_used(const Scenario& scenario, const Placement& placement) {
  std::vector<bool> used(scenario.platform.hosts.size(), false);
  for (const GpuSlot& g : placement.gpu_of_rank) used[g.host] = true;
  return used;
}

/** Hosts down at time t: those with a failure in force then (whether it hit the job or not: a spare that died is
 *  no spare). */
std::vector<bool> hosts_down(const Scenario& scenario, double t) {
  std::vector<bool> down(scenario.platform.hosts.size(), false);
  for (const EventSpec& e : scenario.events)
    if (e.kind == EventSpec::Kind::host_fail && e.active_at(t)) down[e.target.host] = true;
  return down;
}

/** The placement with the ranks of `failed` moved to idle GPUs of hosts that are up: all onto one host if one has
 *  room (of the failed host's region first: its tensor-parallel groups stay inside a host), else one by one in
 *  (other region last, host, slot) order; none if there are too few idle GPUs or the moved ranks do not fit. */
std::optional<Placement> move_to_spares(const Scenario& scenario, const Placement& placement, int failed,
                                        const std::vector<bool>& down) {
  const auto& hosts = scenario.platform.hosts;
  std::vector<std::vector<bool>> busy(hosts.size());
  for (std::size_t h = 0; h < hosts.size(); ++h) busy[h].assign(hosts[h].gpus, false);
  std::vector<int> moved;
  for (std::size_t r = 0; r < placement.gpu_of_rank.size(); ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    busy[g.host][g.slot] = true;
    if (g.host == failed) moved.push_back(static_cast<int>(r));
  }
  std::vector<GpuSlot> idle;
  std::vector<int> hosts_by_preference;
  for (int h = 0; h < static_cast<int>(hosts.size()); ++h)
    if (h != failed && !down[h]) hosts_by_preference.push_back(h);
  std::stable_sort(hosts_by_preference.begin(), hosts_by_preference.end(), [&](int a, int b) {
    return (hosts[a].region != hosts[failed].region) < (hosts[b].region != hosts[failed].region);
  });
  for (int h : hosts_by_preference) {
    std::vector<GpuSlot> free_here;
    for (int s = 0; s < hosts[h].gpus; ++s)
      if (!busy[h][s]) free_here.push_back({h, s});
    if (free_here.size() >= moved.size()) {  // one host takes them all
      idle = free_here;
      break;
    }
    idle.insert(idle.end(), free_here.begin(), free_here.end());
  }
  if (idle.size() < moved.size()) return std::nullopt;
  Placement out = placement;
  for (std::size_t i = 0; i < moved.size(); ++i) out.gpu_of_rank[moved[i]] = idle[i];
  if (!placement_problem(scenario, out, checks_memory(scenario)).empty()) return std::nullopt;
  return out;
}

/** One row of iterations.csv. */
struct IterationRow {
  int job = 0;
  int attempt = 0;
  int iteration = 0;  ///< counted from the job's start (1-based)
  double start_s = 0, end_s = 0;
  bool kept = true;   ///< false: redone after a failure
};

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

void write_iterations_csv(const std::string& path, const Scenario& scenario, const std::vector<IterationRow>& rows) {
  const bool several = names_jobs(scenario);
  std::ostringstream out;
  out << (several ? "job," : "") << "attempt,iteration,start_s,end_s,time_s,kept\n";
  for (const IterationRow& r : rows) {
    if (several) out << job_at(scenario, r.job).name << ",";
    out << r.attempt << "," << r.iteration << "," << num(r.start_s) << "," << num(r.end_s) << ","
        << num(r.end_s - r.start_s) << "," << (r.kept ? 1 : 0) << "\n";
  }
  write_file_atomic(path, out.str());
}

std::string attempt_dir(const std::string& out_dir, int attempt) {
  if (out_dir.empty()) return "";
  return attempt == 1 ? out_dir : out_dir + "/attempt-" + std::to_string(attempt);
}

}  // namespace

namespace {

void check_events_supported(const Scenario& scenario) {
  const bool has_failures = std::any_of(scenario.events.begin(), scenario.events.end(),
                                        [](const EventSpec& e) { return e.kind == EventSpec::Kind::host_fail; });
  if (runs_diloco(scenario))
    throw InputError(scenario.file, 0, "events", "events with job.sync.algorithm diloco are not supported yet");
  if (has_failures && names_jobs(scenario))
    throw InputError(scenario.file, 0, "events", "host failures with several jobs are not supported yet");
}

/** What the attempts so far did: where the next one starts and what the run's outputs will say. */
struct RunProgress {
  Placement current;  ///< the placement the next attempt runs
  double origin = 0;  ///< when the next attempt starts (run clock)
  int done = 0;       ///< iterations in the checkpoint the next attempt starts from
  int redone = 0;
  double restart_wait_s = 0, checkpoint_s = 0, wall = 0;
  std::vector<int> failures;  ///< indices of the failures that ended attempts
  std::vector<IterationRow> rows;
  nlohmann::json attempts = nlohmann::json::array(), last;
};

/** Appends one attempt's iterations to p.rows (and its checkpoints' cost); returns its attempts entry. */
nlohmann::json record_attempt(const AttemptRun& run, int attempt, const CheckpointSpec& checkpoint, RunProgress& p) {
  p.last = run.result;
  p.checkpoint_s += static_cast<double>(run.checkpoints.size()) * checkpoint.cost_s;
  for (std::size_t j = 0; j < run.jobs.size(); ++j) {
    const JobIterations& it = run.jobs[j];
    for (std::size_t i = 0; i < it.ends.size(); ++i) {
      p.rows.push_back({static_cast<int>(j), attempt, p.done + static_cast<int>(i) + 1, p.origin + it.starts[i],
                        p.origin + it.ends[i], true});
      p.wall = std::max(p.wall, p.origin + it.ends[i]);
    }
  }
  return {{"start_s", p.origin}, {"first_iteration", p.done}, {"iterations_completed", run.jobs.front().ends.size()}};
}

/** After failure f ended an attempt: back to the last checkpoint written before it (none in this attempt: where it
 *  started), the iterations after it marked redone, and the next attempt on spare GPUs or, the host back, on the same
 *  ones. @throws InputError if the host fails for good and no idle GPUs can take its ranks. */
void recover_from_failure(const Scenario& scenario, int f, double t, const AttemptRun& run, std::size_t first_row,
                          RunProgress& p) {
  const EventSpec& failure = scenario.events[f];
  p.failures.push_back(f);
  const int reached = p.done + static_cast<int>(run.jobs.front().ends.size());
  const int restored = run.checkpoints.empty() ? p.done : run.checkpoints.back().second;
  for (std::size_t r = first_row; r < p.rows.size(); ++r)
    if (p.rows[r].iteration > restored) p.rows[r].kept = false;
  p.redone += reached - restored;
  p.done = restored;
  const std::vector<bool> down = hosts_down(scenario, t);
  const std::optional<Placement> spares = move_to_spares(scenario, p.current, failure.target.host, down);
  double available = t;
  if (spares) {
    p.current = *spares;
  } else if (std::isfinite(failure.duration_s)) {
    available = std::max(t, failure.at_s + failure.duration_s);  // the same GPUs, once the host is back
  } else {
    throw InputError(scenario.file, failure.line, failure.origin,
                     "host '" + scenario.platform.hosts[failure.target.host].name +
                         "' fails for good and no idle GPUs can take its ranks: the job cannot finish (give the "
                         "failure a `for:` duration or leave spare GPUs)");
  }
  p.origin = available + failure.restart_s;
  p.restart_wait_s += p.origin - t;
}

/** The run's result.json: the last attempt's, with whole-run times when there were several, and `events`. */
nlohmann::json run_result(const Scenario& scenario, const Placement& placement, int total_iterations,
                          const RunProgress& p) {
  // Goodput: the share of the wall time spent in iterations that count. With several jobs, each job's share of its
  // own run (until its last iteration ended), averaged over the jobs: their iterations overlap in time (summed over
  // the jobs, two jobs gave more than 100%), and a job that finished early is not idle for the others' time.
  const int jobs = std::max(1, job_count(scenario));
  std::vector<double> kept_time(jobs, 0.0), span(jobs, jobs == 1 ? p.wall : 0.0);
  for (const IterationRow& r : p.rows) {
    const int j = std::min(std::max(r.job, 0), jobs - 1);
    if (r.kept) kept_time[j] += r.end_s - r.start_s;
    if (jobs > 1) span[j] = std::max(span[j], r.end_s);
  }
  double goodput = 0;
  for (int j = 0; j < jobs; ++j) goodput += (span[j] > 0 ? kept_time[j] / span[j] : 1.0) / jobs;
  nlohmann::json result = p.last;
  if (p.attempts.size() > 1) {  // times over the whole run, not the last attempt's
    result["iterations"] = total_iterations;
    result["total_time_s"] = p.wall;
    result["iteration_time_s"] = p.wall / total_iterations;
    result["jobs"][0]["iteration_time_s"] = p.wall / total_iterations;
    if (result.contains("objective_s")) result["objective_s"] = p.wall / total_iterations;
    if (result.contains("makespan_s")) result["makespan_s"] = p.wall;
    result["placement_after_failures"] = result["placement"];
    result["placement"] = placement_to_json(scenario, placement);
  }
  result["events"] = {{"wall_s", p.wall},
                       {"attempts", p.attempts},
                       {"redone_iterations", p.redone},
                       {"restart_s", p.restart_wait_s},
                       {"checkpoint_s", p.checkpoint_s},
                       {"goodput", goodput},
                       {"count", scenario.events.size()}};
  return result;
}

}  // namespace

nlohmann::json simulate_with_events(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                    const std::string& out_dir) {
  check_events_supported(scenario);
  const int total_iterations = job_at(scenario, 0).iterations;
  RunProgress p;
  p.current = placement;
  for (int attempt = 1;; ++attempt) {
    const int f = next_failure(scenario.events, hosts_used(scenario, p.current), p.origin, p.failures);
    Scenario part = scenario;
    if (!names_jobs(part)) part.only_job().iterations = total_iterations - p.done;
    SimOptions opts = options;
    opts.apply_events = true;
    opts.event_origin_s = p.origin;
    opts.first_iteration = p.done;
    // A failure in force when the attempt starts (fail_at = its origin) ends it at once.
    const double fail_at = f >= 0 ? std::max(scenario.events[f].at_s, p.origin) : kInf;
    opts.stop_at_s = fail_at - p.origin;
    const AttemptRun run = run_attempt(part, p.current, opts, attempt_dir(out_dir, attempt));
    const std::size_t first_row = p.rows.size();
    nlohmann::json entry = record_attempt(run, attempt, job_at(scenario, 0).checkpoint, p);
    if (!run.stopped) {
      entry["ended_by"] = "end";
      entry["end_s"] = p.wall;
      p.attempts.push_back(entry);
      break;
    }
    entry["ended_by"] = scenario.events[f].origin;
    entry["end_s"] = fail_at;
    p.attempts.push_back(entry);
    recover_from_failure(scenario, f, fail_at, run, first_row, p);
  }
  const nlohmann::json result = run_result(scenario, placement, total_iterations, p);
  if (!out_dir.empty()) {
    write_iterations_csv(out_dir + "/iterations.csv", scenario, p.rows);
    write_file_atomic(out_dir + "/result.json", result.dump(2) + "\n");
  }
  return result;
}

std::vector<EventCost> event_costs(const Scenario& scenario, const Placement& placement, const SimOptions& options) {
  SimOptions quiet_options = options;
  quiet_options.record_events = quiet_options.record_spans = false;
  quiet_options.trace_dir.clear();
  const auto wall = [&](const Scenario& s) {
    return simulate_with_events(s, placement, quiet_options).at("events").at("wall_s").get<double>();
  };
  const double all = wall(scenario);
  Scenario quiet = scenario;
  quiet.events.clear();
  std::vector<EventCost> out{{"all", all - wall(quiet)}};
  // Rows of one trace file are one event: "<file> row N" -> "<file>".
  const auto group = [](const EventSpec& e) {
    const std::size_t row = e.origin.rfind(" row ");
    return row == std::string::npos ? e.origin : e.origin.substr(0, row);
  };
  std::vector<std::string> groups;
  for (const EventSpec& e : scenario.events)
    if (std::find(groups.begin(), groups.end(), group(e)) == groups.end()) groups.push_back(group(e));
  for (const std::string& g : groups) {
    Scenario without = scenario;
    without.events.clear();
    for (const EventSpec& e : scenario.events)
      if (group(e) != g) without.events.push_back(e);
    out.push_back({g, all - wall(without)});
  }
  return out;
}

}  // namespace hulk
