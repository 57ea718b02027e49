// `hulk bench`: wall-clock medians of the operations whose speed the issues set goals for, on real scenario files.
// Simulations run forked (as in compare); the GNN runs in its own child (torch). Micro-benchmarks of the
// evaluator and placers are also in tests/bench (Google Benchmark).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

#include "tools/commands.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/place/placer.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/core/subprocess.hpp"
#include "gnn/gnn_placer.hpp"

namespace hulk::cli {
namespace {

struct BenchArgs {
  std::vector<std::string> files;
  int reps = 5;
  std::string model;
  bool skip_gnn = false;
  long budget = 0;  ///< search budget (0 = the default, as compare)
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

void bench_file(const std::string& file, const BenchArgs& args) {
  const Scenario s = load_scenario_file(file);
  std::printf("%s: %zu hosts, %d GPUs, job dp %d x tp %d x pp %d\n", s.name.c_str(), s.platform.hosts.size(),
              s.platform.total_gpus(), s.job.par.dp, s.job.par.tp, s.job.par.pp);
  const Placement greedy = make_placer("greedy")->place(s);
  std::vector<double> sim_wall;
  double sim_time = 0, messages = 0;
  for (int i = 0; i < args.reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    SimOptions o;
    o.record_events = o.record_spans = false;
    nlohmann::json r = simulate_isolated(s, greedy, o);
    sim_wall.push_back(seconds_since(t0));
    sim_time = r["iteration_time_s"].get<double>();
    messages = r["messages"].get<double>();
  }
  std::printf("  simgrid simulation (forked, greedy placement, %d iteration(s), %.0f messages): median %.3f s wall "
              "-> %.2f evaluations/s (simulated %.4f s/iteration)\n",
              s.job.iterations, messages, median(sim_wall), 1.0 / median(sim_wall), sim_time);
  const Evaluator ev(s);
  std::vector<double> rates;
  for (int i = 0; i < args.reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    int n = 0;
    double sink = 0;
    while (seconds_since(t0) < 0.3) sink += ev.iteration_time_s(greedy), ++n;
    rates.push_back(n / seconds_since(t0));
    if (sink < 0) std::printf("?");
  }
  std::printf("  analytic evaluator: median %.0f evaluations/s (one core)\n", median(rates));
  // The registry's "search", the one compare/place/reproduce report: annealing restarts + SimGrid checks.
  MethodOptions search_options;
  search_options.budget = args.budget;
  std::vector<double> search_wall;
  for (int i = 0; i < std::min(args.reps, 3); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    make_placer("search", search_options)->place(s);
    search_wall.push_back(seconds_since(t0));
  }
  VerifiedSearchOptions defaults;
  std::printf("  search (as compare runs it: %d annealing restarts + SimGrid check of the candidates, %ld "
              "evaluations): median %.2f s wall\n",
              defaults.restarts, args.budget > 0 ? args.budget : static_cast<long>(defaults.total_evaluations),
              median(search_wall));
  if (args.skip_gnn) return;
  const std::string model = args.model.empty() ? default_model_path() : args.model;
  nlohmann::json g = run_in_child([&]() {
    gnn::GnnPlacer placer(model);
    std::vector<double> ms;
    for (int i = 0; i < args.reps; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      placer.place(s);
      ms.push_back(1e3 * seconds_since(t0));
    }
    return nlohmann::json{{"median_ms", median(ms)}};
  });
  std::printf("  gnn placement (greedy reference + traffic estimate + graph + model + sampled decodes): median %.1f ms\n",
              g["median_ms"].get<double>());
}

}  // namespace

void register_bench_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Print wall-clock medians: SimGrid, evaluator, search, GNN inference");
  auto a = std::make_shared<BenchArgs>();
  cmd->add_option("scenarios", a->files, "scenario files")->required();
  cmd->add_option("--reps", a->reps, "repetitions per measurement")->capture_default_str();
  cmd->add_option("--model", a->model, "GNN model file (default: " + default_model_path() + ")");
  cmd->add_option("--budget", a->budget, "search budget in evaluations (0 = as compare: 20000)")
      ->capture_default_str();
  cmd->add_flag("--no-gnn", a->skip_gnn, "skip the GNN measurements");
  cmd->footer(R"(Examples:
  hulk bench scenarios/examples/two-region-gpt.yaml
  hulk bench scenarios/examples/big-1024.yaml --reps 3 --no-gnn

Wall-clock medians on this machine; nothing is asserted. Micro-benchmarks: tests/bench (Google Benchmark).)");
  cmd->callback([a] {
    for (const auto& f : a->files) bench_file(f, *a);
  });
}

}  // namespace hulk::cli
