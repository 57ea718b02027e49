// Decoding: always valid (property test), optimal for its objective (brute force), memory respected, clear
// errors when no valid placement exists. Torch-free.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <random>

#include "gnn/decode.hpp"
#include "gnn_test_helpers.hpp"
#include "sim/core/errors.hpp"
#include "sim/features/scenario_sampler.hpp"

namespace hulk::gnn {
namespace {

using testing::grid_scenario;
using testing::random_scores;

TEST(Decode, AlwaysValidOnRandomPlatformsAndScores) {
  std::mt19937_64 rng(42);
  SamplerOptions o;
  o.max_total_gpus = 64;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    RoleScores sc = random_scores(s, rng);
    // Adversarial variants: all equal, NaN/inf sprinkled, huge magnitudes.
    const int variant = static_cast<int>(seed % 4);
    for (std::size_t i = 0; i < sc.values.size(); ++i) {
      if (variant == 1) sc.values[i] = 0.0f;
      if (variant == 2 && i % 3 == 0) sc.values[i] = i % 2 ? std::numeric_limits<float>::quiet_NaN() : -INFINITY;
      if (variant == 3) sc.values[i] *= 1e30f;
    }
    SCOPED_TRACE("seed " + std::to_string(seed) + " variant " + std::to_string(variant));
    const Placement p = decode_placement(s, sc);
    EXPECT_EQ(placement_violation(s, p), "");
    // Each stage has exactly dp*tp GPUs, and role counts round-trip.
    const RoleCounts c = role_counts(s, p);
    for (int k = 0; k < s.only_job().par.pp; ++k) {
      int n = 0;
      for (const auto& row : c) n += row[k];
      EXPECT_EQ(n, s.only_job().par.dp * s.only_job().par.tp);
    }
  }
}

// Total score of counts, the objective match_roles maximises.
double objective(const RoleScores& sc, const RoleCounts& c) {
  double v = 0;
  for (int h = 0; h < sc.hosts; ++h)
    for (int r = 0; r < sc.roles; ++r) v += c[h][r] * static_cast<double>(sc.at(h, r));
  return v;
}

TEST(Decode, MatchingIsOptimalAgainstBruteForce) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const int hosts = 2 + trial % 3, gpus = 1 + trial % 3, pp = 1 + trial % 3;
    Parallelism par{1, 1, pp};
    if (pp * 1 > hosts * gpus) continue;
    Scenario s = grid_scenario(1, hosts, gpus, par);
    const RoleScores sc = random_scores(s, rng);
    const RoleCounts got = match_roles(s, sc);
    // Enumerate all count matrices: each host splits its GPUs over pp + 1 roles.
    double best = -1e300;
    RoleCounts cur(hosts, std::vector<int>(pp + 1, 0));
    std::function<void(int, int, int)> rec = [&](int h, int r, int left) {
      if (h == hosts) {
        for (int k = 0; k < pp; ++k) {
          int n = 0;
          for (int x = 0; x < hosts; ++x) n += cur[x][k];
          if (n != 1) return;
        }
        best = std::max(best, objective(sc, cur));
        return;
      }
      if (r == pp) {
        cur[h][r] = left;
        rec(h + 1, 0, gpus);
        return;
      }
      for (int n = 0; n <= left; ++n) {
        cur[h][r] = n;
        rec(h, r + 1, left - n);
      }
      cur[h][r] = 0;
    };
    rec(0, 0, gpus);
    EXPECT_NEAR(objective(sc, got), best, 1e-6) << "trial " << trial;
  }
}

TEST(Decode, RespectsMemoryEvenAgainstScores) {
  // Host 0 has small GPUs and the highest score for every stage: the decoder must not use it for any stage
  // whose peak memory exceeds its GPUs.
  Scenario s = grid_scenario(1, 3, 4, Parallelism{2, 2, 2});
  s.only_job().model = ModelSpec{"big", 16, 4096, 32, 2048, 51200};
  const JobCost cost = compute_job_cost(s.only_job());
  s.platform.hosts[0].gpu.memory_bytes = 0.5 * std::min(cost.stages[0].peak_memory_bytes, cost.stages[1].peak_memory_bytes);
  for (auto& h : s.platform.hosts) h.gpus = 4;
  RoleScores sc{3, 3, {10, 10, -10, 0, 0, 0, 0, 0, 0}};
  const Placement p = decode_placement(s, sc);
  EXPECT_EQ(placement_violation(s, p), "");
  for (const GpuSlot& g : p.gpu_of_rank) EXPECT_NE(g.host, 0);
}

TEST(Decode, NoValidPlacementIsAClearInputError) {
  Scenario s = grid_scenario(1, 2, 2, Parallelism{2, 1, 3});  // 6 GPUs needed, 4 exist
  s.file = "job.yaml";
  std::mt19937_64 rng(1);
  RoleScores sc = random_scores(s, rng);
  try {
    decode_placement(s, sc);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs 6 GPUs"), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), "job.yaml");
  }
  // Enough GPUs, but none large enough for stage 0.
  Scenario m = grid_scenario(1, 2, 4, Parallelism{2, 1, 2}, 1e8);
  try {
    decode_placement(m, random_scores(m, rng));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("memory"), std::string::npos) << e.what();
  }
  RoleScores wrong{1, 1, {0.0f}};
  EXPECT_THROW(decode_placement(s, wrong), InputError);
}

TEST(Decode, TensorParallelGroupsStayOnOneHost) {
  // 4 hosts x 8 GPUs, tp = 4, each stage on 2 hosts: every TP group must sit inside one host.
  Scenario s = grid_scenario(2, 2, 8, Parallelism{2, 4, 2});
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const Placement p = decode_placement(s, random_scores(s, rng));
    ASSERT_EQ(placement_violation(s, p), "");
    for (std::size_t r = 0; r < p.gpu_of_rank.size(); r += 4)
      for (int t = 1; t < 4; ++t) EXPECT_EQ(p.gpu_of_rank[r + t].host, p.gpu_of_rank[r].host);
  }
}

TEST(Decode, ConfidentScoresReproduceTheLabelCounts) {
  // Scores = log of the label's per-host role fractions (the model's ideal output): decoding gives the label's
  // counts back (layout <-> counts are inverse up to GPU identities).
  std::mt19937_64 rng(11);
  SamplerOptions o;
  o.max_total_gpus = 64;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Placement label = decode_placement(s, random_scores(s, rng));
    const RoleCounts c = role_counts(s, label);
    RoleScores sc;
    sc.hosts = static_cast<int>(c.size());
    sc.roles = s.only_job().par.pp + 1;
    for (int h = 0; h < sc.hosts; ++h)
      for (int r = 0; r < sc.roles; ++r)
        sc.values.push_back(c[h][r] > 0 ? std::log(static_cast<float>(c[h][r]) / s.platform.hosts[h].gpus) : -30.0f);
    EXPECT_EQ(role_counts(s, decode_placement(s, sc)), c) << "seed " << seed;
  }
}

}  // namespace
}  // namespace hulk::gnn
