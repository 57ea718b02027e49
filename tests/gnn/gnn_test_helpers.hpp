#pragma once
// Shared helpers of the gnn tests (torch-free): hand-built platforms, random scores, a stand-in evaluator.
#include <cmath>
#include <random>
#include <string>

#include "gnn/dataset.hpp"
#include "gnn/decode.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/core/spec.hpp"

namespace hulk::gnn::testing {

/** A platform of `regions` x `hosts` hosts with `gpus` GPUs each. Host NIC bandwidths all differ (1 + index
 *  Gbit/s), so every host has distinct features. WAN latency grows with region distance. */
inline Scenario grid_scenario(int regions, int hosts, int gpus, Parallelism par, double gpu_memory_bytes = 80e9) {
  Scenario s;
  s.name = "grid";
  for (int r = 0; r < regions; ++r) s.platform.regions.push_back("r" + std::to_string(r));
  s.platform.wan.assign(regions, std::vector<LinkSpec>(regions));
  for (int a = 0; a < regions; ++a)
    for (int b = 0; b < regions; ++b) s.platform.wan[a][b] = LinkSpec{1e9 / (1 + std::abs(a - b)), 0.01 * (1 + std::abs(a - b))};
  for (int r = 0; r < regions; ++r)
    for (int i = 0; i < hosts; ++i) {
      HostSpec h;
      h.name = "r" + std::to_string(r) + "h" + std::to_string(i);
      h.region = r;
      h.gpus = gpus;
      h.gpu = GpuSpec{"G", 312e12, 19.5e12, 0, gpu_memory_bytes, "8.0", 0, 0, "test"};
      const int index = static_cast<int>(s.platform.hosts.size());
      h.host_link = LinkSpec{(1.0 + index) * 1.25e8, 10e-6};
      h.intra_link = LinkSpec{200e9, 2e-6};
      s.platform.hosts.push_back(h);
    }
  s.only_job().model = ModelSpec{"tiny", 8, 1024, 16, 1024, 51200};
  s.only_job().par = par;
  s.only_job().micro_batch = 1;
  s.only_job().global_batch = par.dp * 4 * par.pp;
  s.only_job().step_costs =
      false;  // no iteration tail, as the unit and sim fixtures: the tests reason about placements
  return s;
}

/** Uniform random scores in [-5, 5]. */
inline RoleScores random_scores(const Scenario& s, std::mt19937_64& rng) {
  RoleScores r;
  r.hosts = static_cast<int>(s.platform.hosts.size());
  r.roles = s.only_job().par.pp + 1;
  std::uniform_real_distribution<float> u(-5.0f, 5.0f);
  for (int i = 0; i < r.hosts * r.roles; ++i) r.values.push_back(u(rng));
  return r;
}

/** A stand-in iteration-time model for tests only (NOT the project's evaluator): per stage the slowest GPU's
 *  compute for m micro-batches, plus for each pipeline edge m * (latency + bytes / bandwidth) of the slowest
 *  rank pair, plus a DP ring term 2 * (n-1)/n * grad_bytes / min bandwidth over the ring. */
inline double stand_in_time_s(const Scenario& s, const Placement& p);

/** Small sampled scenarios (<= 32 GPUs) with labels decoded from random scores: a valid placement that a model
 *  has to memorise. */
inline std::vector<Sample> tiny_dataset(int count, std::uint64_t seed) {
  SamplerOptions o;
  o.max_regions = 4;
  o.max_hosts_per_region = 3;
  o.max_total_gpus = 32;
  std::vector<Sample> out;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < count; ++i) {
    Sample smp;
    smp.index = i;
    smp.scenario = sample_scenario(sample_seed(seed, i), o);
    smp.label = decode_placement(smp.scenario, random_scores(smp.scenario, rng));
    out.push_back(smp);
  }
  return out;
}

}  // namespace hulk::gnn::testing

#include "sim/features/cluster_graph.hpp"

namespace hulk::gnn::testing {

inline double stand_in_time_s(const Scenario& s, const Placement& p) {
  const JobCost cost = compute_job_cost(s.only_job());
  const int dp = s.only_job().par.dp, tp = s.only_job().par.tp, pp = s.only_job().par.pp, m = cost.micro_batches;
  auto rank = [&](int k, int d, int t) { return p.gpu_of_rank[(static_cast<std::size_t>(k) * dp + d) * tp + t]; };
  double total = 0;
  for (int k = 0; k < pp; ++k) {
    double slowest = 0;
    for (int d = 0; d < dp; ++d)
      for (int t = 0; t < tp; ++t) {
        const HostSpec& h = s.platform.hosts[rank(k, d, t).host];
        slowest = std::max(slowest, 3.0 * cost.stages[k].fwd_flops_per_mb() /
                                        (h.gpu.peak_flops(s.only_job().precision) * s.only_job().utilisation));
      }
    total += m * slowest;
    if (k + 1 < pp) {
      double worst = 0;
      for (int d = 0; d < dp; ++d)
        for (int t = 0; t < tp; ++t) {
          const HostRoute r = route_between(s.platform, rank(k, d, t).host, rank(k + 1, d, t).host);
          worst = std::max(worst, r.latency_s + cost.pp_message_bytes / r.bandwidth_Bps);
        }
      total += 2.0 * m * worst;
    }
    if (dp > 1) {
      double min_bw = 1e30;
      for (int t = 0; t < tp; ++t)
        for (int d = 0; d < dp; ++d)
          min_bw = std::min(min_bw, route_between(s.platform, rank(k, d, t).host, rank(k, (d + 1) % dp, t).host).bandwidth_Bps);
      total += 2.0 * (dp - 1) / dp * cost.stages[k].dp_grad_bytes / min_bw;
    }
  }
  return total;
}

}  // namespace hulk::gnn::testing
