// Alternative starts (sim/place/alternative_starts.hpp): greedy on the fastest hosts leaves slow GPUs out where
// greedy's chain takes them, its placements are valid and deterministic, and the gnn method's annealing starts from
// one when it is faster.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "learned_anneal_helpers.hpp"
#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/place/alternative_starts.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;

/** Four regions of one 4-GPU host: V100s in regions 0 and 1 (a 1 ms link), A100s in regions 2 and 3 (40 ms), each
 *  A100 region 10 ms from a V100 one. A pipeline of 8 stages (8 ranks, a compute-heavy model) takes two hosts: every
 *  chain of greedy's, from whichever region, pairs a V100 host with its cheapest neighbour; the A100s compute 2.5x
 *  faster. */
Scenario slow_pair_well_connected() {
  PlatformSpec platform = make_platform({1, 1, 1, 1}, 4, a100(), {1.25e9, 50e-6}, {1.25e9, 40e-3});
  platform.hosts[0].gpu = platform.hosts[1].gpu = testing::v100();
  platform.wan[0][1] = platform.wan[1][0] = {1.25e9, 1e-3};
  platform.wan[0][2] = platform.wan[2][0] = {1.25e9, 10e-3};
  platform.wan[1][3] = platform.wan[3][1] = {1.25e9, 10e-3};
  ModelSpec model = testing::small_model(16);
  model.hidden = 4096;
  model.heads = 32;
  model.seq_len = 2048;
  return make_scenario(platform, make_job(1, 1, 8, 16, "1f1b", model));
}

bool uses_host(const Placement& p, int host) {
  return std::any_of(p.gpu_of_rank.begin(), p.gpu_of_rank.end(), [&](const GpuSlot& g) { return g.host == host; });
}

TEST(AlternativeStarts, GreedyOnTheFastestHostsLeavesTheSlowWellConnectedPairOut) {
  const Scenario s = slow_pair_well_connected();
  const Evaluator ev(s);
  const Placement greedy = GreedyPlacer::place_with(s, ev);
  ASSERT_TRUE(uses_host(greedy, 0) || uses_host(greedy, 1)) << "greedy no longer takes the V100s: the test is moot";
  const std::vector<Placement> fast = fastest_hosts_greedy_placements(ev);
  ASSERT_FALSE(fast.empty());
  EXPECT_FALSE(uses_host(fast[0], 0) || uses_host(fast[0], 1)) << "the shortest prefix is the two A100 hosts";
  for (const Placement& p : fast) EXPECT_EQ(placement_problem(s, p, true), "");
  EXPECT_LT(ev.iteration_time_s(fast[0]), ev.iteration_time_s(greedy));
  const AlternativeStart other = fastest_alternative_start(ev, 0);
  EXPECT_EQ(other.origin, "fastest-hosts");
  EXPECT_DOUBLE_EQ(other.timed.time_s, ev.iteration_time_s(fast[0]));
}

TEST(AlternativeStarts, TheGnnAnnealingStartsFromTheFastestHostsWhenTheyAreFaster) {
  // One annealing evaluation cannot move four ranks off the V100s; the start does.
  const Scenario s = slow_pair_well_connected();
  const Evaluator ev(s);
  const Placement greedy = GreedyPlacer::place_with(s, ev);
  const std::vector<Placement> fast = fastest_hosts_greedy_placements(ev);
  ASSERT_FALSE(fast.empty());
  LearnedAnnealOptions one = testing::start_decides();
  EXPECT_LE(ev.iteration_time_s(anneal_learned_placement(s, greedy, one)), ev.iteration_time_s(fast[0]));
  one.alternative_starts = false;  // the ablation: the one evaluation alone does not get there
  EXPECT_GT(ev.iteration_time_s(anneal_learned_placement(s, greedy, one)), ev.iteration_time_s(fast[0]));
}

TEST(AlternativeStarts, TheGnnAnnealingWithThemIsNeverSlowerThanWithoutAndSometimesFaster) {
  // From random placements (the alternative starts are faster and their runs happen) and from greedy's, on clusters
  // of the wan-host family's sampler (every catalog GPU, per-host WAN capacity, <= 48 GPUs): the annealing from both
  // starts keeps the faster answer, so by the evaluator it never ends slower than the annealing from the learned
  // placement alone (taking the alternative's answer instead ended at 161.2 s against 4.99 s on one of these
  // starts); it must end faster somewhere (else it does nothing).
  SamplerOptions o;
  o.max_total_gpus = 48;
  o.gpu_types = GpuCatalog::builtin().all();
  o.wan_capacity = WanCapacity::host;
  int faster = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    const Scenario s = sample_scenario((seed + 1) / 2, o);
    const Evaluator ev(s);
    const Placement start = seed % 2 ? RandomPlacer(seed).place(s) : GreedyPlacer::place_with(s, ev);
    LearnedAnnealOptions without;
    without.alternative_starts = false;
    const double with_s = ev.iteration_time_s(anneal_learned_placement(s, start, LearnedAnnealOptions{}));
    const double without_s = ev.iteration_time_s(anneal_learned_placement(s, start, without));
    EXPECT_LE(with_s, without_s) << seed;
    faster += with_s < without_s;
  }
  std::printf("[alternative-starts] faster with them on %d of 24 starts\n", faster);
  EXPECT_GT(faster, 0);
}

