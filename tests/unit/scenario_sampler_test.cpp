// Properties of sampled scenarios over many seeds, determinism, and option handling.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/features/scenario_sampler.hpp"

namespace hulk {
namespace {

TEST(ScenarioSampler, SameSeedSameScenarioDifferentSeedDifferent) {
  EXPECT_EQ(scenario_to_json(sample_scenario(7)).dump(), scenario_to_json(sample_scenario(7)).dump());
  EXPECT_NE(scenario_to_json(sample_scenario(7)).dump(), scenario_to_json(sample_scenario(8)).dump());
}

TEST(ScenarioSampler, RealisticAndFeasibleOverManySeeds) {
  std::set<int> region_counts, pps, tps;
  std::set<std::string> gpu_names;
  for (std::uint64_t seed = 0; seed < 300; ++seed) {
    const Scenario s = sample_scenario(seed);
    const PlatformSpec& p = s.platform;
    const int R = static_cast<int>(p.regions.size());
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_GE(R, 2);
    ASSERT_LE(R, 16);
    region_counts.insert(R);
    std::vector<int> hosts_per_region(R, 0);
    int max_per_host = 0;
    std::set<std::string> names;
    for (const HostSpec& h : p.hosts) {
      ASSERT_GE(h.region, 0);
      ASSERT_LT(h.region, R);
      hosts_per_region[h.region]++;
      EXPECT_TRUE(h.gpus == 1 || h.gpus == 2 || h.gpus == 4 || h.gpus == 8);
      max_per_host = std::max(max_per_host, h.gpus);
      EXPECT_GE(h.host_link.bandwidth_Bps, 10e9 / 8 * 0.999);
      EXPECT_LE(h.host_link.bandwidth_Bps, 100e9 / 8 * 1.001);
      EXPECT_GT(h.intra_link.bandwidth_Bps, h.host_link.bandwidth_Bps / 10);
      EXPECT_TRUE(names.insert(h.name).second) << "duplicate host name " << h.name;
      gpu_names.insert(h.gpu.name);
    }
    for (int c : hosts_per_region) {
      EXPECT_GE(c, 1);
      EXPECT_LE(c, 16);
    }
    EXPECT_LE(p.total_gpus(), 256);
    ASSERT_EQ(static_cast<int>(p.wan.size()), R);
    for (int a = 0; a < R; ++a)
      for (int b = 0; b < R; ++b) {
        if (a == b) continue;
        EXPECT_DOUBLE_EQ(p.wan[a][b].latency_s, p.wan[b][a].latency_s);
        EXPECT_GE(p.wan[a][b].latency_s, 5e-3);
        EXPECT_LE(p.wan[a][b].latency_s, 0.3);
        EXPECT_GE(p.wan[a][b].bandwidth_Bps, 50e6 / 8 * 0.999);
        EXPECT_LE(p.wan[a][b].bandwidth_Bps, 10e9 / 8 * 1.001);
      }
    const JobSpec& j = s.only_job();
    EXPECT_GE(j.model.layers, j.par.pp);
    EXPECT_EQ(j.model.hidden % j.model.heads, 0);
    EXPECT_EQ(j.model.heads % j.par.tp, 0);
    EXPECT_LE(j.par.tp, max_per_host);
    EXPECT_LE(j.par.ranks(), p.total_gpus());
    EXPECT_LE(j.par.pp, 16);
    EXPECT_EQ(j.global_batch % (j.par.dp * j.micro_batch), 0);
    EXPECT_GE(j.micro_batches(), 1);
    EXPECT_TRUE(memory_feasible(s));
    pps.insert(j.par.pp);
    tps.insert(j.par.tp);
  }
  // Diversity: the sampler explores the space, it does not collapse to one shape.
  EXPECT_GE(region_counts.size(), 10u);
  EXPECT_GE(pps.size(), 6u);
  EXPECT_GE(tps.size(), 3u);
  EXPECT_GE(gpu_names.size(), 5u);
}

TEST(ScenarioSampler, RespectsGpuCapAndCustomTypes) {
  SamplerOptions o;
  o.max_total_gpus = 16;
  o.min_total_gpus = 2;
  GpuSpec g;
  g.name = "only";
  g.fp16_flops = 100e12;
  g.fp32_flops = 10e12;
  g.memory_bytes = 80e9;
  o.gpu_types = {g};
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    EXPECT_LE(s.platform.total_gpus(), 16);
    EXPECT_GE(s.platform.total_gpus(), 2);
    for (const HostSpec& h : s.platform.hosts) EXPECT_EQ(h.gpu.name, "only");
    EXPECT_TRUE(memory_feasible(s));
  }
}

TEST(ScenarioSampler, BadOptionsAreInputErrors) {
  SamplerOptions o;
  o.min_regions = 5;
  o.max_regions = 3;
  EXPECT_THROW(sample_scenario(1, o), InputError);
}

TEST(ScenarioSampler, MemoryFeasibilityIsACountingArgument) {
  Scenario s = sample_scenario(3);
  s.only_job().check_memory = true;
  // Shrink every GPU below the smallest stage's need: infeasible. Restore one region: depends on counts only.
  for (HostSpec& h : s.platform.hosts) h.gpu.memory_bytes = 1e6;
  EXPECT_FALSE(memory_feasible(s));
  s.only_job().check_memory = false;
  EXPECT_TRUE(memory_feasible(s));
}

}  // namespace
}  // namespace hulk
