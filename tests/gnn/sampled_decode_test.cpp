// Sampling decoder and the TP-group / replica-pairing rules of the decoder. Torch-free.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "gnn/decode.hpp"
#include "gnn/sampled_decode.hpp"
#include "gnn_test_helpers.hpp"
#include "sim/features/cluster_graph.hpp"
#include "sim/features/scenario_sampler.hpp"

namespace hulk::gnn {
namespace {

using testing::grid_scenario;
using testing::random_scores;
using testing::stand_in_time_s;

std::vector<int> hosts_of(const Placement& p) {
  std::vector<int> h;
  for (const GpuSlot& g : p.gpu_of_rank) h.push_back(g.host);
  return h;
}

TEST(SampledDecode, ValidNeverWorseThanArgmaxAndMonotoneInCandidates) {
  std::mt19937_64 rng(3);
  SamplerOptions o;
  o.max_total_gpus = 64;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const RoleScores sc = random_scores(s, rng);
    const PlacementCost cost = [&s](const Placement& p) { return stand_in_time_s(s, p); };
    const double argmax = cost(decode_placement(s, sc));
    double previous = argmax;
    for (int k : {1, 4, 16}) {
      SamplingOptions so;
      so.candidates = k;
      const SampledPlacement got = decode_best_of_samples(s, sc, so, cost);
      EXPECT_EQ(placement_violation(s, got.placement), "") << "seed " << seed;
      EXPECT_DOUBLE_EQ(got.cost, cost(got.placement));
      EXPECT_LE(got.cost, previous) << "seed " << seed << " candidates " << k;  // same candidate prefix
      EXPECT_GE(got.distinct, 1);
      EXPECT_LE(got.distinct, k);
      previous = got.cost;
      if (k == 1) EXPECT_EQ(got.placement.gpu_of_rank, decode_placement(s, sc).gpu_of_rank);
    }
  }
}

TEST(SampledDecode, DeterministicForASeedAndNoiseChangesTheAnswer) {
  const Scenario s = grid_scenario(3, 3, 2, Parallelism{2, 1, 3});
  std::mt19937_64 rng(5);
  const RoleScores sc = random_scores(s, rng);
  const PlacementCost cost = [&s](const Placement& p) { return stand_in_time_s(s, p); };
  SamplingOptions so;
  so.candidates = 24;
  const SampledPlacement a = decode_best_of_samples(s, sc, so, cost), b = decode_best_of_samples(s, sc, so, cost);
  EXPECT_EQ(a.placement.gpu_of_rank, b.placement.gpu_of_rank);
  EXPECT_EQ(a.chosen, b.chosen);
  EXPECT_GT(a.distinct, 1);  // the noise explores other placements
  EXPECT_EQ(perturb_scores(sc, 1.0, 9).values, perturb_scores(sc, 1.0, 9).values);
  EXPECT_NE(perturb_scores(sc, 1.0, 9).values, perturb_scores(sc, 1.0, 10).values);
  EXPECT_EQ(perturb_scores(sc, 0.0, 9).values, sc.values);
}

TEST(SampledDecode, RankBudgetCapsTheCandidates) {
  const Scenario s = grid_scenario(3, 3, 2, Parallelism{2, 1, 3});  // 6 ranks
  std::mt19937_64 rng(8);
  const RoleScores sc = random_scores(s, rng);
  int evaluations = 0;
  const PlacementCost cost = [&](const Placement& p) { return ++evaluations, stand_in_time_s(s, p); };
  SamplingOptions so;
  so.candidates = 32;
  so.rank_budget = 18;  // 18 / 6 ranks = 3 candidates
  const SampledPlacement got = decode_best_of_samples(s, sc, so, cost);
  EXPECT_LE(got.distinct, 3);
  EXPECT_LE(evaluations, 3);
  EXPECT_LT(got.chosen, 3);
}

TEST(Decode, WholeTpGroupsStayOnOneHostWhenHostsCanHoldThem) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    // Hosts of 6 GPUs, tp 4: a GPU-level matching would happily split groups 2+2 over two hosts.
    const Scenario s = grid_scenario(2, 3, 6, Parallelism{2, 4, 2});
    const Placement p = decode_placement(s, random_scores(s, rng));
    ASSERT_EQ(placement_violation(s, p), "");
    for (std::size_t r = 0; r < p.gpu_of_rank.size(); r += 4)
      for (int t = 1; t < 4; ++t) EXPECT_EQ(p.gpu_of_rank[r + t].host, p.gpu_of_rank[r].host) << "trial " << trial;
  }
}

TEST(Decode, SplitsTpGroupsOnlyWhenWholeGroupsCannotHoldTheJob) {
  // 4 hosts x 3 GPUs, tp 2 x dp 3 x pp 2 = 12 GPUs: whole groups give only 4 x 1 = 4 groups < 6, so GPUs are
  // matched one by one and the answer is still valid.
  const Scenario s = grid_scenario(2, 2, 3, Parallelism{3, 2, 2});
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 50; ++trial) EXPECT_EQ(placement_violation(s, decode_placement(s, random_scores(s, rng))), "");
}

TEST(Decode, ReplicasFollowTheCheapestHandOffsBruteForce) {
  // dp 3 x pp 2 on single-GPU hosts with very uneven pair latencies: the decoder's pairing of stage 1's replicas
  // to stage 0's must minimise the summed hand-off cost, checked against all 3! pairings.
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 30; ++trial) {
    Scenario s = grid_scenario(2, 3, 1, Parallelism{3, 1, 2});
    std::uniform_real_distribution<double> lat(1e-3, 0.3);
    for (int a = 0; a < 6; ++a)
      for (int b = a + 1; b < 6; ++b) s.platform.host_pair_latency_s[{a, b}] = lat(rng);
    const Placement p = decode_placement(s, random_scores(s, rng));
    ASSERT_EQ(placement_violation(s, p), "");
    const double bytes = compute_job_cost(s.only_job()).pp_message_bytes;
    auto pair_cost = [&](int a, int b) {
      const HostRoute r = route_between(s.platform, a, b);
      return r.latency_s + bytes / r.bandwidth_Bps;
    };
    double got = 0;
    for (int d = 0; d < 3; ++d) got += pair_cost(p.gpu_of_rank[d].host, p.gpu_of_rank[3 + d].host);
    std::vector<int> perm{0, 1, 2};
    double best = 1e300;
    do {
      double c = 0;
      for (int d = 0; d < 3; ++d) c += pair_cost(p.gpu_of_rank[d].host, p.gpu_of_rank[3 + perm[d]].host);
      best = std::min(best, c);
    } while (std::next_permutation(perm.begin(), perm.end()));
    EXPECT_NEAR(got, best, 1e-12) << "trial " << trial;
  }
}

}  // namespace
}  // namespace hulk::gnn
