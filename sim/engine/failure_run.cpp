#include "sim/engine/failure_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <cstdio>
#include <sstream>
#include <tuple>

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

/** One job's part of one run: its iterations' start and end times (relative to the run's start) and the
 *  checkpoints it wrote (time, iterations held). */
struct JobIterations {
  std::vector<double> starts, ends;
  std::vector<std::pair<double, int>> checkpoints;
};

/** What one run (one SimGrid run in a child) produced. */
struct AttemptRun {
  nlohmann::json result;            ///< result_to_json of the run
  std::vector<JobIterations> jobs;  ///< per job
  bool stopped = false;
};

AttemptRun run_attempt(const Scenario& scenario, const Placement& placement, SimOptions opts,
                       const std::string& dir) {
  const nlohmann::json j = run_in_child([&]() {
    if (!dir.empty()) opts.trace_dir = dir;  // the caller's record_events / record_spans decide what is written
    const SimResult r = simulate(scenario, placement, opts);
    nlohmann::json jobs = nlohmann::json::array();
    for (const SimResult& job : r.jobs.empty() ? std::vector<SimResult>{r} : r.jobs)
      jobs.push_back(
          {{"starts", job.iteration_start_s}, {"ends", job.iteration_end_s}, {"checkpoints", job.checkpoints}});
    return nlohmann::json{{"result", result_to_json(scenario, r)}, {"jobs", jobs}, {"stopped", r.stopped}};
  });
  AttemptRun out;
  out.result = j.at("result");
  for (const auto& job : j.at("jobs"))
    out.jobs.push_back({job.at("starts").get<std::vector<double>>(), job.at("ends").get<std::vector<double>>(),
                        job.at("checkpoints").get<std::vector<std::pair<double, int>>>()});
  out.stopped = j.at("stopped").get<bool>();
  return out;
}

