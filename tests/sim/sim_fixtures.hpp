#pragma once
// Scenario builders for the simulation tests: built in code, no YAML.
#include <string>

#include "sim/core/spec.hpp"
#include "sim/engine/simulator.hpp"

namespace hulk_test {

/** A GPU fast enough that compute time is negligible (1e30 flop/s) with effectively unlimited memory. */
inline hulk::GpuSpec infinite_gpu() {
  hulk::GpuSpec g;
  g.name = "inf";
  g.fp16_flops = 1e30;
  g.fp32_flops = 1e30;
  g.memory_bytes = 1e18;
  return g;
}

/** regions x hosts_per_region hosts of `gpus` GPUs; all NICs nic_Bps/nic_lat_s; every WAN pair wan_Bps/wan_lat_s. */
inline hulk::PlatformSpec grid_platform(int regions, int hosts_per_region, int gpus, double nic_Bps, double nic_lat_s,
                                        double wan_Bps, double wan_lat_s, hulk::GpuSpec gpu = infinite_gpu()) {
  hulk::PlatformSpec p;
  for (int r = 0; r < regions; ++r) {
    p.regions.push_back("region" + std::to_string(r));
    for (int h = 0; h < hosts_per_region; ++h) {
      hulk::HostSpec host;
      host.name = "r" + std::to_string(r) + "h" + std::to_string(h);
      host.region = r;
      host.gpus = gpus;
      host.gpu = gpu;
      host.host_link = {nic_Bps, nic_lat_s};
      host.intra_link = {100e9, 1e-6};
      p.hosts.push_back(host);
    }
  }
  p.wan.assign(regions, std::vector<hulk::LinkSpec>(regions, hulk::LinkSpec{wan_Bps, wan_lat_s}));
  return p;
}

/** A small transformer job: hidden 1024, seq 128, vocab 1 (so the last stage's logits are negligible and stages
 *  are uniform), one iteration, utilisation 1, no iteration tail (step_costs off). */
inline hulk::JobSpec small_job(int dp, int tp, int pp, int layers, int micro_batches) {
  hulk::JobSpec j;
  j.model = {"test", layers, 1024, 16, 128, 1};
  j.precision = "fp16";
  j.micro_batch = 1;
  j.global_batch = dp * micro_batches;
  j.par = {dp, tp, pp};
  j.iterations = 1;
  j.utilisation = 1.0;
  j.check_memory = false;
  // The iteration's tail (embedding and gradient-norm all-reduces) is tested on its own (iteration_costs_test.cpp);
  // here it would add latencies to the closed forms of the pipeline and the collectives.
  j.step_costs = false;
  return j;
}

inline hulk::Scenario scenario(const hulk::PlatformSpec& p, const hulk::JobSpec& j) {
  hulk::Scenario s;
  s.name = "test";
  s.seed = 1;
  s.platform = p;
  s.only_job() = j;
  return s;
}

/** Options of a run that records neither messages nor spans (only the times are read). */
inline hulk::SimOptions quiet_options() {
  hulk::SimOptions o;
  o.record_events = false;
  o.record_spans = false;
  return o;
}

/** A failure of `host` at `at` (s), restarting after `restart` s, the host down for `down_for` s. */
inline hulk::EventSpec host_failure(int host, double at, double restart, double down_for) {
  hulk::EventSpec e;
  e.kind = hulk::EventSpec::Kind::host_fail;
  e.target.kind = hulk::EventTarget::Kind::host;
  e.target.host = host;
  e.at_s = at;
  e.restart_s = restart;
  e.duration_s = down_for;
  e.origin = "events[0]";
  return e;
}

}  // namespace hulk_test
