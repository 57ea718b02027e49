#pragma once
/** @file scenario_sampler.hpp
 *  @brief Random but realistic multi-region platforms and training jobs, for GNN training data (`hulk gnn gen-data`).
 *  Pure code, deterministic for a seed. Assumptions (all drawn, all documented here):
 *  - regions: 2..16, placed near a few metro clusters on a sphere (North America, Europe, East Asia, ...);
 *    one-way WAN latency = great-circle distance / (2/3 c) * stretch U(1.5, 2.5) + 2 ms, clamped to
 *    [5 ms, 300 ms] (the Hulk data set's measured range);
 *  - WAN bandwidth per region pair: log-uniform 50 Mbps .. 10 Gbps; LAN (host NIC): log-uniform 10..100 Gbps,
 *    latency 5..50 us; intra-host: NVLink-class 150..300 GB/s per GPU for 8-GPU data-centre servers, else
 *    PCIe-class 12..25 GB/s, latency 1..5 us;
 *  - hosts: 1..16 per region with 1, 2, 4 or 8 GPUs, one GPU model per region most of the time (data centres
 *    are bought in batches), the total capped by max_total_gpus;
 *  - job: a transformer between the presets (layers 8..96, hidden 1024..8192, heads = hidden / 64 or / 128),
 *    dp/tp/pp with dp*tp*pp <= GPUs, tp <= GPUs per host and dividing heads, layers >= pp, and stage memory
 *    that fits on enough GPUs (a valid placement exists). */
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Knobs of the sampler. */
struct SamplerOptions {
  int min_regions = 2;
  int max_regions = 16;
  int min_hosts_per_region = 1;
  int max_hosts_per_region = 16;
  int max_total_gpus = 256;   ///< hosts are dropped (last region first) until the platform fits
  int min_total_gpus = 4;     ///< hosts' GPUs are doubled (to 8 at most, never past max_total_gpus) towards this
  /** @brief GPU models to draw from; empty = a built-in table of common data-centre GPUs (public datasheet
   *  numbers). The lead passes GpuCatalog::builtin().all() once the catalog loader is merged. */
  std::vector<GpuSpec> gpu_types;
  /** @brief What the sampled WAN bandwidths cap (PlatformSpec::wan_capacity): the region pair's one pipe (default,
   *  the training family) or each host's own egress toward the other region. Draws are the same either way. */
  WanCapacity wan_capacity = WanCapacity::pair;
};

/** @brief The built-in GPU table used when SamplerOptions::gpu_types is empty (NVIDIA datasheets, dense). */
std::vector<GpuSpec> sampler_builtin_gpus();

/** @brief Draws a scenario (platform + job) from a seed. Same seed and options, same scenario (bit for bit).
 *  The scenario's seed field is set to `seed`, its name to "sampled-<seed>". @throws InputError on options
 *  that cannot produce a platform (e.g. min > max). */
Scenario sample_scenario(std::uint64_t seed, const SamplerOptions& options = {});

/** @brief Draws a platform as sample_scenario does and `jobs` (2..8) jobs sharing it, each drawn as sample_scenario's
 *  job but on a GPU budget: the budgets together are a fraction U(0.5, 0.9) of the GPUs, split in random
 *  proportions; redrawn until the jobs fit the GPUs' memory together. Jobs are named job0, job1, ..., weight 1.
 *  Its own random stream (a different scenario from sample_scenario's for the same seed); name
 *  "sampled-jobs-<seed>". @throws InputError for a job count out of range or when no set of jobs fits. */
Scenario sample_jobs_scenario(std::uint64_t seed, int jobs, const SamplerOptions& options = {});

/** @brief True if the job's stages can be placed on the platform's GPUs with memory respected (each stage needs
 *  dp*tp GPUs whose memory >= its peak memory). Pure counting argument: stages sorted by demand, GPUs by memory. */
bool memory_feasible(const Scenario& scenario);

}  // namespace hulk
