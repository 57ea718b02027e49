// The evaluators' pipeline cache (sim/evaluate/pipeline_memo.hpp) keeps replica pipelines across evaluations and
// across evaluators, of any scenario. It must change no result: an evaluator that has seen a long walk of placements
// gives, bit for bit, what an evaluator without the cache gives, and so does one of a scenario whose pipelines differ
// from those already cached only in settings outside the stage times and links.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"

namespace hulk {
namespace {

/** A walk as the search makes one: from a start, swaps of two ranks, now and then back to an earlier placement
 *  (a rejected move's state, or the cache's oldest entries after it has wrapped). */
std::vector<Placement> annealing_like_walk(const Placement& start, int steps, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int ranks = static_cast<int>(start.gpu_of_rank.size());
  std::vector<Placement> walk{start};
  Placement cur = start;
  for (int i = 0; i < steps; ++i) {
    if (i % 7 == 6) {
      walk.push_back(walk[rng() % walk.size()]);
      continue;
    }
    const int a = static_cast<int>(rng() % ranks), b = static_cast<int>(rng() % ranks);
    std::swap(cur.gpu_of_rank[a], cur.gpu_of_rank[b]);
    walk.push_back(cur);
  }
  return walk;
}

/** An evaluation without the shared cache (only within the evaluation, as before any was kept). */
EvalBreakdown uncached(const Scenario& s, const Placement& p) {
  Evaluator ev(s);
  ev.set_pipeline_cache(false);
  return ev.evaluate(p);
}

void expect_same_as_fresh(const Scenario& s, const std::vector<Placement>& walk) {
  const Evaluator warm(s);
  for (size_t i = 0; i < walk.size(); ++i) {
    const EvalBreakdown w = warm.evaluate(walk[i]);
    const EvalBreakdown f = uncached(s, walk[i]);
    ASSERT_EQ(w.feasible, f.feasible) << s.name << " step " << i;
    // Bits, not a tolerance: a cache hit returns what the computation returned for the same inputs.
    EXPECT_EQ(w.iteration_time_s, f.iteration_time_s) << s.name << " step " << i;
    EXPECT_EQ(w.pipeline_s, f.pipeline_s) << s.name << " step " << i;
    EXPECT_EQ(w.bubble_s, f.bubble_s) << s.name << " step " << i;
    EXPECT_EQ(w.dp_comm_s, f.dp_comm_s) << s.name << " step " << i;
  }
}

TEST(EvaluatorCache, AWarmEvaluatorAgreesBitForBitWithAFreshOne) {
  int pipelined_with_dp = 0;
  for (std::uint64_t seed = 1; seed <= 40 && pipelined_with_dp < 6; ++seed) {
    const Scenario s = sample_scenario(seed);
    if (s.only_job().par.pp < 2 || s.only_job().par.dp < 2) continue;  // the cache holds replica pipelines
    ++pipelined_with_dp;
    // Two walks through one evaluator: from greedy (mostly feasible) and from a random placement.
    std::vector<Placement> walk = annealing_like_walk(GreedyPlacer().place(s), 90, seed);
    const std::vector<Placement> other = annealing_like_walk(RandomPlacer(seed).place(s), 60, seed + 1000);
    walk.insert(walk.end(), other.begin(), other.end());
    expect_same_as_fresh(s, walk);
  }
  EXPECT_GE(pipelined_with_dp, 3);
  // 47 servers, 12 regions, dp 4 x pp 4 (more groups than one walk step changes).
  const Scenario hulk = testing::hulk_like_scenario();
  expect_same_as_fresh(hulk, annealing_like_walk(GreedyPlacer().place(hulk), 150, 5));
}

TEST(EvaluatorCache, ScenariosThatDifferOnlyInPipelineSettingsDoNotShareEntries) {
  // Each pair keeps the stage times, hand-off costs and links (same platform, same placement) and changes one
  // setting the pipeline computation reads from the scenario: the cache key must tell the two apart.
  const Scenario base = testing::hulk_like_scenario();
  const Placement placement = GreedyPlacer().place(base);
  Scenario gpipe = base;
  gpipe.only_job().schedule = "gpipe";
  gpipe.only_job().pipeline_p2p = "blocking";  // the 1f1b base's p2p mode: only the op order differs
  Scenario eager = base;
  eager.only_job().pipeline_p2p = "eager";
  Scenario queued = gpipe;  // eager gpipe queues a stage's messages: how many go at once matters
  queued.only_job().pipeline_p2p = "eager";
  Scenario channels = queued;
  channels.network.channels_per_peer = 4;
  Scenario more_micro_batches = base;
  more_micro_batches.only_job().global_batch *= 2;
  const std::vector<std::tuple<std::string, Scenario, Scenario>> pairs = {
      {"schedule", base, gpipe}, {"p2p mode", base, eager}, {"channels", queued, channels},
      {"micro-batches", base, more_micro_batches}};
  for (const auto& [what, first, second] : pairs) {
    const double first_s = Evaluator(first).evaluate(placement).pipeline_s;  // cached, as a placer leaves it
    const double alone_s = uncached(second, placement).pipeline_s;
    // The second's pipeline differs from the first's, so a stale entry would show.
    ASSERT_NE(alone_s, first_s) << what;
    EXPECT_EQ(Evaluator(second).evaluate(placement).pipeline_s, alone_s) << what;
  }
}

}  // namespace
}  // namespace hulk