/** Hosts holding a rank of job j in the placement. */
std::vector<bool> hosts_used(const Scenario& scenario, const Placement& placement, int j) {
  std::vector<bool> used(scenario.platform.hosts.size(), false);
  const int first = job_rank_offset(scenario, j), end = first + job_at(scenario, j).par.ranks();
  for (int r = first; r < end; ++r) used[placement.gpu_of_rank[r].host] = true;
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

/** The placement with job j's ranks on host `failed` moved to idle GPUs (no rank of any job on them) of hosts that
 *  are up: all onto one host if one has room (of the failed host's region first: its tensor-parallel groups stay
 *  inside a host), else one by one in (other region last, host, slot) order; none if there are too few idle GPUs or
 *  the moved ranks do not fit. */
std::optional<Placement> move_to_spares(const Scenario& scenario, const Placement& placement, int j, int failed,
                                        const std::vector<bool>& down) {
  const auto& hosts = scenario.platform.hosts;
  std::vector<std::vector<bool>> busy(hosts.size());
  for (std::size_t h = 0; h < hosts.size(); ++h) busy[h].assign(hosts[h].gpus, false);
  std::vector<int> moved;
  const int first = job_rank_offset(scenario, j), end = first + job_at(scenario, j).par.ranks();
  for (int r = 0; r < static_cast<int>(placement.gpu_of_rank.size()); ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    busy[g.host][g.slot] = true;
    if (g.host == failed && r >= first && r < end) moved.push_back(r);
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
  if (runs_diloco(scenario))
    throw InputError(scenario.file, 0, "events", "events with job.sync.algorithm diloco are not supported yet");
}

/** One job's way through the runs: its attempts (a host failure that hits it ends one; the other jobs go on). */
struct JobProgress {
  int done = 0;          ///< iterations done that the next run starts it from
  double origin = 0;     ///< when it starts in the next run (run clock)
  int restore = 0;       ///< iterations held by the checkpoint a failure would take it back to
  int attempt = 1;       ///< its attempt under way (1-based)
  double attempt_start = 0;
  int attempt_first = 0;  ///< iterations done when the attempt began
  bool finished = false;
  int redone = 0;
  double restart_wait_s = 0, checkpoint_s = 0, wall = 0;
  std::vector<int> failures;  ///< indices of the failures that ended its attempts
  nlohmann::json attempts = nlohmann::json::array(), last;  ///< last: its entry of the last run it ran in
};

/** What the runs so far did: where the next one starts and what the run's outputs will say. */
struct RunProgress {
  Placement current;  ///< the placement the next run runs
  std::vector<JobProgress> jobs;
  double wall = 0;
  std::vector<IterationRow> rows;
  nlohmann::json runs = nlohmann::json::array(), last;  ///< runs: one entry per SimGrid run
};

/** Job j's next failure from its origin (-1: none) and when it hits (infinity: never). */
std::pair<int, double> next_failure_of(const Scenario& scenario, const RunProgress& p, int j) {
  const JobProgress& jp = p.jobs[j];
  const int f = next_failure(scenario.events, hosts_used(scenario, p.current, j), jp.origin, jp.failures);
  // A failure in force when the job starts (fail_at = its origin) ends its attempt at once.
  return {f, f >= 0 ? std::max(scenario.events[f].at_s, jp.origin) : kInf};
}

/** Appends job j's iterations of a run that started at t0 to p.rows; updates its progress and checkpoint. */
void record_job_run(const JobIterations& it, const CheckpointSpec& checkpoint, double t0, int j, RunProgress& p) {
  JobProgress& jp = p.jobs[j];
  jp.checkpoint_s += static_cast<double>(it.checkpoints.size()) * checkpoint.cost_s;
  for (std::size_t i = 0; i < it.ends.size(); ++i) {
    p.rows.push_back({j, jp.attempt, jp.done + static_cast<int>(i) + 1, t0 + it.starts[i], t0 + it.ends[i], true});
    jp.wall = std::max(jp.wall, t0 + it.ends[i]);
  }
  p.wall = std::max(p.wall, jp.wall);
  jp.done += static_cast<int>(it.ends.size());
  if (!it.checkpoints.empty()) jp.restore = it.checkpoints.back().second;
}

/** Closes job j's attempt under way in its `attempts`. */
void close_attempt(JobProgress& jp, const std::string& ended_by, double end_s) {
  jp.attempts.push_back({{"start_s", jp.attempt_start},
                         {"first_iteration", jp.attempt_first},
                         {"iterations_completed", jp.done - jp.attempt_first},
                         {"ended_by", ended_by},
                         {"end_s", end_s}});
}

/** After failure f ended job j's attempt at t: back to the last checkpoint written in the attempt (none: where it
 *  started), the iterations after it marked redone, and its next attempt on spare GPUs or, the host back, on the
 *  same ones. @throws InputError if the host fails for good and no idle GPUs can take its ranks. */
void recover_from_failure(const Scenario& scenario, int f, double t, int j, RunProgress& p) {
  const EventSpec& failure = scenario.events[f];
  JobProgress& jp = p.jobs[j];
  jp.failures.push_back(f);
  close_attempt(jp, failure.origin, t);
  for (IterationRow& r : p.rows)
    if (r.job == j && r.attempt == jp.attempt && r.iteration > jp.restore) r.kept = false;
  jp.redone += jp.done - jp.restore;
  jp.done = jp.restore;
  const std::vector<bool> down = hosts_down(scenario, t);
  const std::optional<Placement> spares = move_to_spares(scenario, p.current, j, failure.target.host, down);
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
  jp.origin = available + failure.restart_s;
  jp.restart_wait_s += jp.origin - t;
  ++jp.attempt;
  jp.attempt_start = jp.origin;
  jp.attempt_first = jp.restore = jp.done;
}

/** Job j, not hit by the failure that stopped the run at t0 + its iterations' times: it goes on in the next run from
 *  the end of its last iteration, or of the checkpoint written after it, its partial iteration simulated again. A
 *  checkpoint the stop cut short is written all the same (a pause of the job's own ranks, which nothing else
 *  changes), and the job goes on once it is. */
void continue_job(const JobIterations& it, const CheckpointSpec& checkpoint, int iterations, double t0, int j,
                  RunProgress& p) {
  JobProgress& jp = p.jobs[j];
  if (it.ends.empty()) return;  // it starts where it was to start
  jp.origin = t0 + it.ends.back();
  const bool due = checkpoint.every > 0 && jp.done % checkpoint.every == 0 && jp.done < iterations;
  if (!due) return;
  if (it.checkpoints.empty() || it.checkpoints.back().second != jp.done) {  // cut short by the stop
    jp.checkpoint_s += checkpoint.cost_s;
    jp.restore = jp.done;
    jp.origin += checkpoint.cost_s;
  } else {
    jp.origin = t0 + it.checkpoints.back().first;
  }
}

/** The run's result.json: the last run's, with whole-run times when there were several, and `events`. */
nlohmann::json run_result(const Scenario& scenario, const Placement& placement, const RunProgress& p);

}  // namespace

nlohmann::json simulate_with_events(const Scenario& scenario, const Placement& placement, const SimOptions& options,
                                    const std::string& out_dir) {
  check_events_supported(scenario);
  const int jobs = job_count(scenario);
  RunProgress p;
  p.current = placement;
  p.jobs.resize(jobs);
  for (int run = 1;; ++run) {
    double t0 = kInf, stop = kInf;
    int stopper = -1;  // the job whose failure stops the run
    std::vector<std::pair<int, double>> failure(jobs, {-1, kInf});
    for (int j = 0; j < jobs; ++j) {
      if (p.jobs[j].finished) continue;
      t0 = std::min(t0, p.jobs[j].origin);
      failure[j] = next_failure_of(scenario, p, j);
      if (failure[j].second < stop) std::tie(stop, stopper) = std::make_pair(failure[j].second, j);
    }
    Scenario part = scenario;
    SimOptions opts = options;
    opts.apply_events = true;
    opts.event_origin_s = t0;
    opts.stop_at_s = stop - t0;
    opts.job_starts.assign(jobs, {});
    for (int j = 0; j < jobs; ++j) {
      const JobProgress& jp = p.jobs[j];
      part.jobs[j].iterations = jp.finished ? 0 : job_at(scenario, j).iterations - jp.done;
      opts.job_starts[j] = {jp.finished ? 0.0 : jp.origin - t0, jp.done};
    }
    const AttemptRun ran = run_attempt(part, p.current, opts, attempt_dir(out_dir, run));
    nlohmann::json entry = {{"start_s", t0},
                            {"first_iteration", p.jobs.front().done},
                            {"iterations_completed", ran.jobs.front().ends.size()}};
    p.last = ran.result;
    for (int j = 0; j < jobs; ++j) {
      if (p.jobs[j].finished) continue;
      if (names_jobs(scenario)) p.jobs[j].last = ran.result.at("jobs").at(j);
      record_job_run(ran.jobs[j], job_at(scenario, j).checkpoint, t0, j, p);
    }
    entry["ended_by"] = ran.stopped ? scenario.events[failure[stopper].first].origin : "end";
    entry["end_s"] = ran.stopped ? stop : p.wall;
    p.runs.push_back(entry);
    for (int j = 0; j < jobs; ++j) {
      JobProgress& jp = p.jobs[j];
      if (jp.finished) continue;
      if (jp.done == job_at(scenario, j).iterations) {
        close_attempt(jp, "end", jp.wall);
        jp.finished = true;
      } else if (failure[j].second == stop) {
        recover_from_failure(scenario, failure[j].first, stop, j, p);
      } else {
        continue_job(ran.jobs[j], job_at(scenario, j).checkpoint, job_at(scenario, j).iterations, t0, j, p);
      }
    }
    if (!ran.stopped || std::all_of(p.jobs.begin(), p.jobs.end(), [](const JobProgress& jp) { return jp.finished; }))
      break;
  }
  const nlohmann::json result = run_result(scenario, placement, p);
  if (!out_dir.empty()) {
    write_iterations_csv(out_dir + "/iterations.csv", scenario, p.rows);
    write_file_atomic(out_dir + "/result.json", result.dump(2) + "\n");
  }
  return result;
}

namespace {

/** Goodput: the share of the wall time spent in iterations that count. With several jobs, each job's share of its
 *  own run (until its last iteration ended), averaged over the jobs: their iterations overlap in time (summed over
 *  the jobs, two jobs gave more than 100%), and a job that finished early is not idle for the others' time. */
double goodput_of(const RunProgress& p) {
  const int jobs = static_cast<int>(p.jobs.size());
  std::vector<double> kept_time(jobs, 0.0), span(jobs, jobs == 1 ? p.wall : 0.0);
  for (const IterationRow& r : p.rows) {
    if (r.kept) kept_time[r.job] += r.end_s - r.start_s;
    if (jobs > 1) span[r.job] = std::max(span[r.job], r.end_s);
  }
  double goodput = 0;
  for (int j = 0; j < jobs; ++j) goodput += (span[j] > 0 ? kept_time[j] / span[j] : 1.0) / jobs;
  return goodput;
}

/** Several jobs after more than one run: each job's entry from the last run it ran in, with its whole-run times;
 *  the objective and makespan from those. */
void several_jobs_times(const Scenario& scenario, const RunProgress& p, nlohmann::json& result) {
  std::vector<double> times;
  for (int j = 0; j < job_count(scenario); ++j) {
    const int iterations = job_at(scenario, j).iterations;
    nlohmann::json& entry = result["jobs"][j] = p.jobs[j].last;
    entry["iterations"] = iterations;
    entry["total_time_s"] = p.jobs[j].wall;
    entry["iteration_time_s"] = p.jobs[j].wall / iterations;
    times.push_back(p.jobs[j].wall / iterations);
  }
  result["objective_s"] = weighted_objective(scenario, times);
  result["makespan_s"] = p.wall;
}

nlohmann::json run_result(const Scenario& scenario, const Placement& placement, const RunProgress& p) {
  nlohmann::json result = p.last;
  if (p.runs.size() > 1) {  // times over the whole run, not the last run's
    if (names_jobs(scenario)) {
      several_jobs_times(scenario, p, result);
    } else {
      const int total_iterations = scenario.only_job().iterations;
      result["iterations"] = total_iterations;
      result["total_time_s"] = p.wall;
      result["iteration_time_s"] = p.wall / total_iterations;
      result["jobs"][0]["iteration_time_s"] = p.wall / total_iterations;
      result["objective_s"] = p.wall / total_iterations;
      result["makespan_s"] = p.wall;
    }
    result["placement_after_failures"] = result["placement"];
    result["placement"] = placement_to_json(scenario, placement);
  }
  int redone = 0;
  double restart_s = 0, checkpoint_s = 0;
  const bool has_failures = std::any_of(scenario.events.begin(), scenario.events.end(),
                                        [](const EventSpec& e) { return e.kind == EventSpec::Kind::host_fail; });
  for (std::size_t j = 0; j < p.jobs.size(); ++j) {
    const JobProgress& jp = p.jobs[j];
    redone += jp.redone;
    restart_s += jp.restart_wait_s;
    checkpoint_s += jp.checkpoint_s;
    if (names_jobs(scenario) && has_failures)  // each job's own attempts
      result["jobs"][j]["events"] = {{"attempts", jp.attempts},
                                     {"redone_iterations", jp.redone},
                                     {"restart_s", jp.restart_wait_s},
                                     {"checkpoint_s", jp.checkpoint_s}};
  }
  result["events"] = {{"wall_s", p.wall},        {"attempts", p.runs},        {"redone_iterations", redone},
                      {"restart_s", restart_s},  {"checkpoint_s", checkpoint_s}, {"goodput", goodput_of(p)},
                      {"count", scenario.events.size()}};
  return result;
}

}  // namespace

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
