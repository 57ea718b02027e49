// DP-cluster placements (sim/place/dp_clusters.hpp) and their use as the gnn method's annealing start: each stage's
// DP group joins the best-connected regions, TP groups never span regions, the placements are valid, and the gnn
// method's annealing starts from one when it is faster than the learned placement.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "learned_anneal_helpers.hpp"
#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/place/dp_clusters.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;

/** Regions of one 4-GPU host each; the WAN links of the given region pairs are 100x faster than the others. */
Scenario with_fast_pairs(int regions, const std::vector<std::pair<int, int>>& fast, const JobSpec& job) {
  PlatformSpec platform = make_platform(std::vector<int>(regions, 1), 4, a100(), {1.25e9, 50e-6}, {1.25e7, 40e-3});
  for (const auto& [a, b] : fast) platform.wan[a][b] = platform.wan[b][a] = {1.25e9, 5e-3};
  return make_scenario(platform, job);
}

std::set<int> regions_of_stage(const Scenario& s, const Placement& p, int stage) {
  const Parallelism& par = s.only_job().par;
  std::set<int> out;
  for (int i = 0; i < par.dp * par.tp; ++i)
    out.insert(s.platform.hosts[p.gpu_of_rank[stage * par.dp * par.tp + i].host].region);
  return out;
}

TEST(DpClusters, AStageTooLargeForOneRegionJoinsTheBestConnectedOne) {
  const Scenario s = with_fast_pairs(4, {{0, 2}}, make_job(2, 4, 1, 4));  // 8 ranks, regions of 4 GPUs
  const Evaluator ev(s);
  const std::vector<Placement> placements = dp_cluster_placements(ev);
  ASSERT_FALSE(placements.empty());
  for (const Placement& p : placements) {
    EXPECT_EQ(placement_problem(s, p, true), "");
    EXPECT_EQ(regions_of_stage(s, p, 0), (std::set<int>{0, 2})) << "the DP group crosses a slow link";
  }
}

TEST(DpClusters, TheFirstStageLeavesTheNextAFastPair) {
  // Four regions of one 4-GPU host, stages of dp 2 x tp 4 (two regions each). Pair 0-1 is the fastest link, 0-2
  // and 1-3 nearly as fast, the others 100x slower. The stage placed first on 0-1 leaves the other 2-3, a slow
  // pair; looking one stage ahead, 0-2 and 1-3 give both stages a fast pair.
  Scenario s = with_fast_pairs(4, {{0, 2}, {1, 3}}, make_job(2, 4, 2, 4));
  s.platform.wan[0][1] = s.platform.wan[1][0] = {2.5e9, 5e-3};
  const Evaluator ev(s);
  const auto fast = [](const std::set<int>& r) { return r == std::set<int>{0, 2} || r == std::set<int>{1, 3}; };
  double best_s = std::numeric_limits<double>::infinity(), slow_pair_s = std::numeric_limits<double>::infinity();
  for (const Placement& p : dp_cluster_placements(ev)) {
    EXPECT_EQ(placement_problem(s, p, true), "");
    const bool both_fast = fast(regions_of_stage(s, p, 0)) && fast(regions_of_stage(s, p, 1));
    (both_fast ? best_s : slow_pair_s) = std::min(both_fast ? best_s : slow_pair_s, ev.iteration_time_s(p));
  }
  ASSERT_TRUE(std::isfinite(best_s)) << "no placement gives both stages a fast pair";
  EXPECT_LT(best_s, slow_pair_s);
  EXPECT_EQ(fastest_dp_cluster(ev, 0).time_s, best_s);
}

