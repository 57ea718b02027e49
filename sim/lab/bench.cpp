#include "sim/lab/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <sys/resource.h>

#include "sim/core/csv_text.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/core/statistics.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/verified_search.hpp"

namespace hulk {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

SimulationBench bench_simulation(const Scenario& s, const Placement& placement, const BenchOptions& options) {
  SimulationBench out;
  std::vector<double> wall, cpu;
  if (options.release_free_memory) options.release_free_memory();
  for (int i = 0; i < options.reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const nlohmann::json r = run_in_child([&] {
      SimOptions o;
      o.record_events = o.record_spans = false;
      o.tp_closed_form = !options.tp_per_message;
      o.region_zones = !options.one_zone;
      const SimResult res = simulate(s, placement, o);
      rusage usage{};
      ::getrusage(RUSAGE_SELF, &usage);  // Linux: kilobytes; includes what the child shares with its parent
      // Several jobs: the objective (the weighted mean of the jobs' iteration times), as compare reports it.
      return nlohmann::json{
          {"iteration_time_s", names_jobs(s) ? res.objective_s : res.iteration_time_s},
          {"messages", res.messages},
          {"closed_form", res.tp_closed_form_collectives},
          {"simgrid_messages", res.messages - res.tp_closed_form_messages - res.tail_closed_form_messages},
          {"maxrss_kb", usage.ru_maxrss},
          {"cpu_s",
           usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)}};
    });
    wall.push_back(seconds_since(t0));
    cpu.push_back(r["cpu_s"].get<double>());
    out.iteration_time_s = r["iteration_time_s"].get<double>();
    out.messages = r["messages"].get<double>();
    out.closed_form = r["closed_form"].get<double>();
    out.simgrid_messages = r["simgrid_messages"].get<double>();
    out.peak_rss_mb = std::max(out.peak_rss_mb, r["maxrss_kb"].get<double>() / 1024.0);
  }
  out.wall_median_s = median(wall);
  out.cpu_median_s = median(cpu);
  return out;
}

/** Evaluations per second of the analytic estimate of `placement` (the jobs' objective for several jobs), each
 *  computing its pipelines (no cache across evaluations); the median of `reps` runs of 0.3 s. NaN if the estimate
 *  is not finite (an infeasible placement is rejected early: its rate would time nothing). */
double evaluator_rate(const Scenario& s, const Placement& placement, int reps) {
  JobsEvaluator ev(s);           // one job: that job's Evaluator time, bit for bit
  ev.set_pipeline_cache(false);  // one placement again and again: each evaluation computes its pipelines
  if (!std::isfinite(ev.objective_s(placement))) return std::nan("");
  std::vector<double> rates;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    double sink = 0;
    while (seconds_since(t0) < 0.3) sink += ev.objective_s(placement), ++n;
    rates.push_back(n / seconds_since(t0));
    if (sink < 0) std::printf("?");
  }
  return median(rates);
}

/** The median wall time of `reps` cold placements by a registry method (the memo cleared: as in a process of its
 *  own), in seconds. */
double cold_placement_median_s(const Scenario& s, const std::string& method, const MethodOptions& options, int reps) {
  std::vector<double> wall;
  for (int i = 0; i < reps; ++i) {
    PipelineMemo::process().clear();
    const auto t0 = std::chrono::steady_clock::now();
    make_placer(method, options)->place(s);
    wall.push_back(seconds_since(t0));
  }
  return median(wall);
}

/** The gnn method's placement as it places (the learned placer, then the short annealing), timed cold `reps` times
 *  in a child with the model loaded once. One job: also the median of the learned placer's least work, which no
 *  placement that runs greedy and the model can go below. */
