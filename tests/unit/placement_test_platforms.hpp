#pragma once
// Scenarios built in code for the placement tests and benchmarks (no YAML, no data files).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/placer.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk::testing {

inline GpuSpec make_gpu(const std::string& name, double fp16_flops, double memory_bytes) {
  GpuSpec g;
  g.name = name;
  g.fp16_flops = fp16_flops;
  g.fp32_flops = fp16_flops / 8;
  g.memory_bytes = memory_bytes;
  return g;
}

inline GpuSpec a100() { return make_gpu("A100-80GB", 312e12, 80e9); }
inline GpuSpec v100() { return make_gpu("V100-32GB", 125e12, 32e9); }
inline GpuSpec t4() { return make_gpu("T4", 65e12, 16e9); }

/** Small transformer whose stages all have the same flops when vocab = 0 and layers % pp == 0. */
inline ModelSpec small_model(int layers = 8, int vocab = 0) {
  ModelSpec m;
  m.name = "test";
  m.layers = layers;
  m.hidden = 1024;
  m.heads = 16;
  m.seq_len = 512;
  m.vocab = vocab;
  return m;
}

/** hosts_per_region[r] hosts in region r, each with `gpus` GPUs of `gpu`; NIC nic, WAN wan between all regions. */
inline PlatformSpec make_platform(const std::vector<int>& hosts_per_region, int gpus, const GpuSpec& gpu,
                                  LinkSpec nic = {1.25e9, 50e-6}, LinkSpec wan = {1.25e8, 20e-3},
                                  LinkSpec intra = {150e9, 2e-6}) {
  PlatformSpec p;
  const int R = static_cast<int>(hosts_per_region.size());
  for (int r = 0; r < R; ++r) p.regions.push_back("r" + std::to_string(r));
  for (int r = 0; r < R; ++r)
    for (int i = 0; i < hosts_per_region[r]; ++i) {
      HostSpec h;
      h.name = "h" + std::to_string(p.hosts.size());
      h.region = r;
      h.gpus = gpus;
      h.gpu = gpu;
      h.host_link = nic;
      h.intra_link = intra;
      p.hosts.push_back(h);
    }
  p.wan.assign(R, std::vector<LinkSpec>(R, wan));
  return p;
}

inline JobSpec make_job(int dp, int tp, int pp, int micro_batches, const std::string& schedule = "1f1b",
                        ModelSpec model = small_model()) {
  JobSpec j;
  j.model = model;
  j.par = {dp, tp, pp};
  j.micro_batch = 1;
  j.global_batch = dp * micro_batches;
  j.schedule = schedule;
  j.utilisation = 0.5;
  // The iteration's tail (embedding and gradient-norm all-reduces, optimizer step) has its own tests
  // (compute_efficiency_test.cpp, iteration_costs_test.cpp); here it would add to the closed forms under test.
  j.step_costs = false;
  return j;
}

inline Scenario make_scenario(PlatformSpec platform, JobSpec job, std::uint64_t seed = 1) {
  Scenario s;
  s.name = "test";
  s.seed = seed;
  s.platform = std::move(platform);
  s.only_job() = std::move(job);
  return s;
}

/** A several-job scenario: jobs named j0, j1, ... unless named, listed as the loader does for `jobs:`. */
inline Scenario jobs_scenario(PlatformSpec platform, std::vector<JobSpec> jobs, std::uint64_t seed = 1) {
  Scenario s = make_scenario(std::move(platform), jobs.at(0), seed);
  for (size_t j = 0; j < jobs.size(); ++j)
    if (jobs[j].name.empty()) jobs[j].name = "j" + std::to_string(j);
  s.jobs = std::move(jobs);
  s.jobs_listed = true;
  return s;
}

/** A platform like the Hulk paper's: 47 servers in 12 regions (cities), ~200 GPUs of mixed types, measured-style
 *  per-host-pair latencies between 1 ms and 300 ms (regions on a plane, latency ~ distance), 10 Gbps NICs,
 *  1 Gbps WAN per region pair; job: 3D parallel dp 4 x tp 2 x pp 4, 24-layer GPT (h 2048), 16 micro-batches. */
