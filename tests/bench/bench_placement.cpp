// Speed of the analytic evaluator and of the placers on a 47-server, 12-region, ~200-GPU platform like the Hulk
// paper's (tests/unit/placement_test_platforms.hpp), job dp 4 x tp 2 x pp 4, 16 micro-batches.
#include <benchmark/benchmark.h>

#include <random>

#include "sim/evaluator.hpp"
#include "sim/greedy_placer.hpp"
#include "sim/placer_common.hpp"
#include "sim/random_placer.hpp"
#include "sim/search_placer.hpp"
#include "tests/unit/placement_test_platforms.hpp"

namespace {

using namespace hulk;

// Evaluations of distinct random placements (as the search does): items_per_second = evaluations/s.
void BM_EvaluatorHulkLike(benchmark::State& state) {
  Scenario s = testing::hulk_like_scenario();
  s.job.collective = state.range(0) == 0 ? "ring" : state.range(0) == 1 ? "hierarchical" : "tree";
  Evaluator ev(s);
  std::vector<std::vector<int>> placements;
  for (int i = 0; i < 64; ++i) placements.push_back(hosts_of(RandomPlacer(1000 + i).place(s)));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ev.time_of_hosts(placements[i++ & 63]));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(s.job.collective + ", " + std::to_string(s.platform.hosts.size()) + " hosts, " +
                 std::to_string(s.platform.total_gpus()) + " GPUs, " + std::to_string(s.job.par.ranks()) + " ranks");
}
BENCHMARK(BM_EvaluatorHulkLike)->Arg(0)->Arg(1)->Arg(2);

void BM_GreedyHulkLike(benchmark::State& state) {
  Scenario s = testing::hulk_like_scenario();
  for (auto _ : state) benchmark::DoNotOptimize(GreedyPlacer().place(s));
}
BENCHMARK(BM_GreedyHulkLike)->Unit(benchmark::kMillisecond);

// Search with the default budget (20,000 evaluations): wall time per place().
void BM_SearchDefaultBudgetHulkLike(benchmark::State& state) {
  Scenario s = testing::hulk_like_scenario();
  Evaluator ev(s);
  double start = 0, best = 0;
  for (auto _ : state) {
    SearchPlacer p;
    benchmark::DoNotOptimize(p.place(s));
    start = p.stats().start_time_s;
    best = p.stats().best_time_s;
  }
  state.counters["start_s"] = start;
  state.counters["best_s"] = best;
  state.counters["gain_pct"] = 100.0 * (start - best) / start;
}
BENCHMARK(BM_SearchDefaultBudgetHulkLike)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
