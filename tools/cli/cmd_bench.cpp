// `hulk bench`: parses the options, runs sim/lab/bench.hpp on each scenario file and prints its medians.
#include <cmath>
#include <cstdio>
#include <memory>

#include <jemalloc/jemalloc.h>

#include "tools/cli/comma_list.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/commands.hpp"
#include "sim/lab/bench.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "tools/cli/gnn_backend.hpp"

namespace hulk::cli {
namespace {

struct BenchArgs {
  std::vector<std::string> files;
  std::string placement = "greedy";   ///< --placement as given: one method or several, comma-separated
  bool skip_gnn = false;
  std::string csv;         ///< scale table rows (simulation only), "" = none
  std::string csv_rows;    ///< accumulated rows
  BenchOptions options;
};

/** Gives the pages jemalloc keeps for reuse back to the system. The simulating child shares the parent's resident
 *  pages and counts them in its peak RSS: after the 16,384-GPU scenario, the 64-GPU one's child reported 47 MB
 *  instead of 11 MB in one `bench scale-*.yaml` run. */
void release_free_memory() {
  const std::string purge = "arena." + std::to_string(MALLCTL_ARENAS_ALL) + ".purge";
  mallctl(purge.c_str(), nullptr, nullptr, nullptr, 0);
}

/** One placement's simulation line (and CSV row): the placement method's time, then the simulation's medians. */
void print_simulation(const BenchReport& r, BenchArgs& args) {
  const SimulationBench& sim = r.simulations.back();
  if (r.simulations.size() == 1)
    std::printf("%s: %zu hosts, %d GPUs, %d thread(s) (HULK_THREADS), %s\n", r.scenario.c_str(), r.hosts, r.gpus,
                r.threads, r.jobs.c_str());
  std::printf("  simgrid simulation (forked, %s placement in %.2f s, %s, %.0f messages of which %.0f through "
              "SimGrid, %.0f tensor-parallel all-reduces in closed form): median %.3f s wall, %.3f s CPU, peak RSS "
              "%.0f MB -> %.2f evaluations/s (simulated %s %.4f s)\n",
              sim.method.c_str(), sim.placement_s, r.iterations.c_str(), sim.messages, sim.simgrid_messages,
              sim.closed_form, sim.wall_median_s, sim.cpu_median_s, sim.peak_rss_mb, 1.0 / sim.wall_median_s,
              r.several_jobs ? "objective" : "iteration", sim.iteration_time_s);
  if (args.csv.empty()) return;
  args.csv_rows += bench_csv_row(r, sim, args.options.reps);
  // Rewritten after every row: an interrupted table keeps the rows finished so far.
  write_file_atomic(args.csv, kBenchCsvHeader + args.csv_rows);
}

/** The analytic evaluator's, greedy's, search's and the GNN's lines. */
void print_placement_times(const BenchReport& r) {
  std::printf("  analytic evaluator%s: %s\n", r.several_jobs ? " (the jobs' objective)" : "",
              std::isnan(r.evaluator_rate)
                  ? "n/a (the estimate of the placement is not finite)"
                  : ("median " + std::to_string(std::lround(r.evaluator_rate)) + " evaluations/s (one core)").c_str());
  std::printf("  greedy placement (the greedy method, as compare runs it): median %.1f ms\n", r.greedy_median_ms);
  std::printf("  search (as compare runs it: %d annealing restarts + SimGrid check of the candidates, %ld "
              "evaluations): median %.2f s wall\n",
              r.search_restarts, r.search_evaluations, r.search_median_s);
  if (!r.gnn) return;
  std::printf("  gnn placement (greedy reference + traffic estimate + graph + model with and without greedy's prior + "
              "sampled decodes of each + exchanges + stage reorderings + TP ring re-chaining + annealing and its "
              "reruns): median %.1f ms\n",
              r.gnn->median_ms);
  if (!r.gnn->least_ms) return;
  std::printf("  learned placer's least work (greedy reference + traffic estimate + graph + one model pass + argmax "
              "decode, nothing evaluated): median %.1f ms; the search takes %.0fx that\n",
              *r.gnn->least_ms, 1e3 * r.search_median_s / *r.gnn->least_ms);
}

void bench_file(const std::string& file, BenchArgs& args) {
  const Scenario s = load_scenario_file(file);
  const BenchReport r = run_bench(s, args.options, [&](const BenchReport& so_far) { print_simulation(so_far, args); });
  if (r.analytic) print_placement_times(r);
}

}  // namespace

void register_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Print wall-clock medians: SimGrid, evaluator, search, GNN inference");
  auto a = std::make_shared<BenchArgs>();
  cmd->add_option("scenarios", a->files, "scenario files")->required();
  cmd->add_option("--reps", a->options.reps, "repetitions per measurement")->capture_default_str()->check(number_range(1, 1000));
  cmd->add_option("--model", a->options.model, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--budget", a->options.budget, "search budget in evaluations (0 = as compare: 20000)")
      ->capture_default_str()
      ->check(budget_range());
  cmd->add_flag("--no-gnn", a->skip_gnn, "skip the GNN measurements");
  cmd->add_flag("--simulation-only", a->options.simulation_only, "measure the SimGrid simulation only (the scale table)");
  cmd->add_option("--placement", a->placement,
                  "placement methods of the simulation, comma-separated from greedy, round-robin, random (each "
                  "simulated in turn, one line each)")
      ->capture_default_str();
  cmd->add_flag("--tp-per-message", a->options.tp_per_message,
                "simulate every tensor-parallel ring step as a SimGrid message (no closed form)");
  cmd->add_flag("--one-zone", a->options.one_zone,
                "build the SimGrid platform as one zone holding every host pair's route (no zone per region)");
  cmd->add_option("--csv", a->csv, "write one row per scenario (simulation figures) to this CSV file");
  cmd->footer(R"(Examples:
  hulk bench scenarios/examples/two-region-gpt.yaml
  hulk bench scenarios/examples/big-1024.yaml --reps 3 --no-gnn
  hulk bench scenarios/scale/scale-*.yaml --simulation-only --reps 3 --csv scale.csv   (the scale table)
  hulk bench scenarios/scale/scale-256.yaml --simulation-only --placement round-robin,random,greedy

Wall-clock medians on this machine; nothing is asserted. Micro-benchmarks: tests/bench (Google Benchmark).)");
  cmd->callback([a] {
    a->options.placements = comma_list(a->placement, "--placement", "placement methods");
    for (const std::string& m : a->options.placements)
      if (m != "greedy" && m != "round-robin" && m != "random")
        throw InputError("", 0, "--placement", "'" + m + "' is not a placement method here (expected greedy, "
                                               "round-robin or random)");
    a->options.release_free_memory = release_free_memory;
    if (!a->skip_gnn) a->options.learned = gnn_learned_backend();
    for (const auto& f : a->files) bench_file(f, *a);
  });
}

}  // namespace hulk::cli
