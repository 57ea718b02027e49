// `hulk bench`: wall-clock medians of the operations whose speed the issues set goals for, on real scenario files.
// Simulations run forked (as in compare); the GNN runs in its own child (torch). Micro-benchmarks of the
// evaluator and placers are also in tests/bench (Google Benchmark).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <fstream>
#include <memory>

#include <jemalloc/jemalloc.h>
#include <sys/resource.h>

#include "tools/cli/comma_list.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/core/statistics.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/place/placer.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/csv_text.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/simulator.hpp"
#include "tools/cli/gnn_plugin_loader.hpp"

namespace hulk::cli {
namespace {

struct BenchArgs {
  std::vector<std::string> files;
  int reps = 5;
  std::string model;
  bool skip_gnn = false;
  long budget = 0;  ///< search budget (0 = the default, as compare)
  bool simulation_only = false;
  std::string placement = "greedy";   ///< --placement as given: one method or several, comma-separated
  std::vector<std::string> placements;  ///< its methods, simulated one after the other, one line (and CSV row) each
  bool tp_per_message = false;
  bool one_zone = false;   ///< --one-zone: every route in one SimGrid zone (SimOptions::region_zones off)
  std::string csv;         ///< scale table rows (simulation only), "" = none
  std::string csv_rows;    ///< accumulated rows
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/** The simulation of one placement in forked children: wall-clock median and the child's peak resident memory. */
struct SimulationBench {
  double wall_median_s = 0, peak_rss_mb = 0, iteration_time_s = 0, messages = 0, closed_form = 0;
  double cpu_median_s = 0;      ///< the child's own user + system CPU time: steadier than wall on a shared machine
  double simgrid_messages = 0;  ///< messages SimGrid simulated (the others are closed-form TP ring steps)
};

/** Gives the pages jemalloc keeps for reuse back to the system. The simulating child shares the parent's resident
 *  pages and counts them in its peak RSS: after the 16,384-GPU scenario, the 64-GPU one's child reported 47 MB
 *  instead of 11 MB in one `bench scale-*.yaml` run. */
void release_free_memory() {
  const std::string purge = "arena." + std::to_string(MALLCTL_ARENAS_ALL) + ".purge";
  mallctl(purge.c_str(), nullptr, nullptr, nullptr, 0);
}

SimulationBench bench_simulation(const Scenario& s, const Placement& placement, const BenchArgs& args) {
  SimulationBench out;
  std::vector<double> wall, cpu;
  release_free_memory();
  for (int i = 0; i < args.reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const nlohmann::json r = run_in_child([&] {
      SimOptions o;
      o.record_events = o.record_spans = false;
      o.tp_closed_form = !args.tp_per_message;
      o.region_zones = !args.one_zone;
      const SimResult res = simulate(s, placement, o);
      rusage usage{};
      ::getrusage(RUSAGE_SELF, &usage);  // Linux: kilobytes; includes what the child shares with its parent
      // Several jobs: the objective (the weighted mean of the jobs' iteration times), as compare reports it.
      return nlohmann::json{{"iteration_time_s", has_several_jobs(s) ? res.objective_s : res.iteration_time_s},
                            {"messages", res.messages},
                            {"closed_form", res.tp_closed_form_collectives},
                            {"simgrid_messages",
                             res.messages - res.tp_closed_form_messages - res.tail_closed_form_messages},
                            {"maxrss_kb", usage.ru_maxrss},
                            {"cpu_s", usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                                          1e-6 * (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)}};
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

/** "job dp 2 x tp 8 x pp 8" for one job; "4 jobs: bert-large dp 32 x tp 1 x pp 1, ..." for several. */
std::string jobs_summary(const Scenario& s) {
  if (!has_several_jobs(s)) return "job " + parallelism_text(s.job);
  std::string out = std::to_string(job_count(s)) + " jobs:";
  for (int j = 0; j < job_count(s); ++j)
    out += (j ? ", " : " ") + job_at(s, j).name + " " + parallelism_text(job_at(s, j));
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

/** The learned placer's least work (one job): greedy's placement (the graph's reference and the floor the method
 *  keeps), the graph with its estimated traffic, one pass of the model and its argmax decode; nothing evaluated. */
gnn::SamplingOptions argmax_only() {
  gnn::SamplingOptions o;
  o.candidates = 1;
  o.greedy_candidate = false;  // with candidates 1: GnnPlacer returns the argmax decode of the first view
  return o;
}

/** The gnn method's placement as it places (the learned placer, then the short annealing), timed cold
 *  `args.reps` times in a child with the model loaded once; prints the median. One job: also the median of the
 *  learned placer's least work (argmax_only), which no placement that runs greedy and the model can go below, and
 *  the search's wall time over it (`search_s`, the median printed above). */
void bench_gnn(const Scenario& s, const BenchArgs& args, double search_s) {
  const std::string model = model_or_committed(args.model);
  gnn_plugin();  // loaded once, outside the timed placements (as a program linked with torch had it)
  const bool one_job = !has_several_jobs(s);
  nlohmann::json g = run_in_child([&]() {
    const std::unique_ptr<Placer> placer = gnn_plugin().make_placer(model, gnn::SamplingOptions{});
    const std::unique_ptr<Placer> least = gnn_plugin().make_placer(model, argmax_only());
    std::vector<double> ms, least_ms;
    for (int i = 0; i < args.reps; ++i) {
      PipelineMemo::process().clear();  // timed cold, as in a process of its own
      const auto t0 = std::chrono::steady_clock::now();
      const LearnedPlacer learned = [&](const Scenario& x, const std::string&, const Placement* greedy) {
        return place_learned(*placer, x, greedy);
      };
      anneal_learned_placement(s, learned_placement(s, model, learned), kLearnedAnnealEvaluations);  // as gnn places
      ms.push_back(1e3 * seconds_since(t0));
      if (!one_job) continue;
      PipelineMemo::process().clear();
      const auto t1 = std::chrono::steady_clock::now();
      least->place(s);
      least_ms.push_back(1e3 * seconds_since(t1));
    }
    return nlohmann::json{{"median_ms", median(ms)}, {"least_ms", one_job ? median(least_ms) : 0.0}};
  });
  std::printf("  gnn placement (greedy reference + traffic estimate + graph + model with and without greedy's prior + "
              "sampled decodes of each + exchanges + stage reorderings + TP ring re-chaining + annealing and its "
              "reruns): median %.1f ms\n",
              g["median_ms"].get<double>());
  if (!one_job) return;
  const double least_ms = g["least_ms"].get<double>();
  std::printf("  learned placer's least work (greedy reference + traffic estimate + graph + one model pass + argmax "
              "decode, nothing evaluated): median %.1f ms; the search takes %.0fx that\n",
              least_ms, 1e3 * search_s / least_ms);
}

/** One placement's simulation line (and CSV row): the placement method's time, then the simulation's medians. */
void bench_placement_simulation(const Scenario& s, const std::string& method, const Placement& placement,
                                double placement_s, BenchArgs& args) {
  const SimulationBench sim = bench_simulation(s, placement, args);
  const bool several = has_several_jobs(s);
  std::string iterations = std::to_string(s.job.iterations) + " iteration(s)";
  if (several) {
    iterations = "iterations";
    for (int j = 0; j < job_count(s); ++j) iterations += (j ? " / " : " ") + std::to_string(job_at(s, j).iterations);
  }
  std::printf("  simgrid simulation (forked, %s placement in %.2f s, %s, %.0f messages of which %.0f through "
              "SimGrid, %.0f tensor-parallel all-reduces in closed form): median %.3f s wall, %.3f s CPU, peak RSS "
              "%.0f MB -> %.2f evaluations/s (simulated %s %.4f s)\n",
              method.c_str(), placement_s, iterations.c_str(), sim.messages, sim.simgrid_messages, sim.closed_form,
              sim.wall_median_s, sim.cpu_median_s, sim.peak_rss_mb, 1.0 / sim.wall_median_s,
              several ? "objective" : "iteration", sim.iteration_time_s);
  if (args.csv.empty()) return;
  char numbers[256];  // the names are quoted apart: a long or odd name never cuts or splits the row
  std::snprintf(numbers, sizeof numbers, ",%d,%.6g,%.3f,%.3f,%.0f,%.0f,%.0f,%.0f\n", args.reps, sim.iteration_time_s,
                sim.wall_median_s, sim.cpu_median_s, sim.peak_rss_mb, sim.messages, sim.simgrid_messages,
                sim.closed_form);
  args.csv_rows += csv_field(s.name) + "," + std::to_string(s.platform.total_gpus()) + "," +
                   std::to_string(s.platform.hosts.size()) + "," + csv_field(method) + numbers;
  // Rewritten after every row: an interrupted table keeps the rows finished so far.
  write_file_atomic(args.csv, "scenario,gpus,hosts,placement,reps,iteration_time_s,wall_median_s,cpu_median_s,"
                              "peak_rss_mb,messages,simgrid_messages,tp_closed_form_allreduces\n" + args.csv_rows);
}

void bench_file(const std::string& file, BenchArgs& args) {
  const Scenario s = load_scenario_file(file);
  // The search and the gnn method run independent annealing runs on this many threads: their wall times depend on it.
  std::printf("%s: %zu hosts, %d GPUs, %d thread(s) (HULK_THREADS), %s\n", s.name.c_str(), s.platform.hosts.size(),
              s.platform.total_gpus(), task_threads(), jobs_summary(s).c_str());
  // The first placement is also the one the analytic evaluator times below.
  Placement first;
  for (std::size_t i = 0; i < args.placements.size(); ++i) {
    const auto placed_at = std::chrono::steady_clock::now();
    Placement placement = make_placer(args.placements[i])->place(s);
    bench_placement_simulation(s, args.placements[i], placement, seconds_since(placed_at), args);
    if (i == 0) first = std::move(placement);
  }
  if (args.simulation_only) return;
  const double rate = evaluator_rate(s, first, args.reps);
  std::printf("  analytic evaluator%s: %s\n", has_several_jobs(s) ? " (the jobs' objective)" : "",
              std::isnan(rate) ? "n/a (the estimate of the placement is not finite)"
                               : ("median " + std::to_string(std::lround(rate)) + " evaluations/s (one core)").c_str());
  std::vector<double> greedy_ms;
  for (int i = 0; i < args.reps; ++i) {
    PipelineMemo::process().clear();  // timed cold, as in a process of its own
    const auto t0 = std::chrono::steady_clock::now();
    make_placer("greedy")->place(s);
    greedy_ms.push_back(1e3 * seconds_since(t0));
  }
  std::printf("  greedy placement (the greedy method, as compare runs it): median %.1f ms\n", median(greedy_ms));
  // The registry's "search", the one compare/place/reproduce report: annealing restarts + SimGrid checks.
  MethodOptions search_options;
  search_options.budget = args.budget;
  std::vector<double> search_wall;
  for (int i = 0; i < std::min(args.reps, 3); ++i) {
    PipelineMemo::process().clear();  // timed cold, as in a process of its own
    const auto t0 = std::chrono::steady_clock::now();
    make_placer("search", search_options)->place(s);
    search_wall.push_back(seconds_since(t0));
  }
  VerifiedSearchOptions defaults;
  std::printf("  search (as compare runs it: %d annealing restarts + SimGrid check of the candidates, %ld "
              "evaluations): median %.2f s wall\n",
              defaults.restarts, args.budget > 0 ? args.budget : static_cast<long>(defaults.total_evaluations),
              median(search_wall));
  if (!args.skip_gnn) bench_gnn(s, args, median(search_wall));
}

}  // namespace

void register_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Print wall-clock medians: SimGrid, evaluator, search, GNN inference");
  auto a = std::make_shared<BenchArgs>();
  cmd->add_option("scenarios", a->files, "scenario files")->required();
  cmd->add_option("--reps", a->reps, "repetitions per measurement")->capture_default_str()->check(number_range(1, 1000));
  cmd->add_option("--model", a->model, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--budget", a->budget, "search budget in evaluations (0 = as compare: 20000)")
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_flag("--no-gnn", a->skip_gnn, "skip the GNN measurements");
  cmd->add_flag("--simulation-only", a->simulation_only, "measure the SimGrid simulation only (the scale table)");
  cmd->add_option("--placement", a->placement,
                  "placement methods of the simulation, comma-separated from greedy, round-robin, random (each "
                  "simulated in turn, one line each)")
      ->capture_default_str();
  cmd->add_flag("--tp-per-message", a->tp_per_message,
                "simulate every tensor-parallel ring step as a SimGrid message (no closed form)");
  cmd->add_flag("--one-zone", a->one_zone,
                "build the SimGrid platform as one zone holding every host pair's route (no zone per region)");
  cmd->add_option("--csv", a->csv, "write one row per scenario (simulation figures) to this CSV file");
  cmd->footer(R"(Examples:
  hulk bench scenarios/examples/two-region-gpt.yaml
  hulk bench scenarios/examples/big-1024.yaml --reps 3 --no-gnn
  hulk bench scenarios/scale/scale-*.yaml --simulation-only --reps 3 --csv scale.csv   (the scale table)
  hulk bench scenarios/scale/scale-256.yaml --simulation-only --placement round-robin,random,greedy

Wall-clock medians on this machine; nothing is asserted. Micro-benchmarks: tests/bench (Google Benchmark).)");
  cmd->callback([a] {
    a->placements = comma_list(a->placement, "--placement", "placement methods");
    for (const std::string& m : a->placements)
      if (m != "greedy" && m != "round-robin" && m != "random")
        throw InputError("", 0, "--placement", "'" + m + "' is not a placement method here (expected greedy, "
                                               "round-robin or random)");
    for (const auto& f : a->files) bench_file(f, *a);
  });
}

}  // namespace hulk::cli