inline Scenario hulk_like_scenario(std::uint64_t seed = 7) {
  std::mt19937_64 rng(seed);
  const int R = 12, H = 47;
  PlatformSpec p;
  std::vector<double> x(R), y(R);
  std::uniform_real_distribution<double> coord(0.0, 1.0);
  for (int r = 0; r < R; ++r) {
    p.regions.push_back("city" + std::to_string(r));
    x[r] = coord(rng);
    y[r] = coord(rng);
  }
  const GpuSpec kinds[] = {a100(), v100(), t4(), make_gpu("RTX3090", 71e12, 24e9)};
  const int gpu_counts[] = {2, 4, 4, 8};
  for (int h = 0; h < H; ++h) {
    HostSpec hs;
    hs.name = "server" + std::to_string(h);
    hs.region = h < R ? h : static_cast<int>(rng() % R);  // every region gets at least one server
    hs.gpus = gpu_counts[rng() % 4];
    hs.gpu = kinds[rng() % 4];
    hs.host_link = {1.25e9, 50e-6};
    hs.intra_link = {150e9, 2e-6};
    p.hosts.push_back(hs);
  }
  p.wan.assign(R, std::vector<LinkSpec>(R, LinkSpec{1.25e8, 10e-3}));
  std::uniform_real_distribution<double> jitter(0.9, 1.1);
  for (int a = 0; a < H; ++a)
    for (int b = a + 1; b < H; ++b) {
      const int ra = p.hosts[a].region, rb = p.hosts[b].region;
      const double d = std::hypot(x[ra] - x[rb], y[ra] - y[rb]);  // 0 .. 1.41
      const double lat = ra == rb ? 1e-3 : std::clamp(5e-3 + d * 210e-3 * jitter(rng), 1e-3, 300e-3);
      p.host_pair_latency_s[{a, b}] = lat;
    }
  ModelSpec m;
  m.name = "gpt-1.3b";
  m.layers = 24;
  m.hidden = 2048;
  m.heads = 16;
  m.seq_len = 1024;
  m.vocab = 50257;
  JobSpec j = make_job(4, 2, 4, 16, "1f1b", m);
  return make_scenario(p, j, seed);
}

/** A random small multi-region scenario (1-3 regions, 1-4 hosts each, 1-4 GPUs per host, mixed GPU types) with a
 *  random job that has at most as many ranks as GPUs. */
inline Scenario random_scenario(std::mt19937_64& rng) {
  auto pick = [&](int lo, int hi) { return static_cast<int>(lo + rng() % static_cast<unsigned>(hi - lo + 1)); };
  PlatformSpec p;
  const int R = pick(1, 3);
  const GpuSpec kinds[] = {a100(), v100(), t4()};
  for (int r = 0; r < R; ++r) p.regions.push_back("r" + std::to_string(r));
  for (int r = 0; r < R; ++r) {
    const int hosts = pick(1, 4);
    for (int i = 0; i < hosts; ++i) {
      HostSpec h;
      h.name = "h" + std::to_string(p.hosts.size());
      h.region = r;
      h.gpus = pick(1, 4);
      h.gpu = kinds[pick(0, 2)];
      h.host_link = {pick(1, 10) * 1.25e8, pick(10, 100) * 1e-6};
      h.intra_link = {pick(20, 300) * 1e9, 2e-6};
      p.hosts.push_back(h);
    }
  }
  p.wan.assign(R, std::vector<LinkSpec>(R));
  for (int a = 0; a < R; ++a)
    for (int b = 0; b < R; ++b) p.wan[a][b] = {pick(1, 20) * 1.25e7, pick(1, 150) * 1e-3};
  for (int a = 0; a < R; ++a)
    for (int b = 0; b < a; ++b) p.wan[a][b] = p.wan[b][a];
  const int G = p.total_gpus();
  int dp = 1, tp = 1, pp = 1;
  for (int tries = 0; tries < 50; ++tries) {
    const int cdp = pick(1, 4), ctp = 1 << pick(0, 2), cpp = pick(1, 4);
    if (cdp * ctp * cpp <= G) {
      dp = cdp;
      tp = ctp;
      pp = cpp;
      break;
    }
  }
  ModelSpec m = small_model(8, pick(0, 1) * 32000);
  JobSpec j = make_job(dp, tp, pp, pick(1, 8), pick(0, 1) ? "gpipe" : "1f1b", m);
  const char* coll[] = {"ring", "hierarchical", "tree"};
  j.collective = coll[pick(0, 2)];
  return make_scenario(p, j, rng());
}

/** A cluster and job of the GNN's training family, at most 64 GPUs (greedy takes seconds on the sampler's largest). */
inline Scenario small_sampled_cluster(std::uint64_t seed) {
  SamplerOptions options;
  options.max_total_gpus = 64;
  return sample_scenario(seed, options);
}

/** Host of every rank along a walk of two-rank swaps from `hosts`, every step kept (the start first). */
inline std::vector<std::vector<int>> swap_walk(std::vector<int> hosts, int steps, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<int>> walk{hosts};
  for (int i = 0; i < steps; ++i) {
    std::swap(hosts[rng() % hosts.size()], hosts[rng() % hosts.size()]);
    walk.push_back(hosts);
  }
  return walk;
}

/** Several-job clusters of the sampler (2-4 jobs, 8-64 GPUs of the builtin catalog's types) for seeds 1..last, with
 *  each one's seed: those on which round-robin's placement is valid, memory included (the others are skipped). */
inline std::vector<std::pair<std::uint64_t, Scenario>> sampled_jobs_where_round_robin_fits(std::uint64_t last) {
  SamplerOptions options;
  options.gpu_types = GpuCatalog::builtin().all();
  options.min_total_gpus = 8;
  options.max_total_gpus = 64;
  std::vector<std::pair<std::uint64_t, Scenario>> out;
  for (std::uint64_t seed = 1; seed <= last; ++seed) {
    Scenario s = sample_jobs_scenario(seed, 2 + static_cast<int>(seed % 3), options);
    if (placement_problem(s, round_robin_placement(s), true).empty()) out.emplace_back(seed, std::move(s));
  }
  return out;
}

}  // namespace hulk::testing