TEST(DpClusters, OnePlacementLeavesSpareSlowGpusOut) {
  // Three regions of one 4-GPU host, equal links; region 1's GPUs are T4s, the others A100s. A stage of 8 ranks
  // joins region 0 with region 1 (the lowest index on equal links) unless the spare slow GPUs are left out.
  PlatformSpec platform = make_platform({1, 1, 1}, 4, a100());
  platform.hosts[1].gpu = testing::t4();
  const Scenario s = make_scenario(platform, make_job(2, 4, 1, 4));
  const Evaluator ev(s);
  bool without_t4 = false;
  for (const Placement& p : dp_cluster_placements(ev)) {
    EXPECT_EQ(placement_problem(s, p, true), "");
    without_t4 = without_t4 || regions_of_stage(s, p, 0) == std::set<int>{0, 2};
  }
  EXPECT_TRUE(without_t4);
}

TEST(DpClusters, EachStageInOneRegionWhenOneHoldsItAndTpGroupsNeverSpanRegions) {
  // Regions of 2 hosts x 4 GPUs (8 GPUs), stages of dp 2 x tp 4: each stage fits one region exactly.
  PlatformSpec platform = make_platform({2, 2, 2}, 4, a100());
  const Scenario s = make_scenario(platform, make_job(2, 4, 3, 4));
  const Evaluator ev(s);
  const std::vector<Placement> placements = dp_cluster_placements(ev);
  ASSERT_FALSE(placements.empty());
  for (const Placement& p : placements) {
    EXPECT_EQ(placement_problem(s, p, true), "");
    std::set<int> used;
    for (int stage = 0; stage < 3; ++stage) {
      const std::set<int> r = regions_of_stage(s, p, stage);
      ASSERT_EQ(r.size(), 1u) << "stage " << stage;
      EXPECT_TRUE(used.insert(*r.begin()).second) << "two stages in one region of 8 GPUs";
    }
  }
}

TEST(DpClusters, ValidAndDeterministicOnSampledClustersNoneForOneReplica) {
  SamplerOptions o;
  o.max_total_gpus = 64;
  int built = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const std::vector<Placement> placements = dp_cluster_placements(ev);
    if (s.only_job().par.dp < 2) EXPECT_TRUE(placements.empty()) << seed;
    for (const Placement& p : placements) {
      EXPECT_EQ(placement_problem(s, p, s.only_job().check_memory), "") << seed;
      const Parallelism& par = s.only_job().par;
      for (int g = 0; g < par.pp * par.dp; ++g) {  // every TP group inside one region
        std::set<int> regions;
        for (int t = 0; t < par.tp; ++t) regions.insert(s.platform.hosts[p.gpu_of_rank[g * par.tp + t].host].region);
        EXPECT_EQ(regions.size(), 1u) << seed << " TP group " << g;
      }
    }
    const std::vector<Placement> again = dp_cluster_placements(ev);
    ASSERT_EQ(again.size(), placements.size()) << seed;
    for (size_t i = 0; i < again.size(); ++i) EXPECT_EQ(hosts_of(again[i]), hosts_of(placements[i])) << seed;
    built += !placements.empty();
  }
  EXPECT_GT(built, 0);
}

TEST(DpClusters, TheGnnAnnealingStartsFromTheClusterPlacementWhenItIsFaster) {
  // Two stages over four 4-GPU regions, fast pairs 0-2 and 1-3: a start whose DP groups both cross slow links
  // (stage 0 on regions 0 and 1, stage 1 on 2 and 3). The clusters (0 with 2, 1 with 3) are faster; one annealing
  // evaluation cannot get there alone.
  const Scenario s = with_fast_pairs(4, {{0, 2}, {1, 3}}, make_job(2, 4, 2, 4));
  const Evaluator ev(s);
  std::vector<int> hosts;
  for (int h : {0, 1, 2, 3})
    for (int g = 0; g < 4; ++g) hosts.push_back(h);
  const Placement start = placement_from_hosts(hosts);
  double best_cluster = ev.iteration_time_s(start);
  for (const Placement& p : dp_cluster_placements(ev)) best_cluster = std::min(best_cluster, ev.iteration_time_s(p));
  ASSERT_LT(best_cluster, ev.iteration_time_s(start));
  const Placement placed = anneal_learned_placement(s, start, testing::start_decides());
  EXPECT_LE(ev.iteration_time_s(placed), best_cluster);
}

}  // namespace
}  // namespace hulk
