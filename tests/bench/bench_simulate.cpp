// Simulator speed benchmark (not a test). Build: cmake --build build --target hulk_bench_simulate
// Run: /usr/bin/time -v build/tests/bench/hulk_bench_simulate hulk47|gpu1024|actors10k|SCENARIO.yaml
//      [block|round-robin] [events]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "sim/place/placer.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/engine/simulator.hpp"

namespace {

hulk::GpuSpec gpu(const char* name, double fp16, double fp32, double mem) {
  hulk::GpuSpec g;
  g.name = name;
  g.fp16_flops = fp16;
  g.fp32_flops = fp32;
  g.memory_bytes = mem;
  return g;
}

/** A platform the size of the measured Hulk data: 47 servers in 12 cities, 4 V100-32GB each, every host pair
 *  with its own one-way latency (uniform 1-120 ms between cities, 0.1-1 ms inside, seeded). */
hulk::Scenario hulk47() {
  hulk::Scenario s;
  s.name = "bench-hulk47";
  const int regions = 12;
  for (int r = 0; r < regions; ++r) s.platform.regions.push_back("city" + std::to_string(r));
  for (int i = 0; i < 47; ++i) {
    hulk::HostSpec h;
    h.name = "server" + std::to_string(i);
    h.region = i % regions;
    h.gpus = 4;
    h.gpu = gpu("V100-32GB", 125e12, 15.7e12, 32e9);
    h.host_link = {1.25e9, 50e-6};
    h.intra_link = {150e9, 2e-6};
    s.platform.hosts.push_back(h);
  }
  s.platform.wan.assign(regions, std::vector<hulk::LinkSpec>(regions, hulk::LinkSpec{1.25e8, 50e-3}));
  std::mt19937_64 rng(47);
  std::uniform_real_distribution<double> far(1e-3, 120e-3), near(0.1e-3, 1e-3);
  for (int a = 0; a < 47; ++a)
    for (int b = a + 1; b < 47; ++b)
      s.platform.host_pair_latency_s[{a, b}] =
          s.platform.hosts[a].region == s.platform.hosts[b].region ? near(rng) : far(rng);
  s.only_job().model = {"gpt3-xl", 24, 2048, 16, 2048, 50257};
  s.only_job().global_batch = 128;
  s.only_job().micro_batch = 1;
  s.only_job().par = {4, 4, 8};
  s.only_job().collective = "hierarchical";
  return s;
}

/** 128 hosts x 8 A100-80GB in 16 regions, GPT-3 13B, dp x tp x pp = 16 x 8 x 8, 32 micro-batches. */
hulk::Scenario gpu1024() {
  hulk::Scenario s;
  s.name = "bench-1024";
  const int regions = 16;
  for (int r = 0; r < regions; ++r) s.platform.regions.push_back("region" + std::to_string(r));
  for (int i = 0; i < 128; ++i) {
    hulk::HostSpec h;
    h.name = "host" + std::to_string(i);
    h.region = i / 8;
    h.gpus = 8;
    h.gpu = gpu("A100-80GB", 312e12, 19.5e12, 80e9);
    h.host_link = {12.5e9, 5e-6};
    h.intra_link = {300e9, 2e-6};
    s.platform.hosts.push_back(h);
  }
  s.platform.wan.assign(regions, std::vector<hulk::LinkSpec>(regions, hulk::LinkSpec{1.25e9, 30e-3}));
  s.only_job().model = {"gpt3-13b", 40, 5120, 40, 2048, 50257};
  s.only_job().global_batch = 512;
  s.only_job().micro_batch = 1;
  s.only_job().par = {16, 8, 8};
  s.only_job().collective = "ring";
  return s;
}

/** 10,000 rank actors (a 10,000-stage pipeline of a tiny model, one micro-batch) on 125 hosts x 80 GPUs: measures
 *  the per-actor memory (contexts/stack-size). */
hulk::Scenario actors10k() {
  hulk::Scenario s;
  s.name = "bench-actors10k";
  const int regions = 5;
  for (int r = 0; r < regions; ++r) s.platform.regions.push_back("region" + std::to_string(r));
  for (int i = 0; i < 125; ++i) {
    hulk::HostSpec h;
    h.name = "host" + std::to_string(i);
    h.region = i % regions;
    h.gpus = 80;
    h.gpu = gpu("A100-80GB", 312e12, 19.5e12, 80e9);
    h.host_link = {12.5e9, 5e-6};
    h.intra_link = {300e9, 2e-6};
    s.platform.hosts.push_back(h);
  }
  s.platform.wan.assign(regions, std::vector<hulk::LinkSpec>(regions, hulk::LinkSpec{1.25e9, 30e-3}));
  s.only_job().model = {"tiny", 10000, 64, 4, 16, 100};
  s.only_job().global_batch = 1;
  s.only_job().micro_batch = 1;
  s.only_job().par = {1, 1, 10000};
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "hulk47";
  const std::string placement = argc > 2 ? argv[2] : "block";
  const bool events = argc > 3 && std::string(argv[3]) == "events";
  const bool yaml = which.size() > 5 && which.substr(which.size() - 5) == ".yaml";
  hulk::Scenario s = yaml ? hulk::load_scenario_file(which)
                          : which == "gpu1024" ? gpu1024() : which == "actors10k" ? actors10k() : hulk47();
  s.only_job().iterations = 1;
  if (const char* gb = std::getenv("HULK_BENCH_GLOBAL_BATCH")) s.only_job().global_batch = std::atoi(gb);  // profiling
  hulk::Placement pl;
  if (placement == "round-robin") {
    pl = hulk::round_robin_placement(s);
  } else {  // block: consecutive ranks fill a host (TP groups inside a host)
    for (const auto& g : hulk::all_gpus(s.platform)) {
      if (static_cast<int>(pl.gpu_of_rank.size()) == s.only_job().par.ranks()) break;
      pl.gpu_of_rank.push_back(g);
    }
  }
  hulk::SimOptions opt;
  opt.record_events = events;
  opt.record_spans = events;
  const auto t0 = std::chrono::steady_clock::now();
  hulk::SimResult r = hulk::simulate(s, pl, opt);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "%s placement=%s ranks=%d messages=%lld events=%zu iteration_time_s=%.6f compute_s=%.6f tp=%.6f "
      "dp=%.6f pp=%.6f bubble=%.6f wall_s=%.2f\n",
      which.c_str(), placement.c_str(), s.only_job().par.ranks(), r.messages, r.events.size(), r.iteration_time_s,
      r.compute_s, r.comm_tp_s, r.comm_dp_s, r.comm_pp_s, r.bubble_s, wall);
  return 0;
}
