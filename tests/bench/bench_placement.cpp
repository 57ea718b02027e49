// Speed of the analytic evaluator and of the placers on a 47-server, 12-region, ~200-GPU platform like the Hulk
// paper's (tests/unit/placement_test_platforms.hpp), job dp 4 x tp 2 x pp 4, 16 micro-batches.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "sim/core/jobs.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/ring_steps.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/search_placer.hpp"
#include "tests/unit/placement_test_platforms.hpp"

namespace {

using namespace hulk;

// Evaluations of distinct random placements (as the search does): items_per_second = evaluations/s.
void BM_EvaluatorHulkLike(benchmark::State& state) {
  Scenario s = testing::hulk_like_scenario();
  s.only_job().collective = state.range(0) == 0 ? "ring" : state.range(0) == 1 ? "hierarchical" : "tree";
  Evaluator ev(s);
  std::vector<std::vector<int>> placements;
  for (int i = 0; i < 64; ++i) placements.push_back(hosts_of(RandomPlacer(1000 + i).place(s)));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ev.time_of_hosts(placements[i++ & 63]));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(s.only_job().collective + ", " + std::to_string(s.platform.hosts.size()) + " hosts, " +
                 std::to_string(s.platform.total_gpus()) + " GPUs, " + std::to_string(s.only_job().par.ranks()) +
                 " ranks");
}
BENCHMARK(BM_EvaluatorHulkLike)->Arg(0)->Arg(1)->Arg(2);