TEST(AlternativeStarts, AnnealingFromASlowerAlternativeTooIsNeverSlowerAndSometimesFaster) {
  // LearnedAnnealOptions::anneal_slower_alternative (the gnn-families row alt-always): from greedy's placement on
  // in-family clusters (<= 64 GPUs), where the alternative start is mostly slower, the run from it is one more
  // candidate, so by the evaluator the answer is never slower than without it; it must be faster somewhere (else
  // the option does nothing).
  SamplerOptions o;
  o.max_total_gpus = 64;
  o.gpu_types = GpuCatalog::builtin().all();
  int faster = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const Placement start = GreedyPlacer::place_with(s, ev);
    LearnedAnnealOptions always;
    always.anneal_slower_alternative = true;
    const double with_s = ev.iteration_time_s(anneal_learned_placement(s, start, always));
    const double without_s = ev.iteration_time_s(anneal_learned_placement(s, start, LearnedAnnealOptions{}));
    EXPECT_LE(with_s, without_s) << seed;
    faster += with_s < without_s;
  }
  std::printf("[alternative-starts] faster with the slower alternative annealed too on %d of 40 starts\n", faster);
  EXPECT_GT(faster, 0);
}

TEST(AlternativeStarts, TheFastestHostsGrowWhenTheirGpusDoNotFitTheStages) {
  // The fastest host's GPUs have 8 GB, too little for a stage of this model (about 15 GB of weights and optimizer
  // state): the prefix grows by the next fastest host, the A100s, which hold all four stages.
  PlatformSpec platform = make_platform({1, 1, 1}, 4, a100());
  platform.hosts[0].gpu = testing::make_gpu("fast-8GB", 400e12, 8e9);
  platform.hosts[2].gpu = testing::v100();
  ModelSpec model = testing::small_model(16);
  model.hidden = 4096;
  model.heads = 32;
  const Scenario s = make_scenario(platform, make_job(1, 1, 4, 8, "1f1b", model));
  const std::vector<Placement> fast = fastest_hosts_greedy_placements(Evaluator(s));
  ASSERT_EQ(fast.size(), 1u);
  EXPECT_EQ(placement_problem(s, fast[0], true), "");
  EXPECT_EQ(hosts_of(fast[0]), (std::vector<int>{1, 1, 1, 1}));
}

TEST(AlternativeStarts, TpGroupsLargerThanTheFastestHostsCountWholeGroupsOnly) {
  // TP groups of 8: the two fastest hosts (4 A100s each) would split a group over two hosts, so the placement over
  // the hosts that hold whole groups takes the two 8-GPU V100 hosts and leaves the 8-GPU T4 host out.
  PlatformSpec platform = make_platform({1, 1, 1, 1, 1}, 8, testing::v100());
  platform.hosts[0].gpus = platform.hosts[1].gpus = 4;
  platform.hosts[0].gpu = platform.hosts[1].gpu = a100();
  platform.hosts[2].gpu = testing::t4();
  const Scenario s = make_scenario(platform, make_job(1, 8, 2, 8));
  const Evaluator ev(s);
  bool whole_groups_on_v100 = false;
  for (const Placement& p : fastest_hosts_greedy_placements(ev)) {
    EXPECT_EQ(placement_problem(s, p, true), "");
    const std::vector<int> hosts = hosts_of(p);
    const bool on_v100 = std::all_of(hosts.begin(), hosts.end(), [](int h) { return h >= 3; });
    whole_groups_on_v100 = whole_groups_on_v100 || on_v100;
  }
  EXPECT_TRUE(whole_groups_on_v100);
}

TEST(AlternativeStarts, NoneWhenTheJobNeedsEveryHostAndValidDeterministicOnSampledClusters) {
  const Scenario full = make_scenario(make_platform({1, 1}, 4, a100()), make_job(1, 1, 8, 8));
  EXPECT_TRUE(fastest_hosts_greedy_placements(Evaluator(full)).empty());
  SamplerOptions o;
  o.max_total_gpus = 64;
  int built = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const std::vector<Placement> placements = fastest_hosts_greedy_placements(ev);
    EXPECT_LE(placements.size(), 2u) << seed;
    for (const Placement& p : placements) EXPECT_EQ(placement_problem(s, p, s.only_job().check_memory), "") << seed;
    const std::vector<Placement> again = fastest_hosts_greedy_placements(ev);
    ASSERT_EQ(again.size(), placements.size()) << seed;
    for (size_t i = 0; i < again.size(); ++i) EXPECT_EQ(hosts_of(again[i]), hosts_of(placements[i])) << seed;
    built += !placements.empty();
  }
  EXPECT_GT(built, 0);
}

TEST(AlternativeStarts, ATimeToBeatChangesNoAnswerFasterThanIt) {
  // Callers use the alternative start only when it is faster than theirs; told that time, the DP clusters, their
  // reorderings and the fastest-hosts placements that the evaluator's bound rules out are not evaluated. Whenever the
  // answer without it is faster than the time to beat, the answer with it must be the same.
  SamplerOptions o;
  o.max_total_gpus = 64;
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const AlternativeStart free = fastest_alternative_start(ev, 6);
    if (free.timed.placement.gpu_of_rank.empty()) continue;
    const double greedy_s = ev.iteration_time_s(GreedyPlacer().place(s));
    for (const double beat : {greedy_s, free.timed.time_s * 1.001, free.timed.time_s * 1.5}) {
      if (!(free.timed.time_s < beat)) continue;
      const AlternativeStart told = fastest_alternative_start(ev, 6, beat);
      EXPECT_EQ(told.timed.placement.gpu_of_rank, free.timed.placement.gpu_of_rank) << seed;
      EXPECT_EQ(told.timed.time_s, free.timed.time_s) << seed;
      EXPECT_EQ(told.origin, free.origin) << seed;
      ++compared;
    }
  }
  EXPECT_GE(compared, 20);
}

}  // namespace
}  // namespace hulk
