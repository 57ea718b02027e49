#pragma once
/** @file bench.hpp
 *  @brief `hulk bench`: wall-clock medians of the operations whose speed the issues set goals for, on one scenario.
 *  Simulations run forked (as in compare); the GNN runs in its own child (torch). The CLI prints the report
 *  (tools/cli/cmd_bench.cpp); micro-benchmarks of the evaluator and placers are in tests/bench (Google Benchmark). */
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/lab/learned_backend.hpp"
#include "sim/place/placer.hpp"

namespace hulk {

/** @brief What to measure and how often. */
struct BenchOptions {
  int reps = 5;
  long budget = 0;                                   ///< search budget (0 = the default, as compare)
  bool simulation_only = false;                      ///< only the SimGrid simulations (the scale table)
  std::vector<std::string> placements{"greedy"};     ///< methods simulated one after the other
  bool tp_per_message = false;                       ///< no closed form for tensor-parallel ring steps
  bool one_zone = false;                             ///< every route in one SimGrid zone
  /** @brief Called before a scenario's forked simulations: the child shares the parent's resident pages and counts
   *  them in its peak RSS, so the program gives its allocator's cached free pages back first; may be empty. */
  std::function<void()> release_free_memory;
  /** @brief GNN measurements (the gnn method's decoder and least_work_decoder()): the plugin is loaded in this
   *  process once, after the other measurements, so that their children do not count it; make_placer empty = no
   *  GNN measurements. */
  LearnedBackend learned;
  std::string model;                                 ///< GNN model file ("" = the committed one)
};

/** @brief The simulation of one placement in forked children. */
struct SimulationBench {
  std::string method;          ///< the placement method
  double placement_s = 0;      ///< wall time of the placement method
  double wall_median_s = 0, peak_rss_mb = 0, iteration_time_s = 0, messages = 0, closed_form = 0;
  double cpu_median_s = 0;      ///< the child's own user + system CPU time: steadier than wall on a shared machine
  double simgrid_messages = 0;  ///< messages SimGrid simulated (the others are closed-form TP ring steps)
};

/** @brief The gnn method's placement timings. */
struct GnnBench {
  double median_ms = 0;              ///< the gnn method's placement
  std::optional<double> least_ms;    ///< one job: the learned placer's least work (argmax decode)
};

/** @brief Every measurement of one scenario. */
struct BenchReport {
  std::string scenario;
  std::size_t hosts = 0;
  int gpus = 0;
  int threads = 0;                 ///< task_threads(): the search's and gnn's wall times depend on it
  std::string jobs;                ///< jobs_summary()
  std::string iterations;          ///< "2 iteration(s)", or "iterations 2 / 3" for several jobs
  bool several_jobs = false;
  std::vector<SimulationBench> simulations;
  bool analytic = false;           ///< false with simulation_only: nothing below was measured
  double evaluator_rate = 0;       ///< evaluations/s of the first placement's estimate; NaN if not finite
  double greedy_median_ms = 0;
  double search_median_s = 0;
  int search_restarts = 0;
  long search_evaluations = 0;
  std::optional<GnnBench> gnn;
};

/** @brief "job dp 2 x tp 8 x pp 8" for one job; "4 jobs: bert-large dp 32 x tp 1 x pp 1, ..." for several. */
std::string jobs_summary(const Scenario& s);

/** @brief Measures a scenario. `on_simulation` (may be empty) is called after each simulation with the report so
 *  far, so that a long table is printed and saved row by row. */
BenchReport run_bench(const Scenario& s, const BenchOptions& options,
                      const std::function<void(const BenchReport&)>& on_simulation);

/** @brief The scale table's CSV header line. */
extern const char* const kBenchCsvHeader;

/** @brief One CSV row of a simulation (names quoted apart: a long or odd name never cuts or splits the row). */
std::string bench_csv_row(const BenchReport& report, const SimulationBench& sim, int reps);

}  // namespace hulk