GnnBench bench_gnn(const Scenario& s, const BenchOptions& options) {
  const std::string model = model_or_committed(options.model);
  if (options.learned.prepare) options.learned.prepare();  // loaded once, outside the timed placements
  const bool one_job = !names_jobs(s);
  nlohmann::json g = run_in_child([&]() {
    const std::unique_ptr<Placer> placer = options.learned.make_placer(model, LearnedDecoder{});
    const std::unique_ptr<Placer> least = options.learned.make_placer(model, least_work_decoder());
    std::vector<double> ms, least_ms;
    for (int i = 0; i < options.reps; ++i) {
      PipelineMemo::process().clear();  // timed cold, as in a process of its own
      const auto t0 = std::chrono::steady_clock::now();
      const LearnedPlacer learned = [&](const Scenario& x, const std::string&, const Placement* greedy) {
        return place_learned(*placer, x, greedy);
      };
      anneal_learned_placement(s, learned_placement(s, model, learned), gnn_method_anneal_options());  // as gnn places
      ms.push_back(1e3 * seconds_since(t0));
      if (!one_job) continue;
      PipelineMemo::process().clear();
      const auto t1 = std::chrono::steady_clock::now();
      least->place(s);
      least_ms.push_back(1e3 * seconds_since(t1));
    }
    return nlohmann::json{{"median_ms", median(ms)}, {"least_ms", one_job ? median(least_ms) : 0.0}};
  });
  GnnBench out;
  out.median_ms = g["median_ms"].get<double>();
  if (one_job) out.least_ms = g["least_ms"].get<double>();
  return out;
}

std::string iterations_text(const Scenario& s) {
  if (!names_jobs(s)) return std::to_string(s.only_job().iterations) + " iteration(s)";
  std::string out = "iterations";
  for (int j = 0; j < job_count(s); ++j) out += (j ? " / " : " ") + std::to_string(job_at(s, j).iterations);
  return out;
}

}  // namespace

const char* const kBenchCsvHeader =
    "scenario,gpus,hosts,placement,reps,iteration_time_s,wall_median_s,cpu_median_s,peak_rss_mb,messages,"
    "simgrid_messages,tp_closed_form_allreduces\n";

std::string jobs_summary(const Scenario& s) {
  if (!names_jobs(s)) return "job " + parallelism_text(s.only_job());
  std::string out = std::to_string(job_count(s)) + " jobs:";
  for (int j = 0; j < job_count(s); ++j)
    out += (j ? ", " : " ") + job_at(s, j).name + " " + parallelism_text(job_at(s, j));
  return out;
}

std::string bench_csv_row(const BenchReport& report, const SimulationBench& sim, int reps) {
  char numbers[256];
  std::snprintf(numbers, sizeof numbers, ",%d,%.6g,%.3f,%.3f,%.0f,%.0f,%.0f,%.0f\n", reps, sim.iteration_time_s,
                sim.wall_median_s, sim.cpu_median_s, sim.peak_rss_mb, sim.messages, sim.simgrid_messages,
                sim.closed_form);
  return csv_field(report.scenario) + "," + std::to_string(report.gpus) + "," + std::to_string(report.hosts) + "," +
         csv_field(sim.method) + numbers;
}

BenchReport run_bench(const Scenario& s, const BenchOptions& options,
                      const std::function<void(const BenchReport&)>& on_simulation) {
  BenchReport report;
  report.scenario = s.name;
  report.hosts = s.platform.hosts.size();
  report.gpus = s.platform.total_gpus();
  report.threads = task_threads();
  report.jobs = jobs_summary(s);
  report.iterations = iterations_text(s);
  report.several_jobs = names_jobs(s);
  // The first placement is also the one the analytic evaluator times below.
  Placement first;
  for (std::size_t i = 0; i < options.placements.size(); ++i) {
    const auto placed_at = std::chrono::steady_clock::now();
    Placement placement = make_placer(options.placements[i])->place(s);
    const double placement_s = seconds_since(placed_at);
    SimulationBench sim = bench_simulation(s, placement, options);
    sim.method = options.placements[i];
    sim.placement_s = placement_s;
    report.simulations.push_back(sim);
    if (on_simulation) on_simulation(report);
    if (i == 0) first = std::move(placement);
  }
  if (options.simulation_only) return report;
  report.analytic = true;
  report.evaluator_rate = evaluator_rate(s, first, options.reps);
  report.greedy_median_ms = 1e3 * cold_placement_median_s(s, "greedy", MethodOptions{}, options.reps);
  // The registry's "search", the one compare/place/reproduce report: annealing restarts + SimGrid checks.
  MethodOptions search_options;
  search_options.budget = options.budget;
  report.search_median_s = cold_placement_median_s(s, "search", search_options, std::min(options.reps, 3));
  const VerifiedSearchOptions defaults;
  report.search_restarts = defaults.restarts;
  report.search_evaluations = options.budget > 0 ? options.budget : static_cast<long>(defaults.total_evaluations);
  if (options.learned.make_placer) report.gnn = bench_gnn(s, options);
  return report;
}

}  // namespace hulk