// One ring of the shape that dominates evaluations of thousands of ranks (the norm all-reduce over a replica's
// tp 8 x pp 8 ranks: 64 members, 126 steps, unlike entries and hops), one channel: Arg(0) the general recurrence,
// Arg(1) ring_steps_from (the one-channel pass, the same bits). items_per_second = rings/s.
void BM_RingStepsUnlike64(benchmark::State& state) {
  const int n = 64, steps = 2 * (n - 1);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> lat_d(1e-6, 3e-2), start_d(0.0, 0.5);
  std::vector<double> hops(n), lats(n), starts(n), ends(n), scratch;
  for (int j = 0; j < n; ++j) lats[j] = lat_d(rng), hops[j] = lats[j] + 1e-9, starts[j] = start_d(rng);
  const RingModel model{1, true, nullptr};
  for (auto _ : state) {
    benchmark::DoNotOptimize(state.range(0) == 0 ? ring_steps_general(hops.data(), lats.data(), n, steps, model,
                                                                      starts.data(), ends.data(), scratch)
                                                 : ring_steps_from(hops.data(), lats.data(), n, steps, model,
                                                                   starts.data(), ends.data(), scratch));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(state.range(0) == 0 ? "general recurrence" : "ring_steps_from (one channel)");
}
BENCHMARK(BM_RingStepsUnlike64)->Arg(0)->Arg(1);

void BM_GreedyHulkLike(benchmark::State& state) {
  Scenario s = testing::hulk_like_scenario();
  for (auto _ : state) benchmark::DoNotOptimize(GreedyPlacer().place(s));
}
BENCHMARK(BM_GreedyHulkLike)->Unit(benchmark::kMillisecond);

// Greedy on a sampled 128-256-GPU cluster whose every evaluation is slow (dp 21 x pp 11 over 52 hosts, 31
// micro-batches: about 15 ms each, ~50 of greedy's candidates evaluated): fastest_candidate.hpp shares them with a
// second thread; HULK_THREADS=1 keeps one. (A sampled cluster of the `larger` family.)
void BM_GreedySlowEvaluations(benchmark::State& state) {
  SamplerOptions options;
  options.gpu_types = GpuCatalog::builtin().all();
  options.min_total_gpus = 128;
  options.max_total_gpus = 256;
  const Scenario s = sample_scenario(8796701739931171276ULL, options);
  for (auto _ : state) benchmark::DoNotOptimize(GreedyPlacer().place(s));
  state.SetLabel("dp " + std::to_string(s.only_job().par.dp) + " x pp " + std::to_string(s.only_job().par.pp) + ", " +
                 std::to_string(s.platform.hosts.size()) + " hosts, " + std::to_string(task_threads()) + " thread(s)");
}
BENCHMARK(BM_GreedySlowEvaluations)->Unit(benchmark::kMillisecond)->Iterations(3)->Repetitions(3);

// Search with the default budget (20,000 evaluations): wall time per place().
void BM_SearchDefaultBudgetHulkLike(benchmark::State& state) {
  Scenario s = testing::hulk_like_scenario();
  Evaluator ev(s);
  double start = 0, best = 0, repeats = 0;
  for (auto _ : state) {
    SearchPlacer p;
    benchmark::DoNotOptimize(p.place(s));
    start = p.stats().start_time_s;
    best = p.stats().best_time_s;
    repeats = 100.0 * p.stats().repeats / std::max(1LL, p.stats().evaluations);
  }
  state.counters["start_s"] = start;
  state.counters["best_s"] = best;
  state.counters["gain_pct"] = 100.0 * (start - best) / start;
  state.counters["repeats_pct"] = repeats;  // proposals answered from the annealing's memory (annealing.hpp)
}
BENCHMARK(BM_SearchDefaultBudgetHulkLike)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

// The paper scenarios (scenarios/paper/*.yaml, on the 47-server Hulk data): evaluator speed, greedy and search
// (default budget) wall time, and the evaluator's gain of search over greedy / greedy over round-robin.
#include <filesystem>

#include "sim/evaluate/lower_bound.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace {

/** Loads a paper scenario; false (the benchmark marked skipped with the reason) if it cannot be loaded. */
bool load_paper(benchmark::State& state, const std::string& file, hulk::Scenario& s) {
  try {
    s = hulk::load_scenario_file(file);
    return true;
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return false;
  }
}

void BM_PaperScenario(benchmark::State& state, const std::string& file) {
  hulk::Scenario s;
  if (!load_paper(state, file, s)) return;
  hulk::Evaluator ev(s);
  double t_search = 0, t_greedy = 0, t_rr = 0, wall_greedy = 0, repeats = 0;
  for (auto _ : state) {
    const auto g0 = std::chrono::steady_clock::now();
    const hulk::Placement g = hulk::GreedyPlacer().place(s);
    wall_greedy = std::chrono::duration<double>(std::chrono::steady_clock::now() - g0).count();
    hulk::SearchPlacer search;
    const hulk::Placement p = search.place(s);
    t_search = ev.iteration_time_s(p);
    repeats = 100.0 * search.stats().repeats / std::max(1LL, search.stats().evaluations);
    t_greedy = ev.iteration_time_s(g);
    t_rr = ev.iteration_time_s(hulk::round_robin_placement(s));
  }
  state.counters["ranks"] = s.only_job().par.ranks();
  state.counters["greedy_wall_s"] = wall_greedy;
  state.counters["eval_rr_s"] = t_rr;
  state.counters["eval_greedy_s"] = t_greedy;
  state.counters["eval_search_s"] = t_search;
  state.counters["lower_bound_s"] = hulk::lower_bound_s(s);
  state.counters["search_repeats_pct"] = repeats;  // proposals answered from the annealing's memory
}

// Evaluator speed on a paper scenario: items_per_second = evaluations/s. Arg 0: the greedy placement again and
// again (what `hulk bench` times); arg 1: 64 random placements in turn (what a search meets early on).
void BM_PaperEvaluator(benchmark::State& state, const std::string& file) {
  hulk::Scenario s;
  if (!load_paper(state, file, s)) return;
  if (hulk::names_jobs(s)) {  // the one-job evaluator would time nothing (it printed 100+ M/s on multi-model)
    state.SkipWithError("several jobs: the one-job evaluator does not apply");
    return;
  }
  hulk::Evaluator ev(s);
  ev.set_pipeline_cache(false);  // the rate of evaluations that compute their pipelines (a search's new placements)
  std::vector<std::vector<int>> placements;
  if (state.range(0) == 0)
    placements.push_back(hosts_of(hulk::GreedyPlacer().place(s)));
  else
    for (int i = 0; i < 64; ++i) placements.push_back(hosts_of(hulk::RandomPlacer(1000 + i).place(s)));
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(ev.time_of_hosts(placements[i++ % placements.size()]));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(state.range(0) == 0 ? "greedy placement" : "random placements");
}

const bool kPaperRegistered = [] {
  const std::filesystem::path dir = std::filesystem::path(HULK_SOURCE_DIR) / "scenarios" / "paper";
  std::vector<std::string> files;
  if (std::filesystem::exists(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());  // deterministic order
  for (const auto& f : files)
    benchmark::RegisterBenchmark(("BM_PaperSearch/" + std::filesystem::path(f).stem().string()).c_str(),
                                 [f](benchmark::State& st) { BM_PaperScenario(st, f); })
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
  for (const auto& f : files)
    benchmark::RegisterBenchmark(("BM_PaperEvaluator/" + std::filesystem::path(f).stem().string()).c_str(),
                                 [f](benchmark::State& st) { BM_PaperEvaluator(st, f); })
        ->Arg(0)
        ->Arg(1);
  return true;
}();

}  // namespace
