// The closed form of private tensor-parallel groups (sim/engine/private_ring.hpp) against the per-message path on
// sampled clusters (the GNN's sampler: 2-16 regions, heterogeneous GPUs, pair and per-host WAN, one or several
// jobs), each with greedy's and a random placement: both runs must finish (a sampled wan-host cluster once made the
// closed form deadlock SimGrid) and agree.
//
// Agreement: greedy's placements within 0.1%. Random placements are congested, and there the simulated time is
// chaotic: sampled cluster 6042's random placement takes 114.09 s per message and 112.40 s in closed form, while the
// per-message time alone moves by up to 0.86% when every intra-host bandwidth changes by 1e-9 to 1e-8 (printed for
// every case beyond 0.1%). Such last-bit sensitivity also differs between machines (libm variants), so random
// placements are held to 10% only: far above the chaos, far below a wrong model or a ring that never ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/core/jobs.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/scenario/catalog.hpp"

namespace {

struct Draw {
  std::uint64_t seed;
  hulk::WanCapacity wan;
  int jobs;  ///< 1 = sample_scenario, else sample_jobs_scenario
};

struct Timed {
  double iteration_s = 0;
  long long closed_form = 0;
};

Timed simulate_in_child(const hulk::Scenario& s, const hulk::Placement& p, bool closed_form) {
  const nlohmann::json out = hulk::run_in_child([&] {
    hulk::SimOptions o;
    o.tp_closed_form = closed_form;
    o.record_events = false;
    o.record_spans = false;
    const hulk::SimResult r = hulk::simulate(s, p, o);
    return nlohmann::json{{"t", r.iteration_time_s}, {"cf", r.tp_closed_form_collectives}};
  });
  return {out["t"].get<double>(), out["cf"].get<long long>()};
}

hulk::Scenario with_intra_bandwidth_scaled(hulk::Scenario s, double factor) {
  for (hulk::HostSpec& h : s.platform.hosts) h.intra_link.bandwidth_Bps *= factor;
  return s;
}

}  // namespace

TEST(PrivateRingSampled, GreedyAndRandomPlacementsFinishAndAgreeWithThePerMessagePath) {
  const std::vector<Draw> draws = {
      {6000, hulk::WanCapacity::pair, 1}, {6001, hulk::WanCapacity::host, 1}, {6002, hulk::WanCapacity::pair, 1},
      {6003, hulk::WanCapacity::host, 3}, {6004, hulk::WanCapacity::pair, 1}, {6005, hulk::WanCapacity::host, 1},
      {6007, hulk::WanCapacity::host, 2}, {6042, hulk::WanCapacity::pair, 1}};
  long long closed_form = 0;
  int cases = 0, beyond_tolerance = 0;
  for (const Draw& d : draws) {
    hulk::SamplerOptions o;
    o.gpu_types = hulk::GpuCatalog::builtin().all();
    o.max_total_gpus = 64;
    o.wan_capacity = d.wan;
    const hulk::Scenario s = d.jobs > 1 ? hulk::sample_jobs_scenario(d.seed, d.jobs, o) : hulk::sample_scenario(d.seed, o);
    const std::vector<std::pair<std::string, hulk::Placement>> placements = {
        {"greedy", hulk::GreedyPlacer().place(s)}, {"random", hulk::RandomPlacer(d.seed).place(s)}};
    for (const auto& [name, p] : placements) {
      SCOPED_TRACE(s.name + " " + name);
      const Timed per_message = simulate_in_child(s, p, false), closed = simulate_in_child(s, p, true);
      EXPECT_EQ(per_message.closed_form, 0);
      closed_form += closed.closed_form;
      ++cases;
      const double gap = std::abs(closed.iteration_s - per_message.iteration_s);
      double spread = 0;
      if (gap > 1e-3 * per_message.iteration_s) {
        ++beyond_tolerance;
        for (double f : {1 + 1e-9, 1 - 1e-9, 1 + 1e-8, 1 - 1e-8})
          spread = std::max(spread, std::abs(simulate_in_child(with_intra_bandwidth_scaled(s, f), p, false).iteration_s -
                                             per_message.iteration_s));
      }
      EXPECT_LE(gap, (name == "greedy" ? 1e-3 : 0.10) * per_message.iteration_s)
          << "closed form " << closed.iteration_s << " s, per message " << per_message.iteration_s << " s";
      std::printf("%s %-6s per-message %.6f s, closed form %.6f s (%lld collectives), gap %.2g%%%s\n", s.name.c_str(),
                  name.c_str(), per_message.iteration_s, closed.iteration_s, closed.closed_form,
                  100 * gap / per_message.iteration_s,
                  spread > 0 ? (", per-message spread " + std::to_string(100 * spread / per_message.iteration_s) +
                                "% under 1e-9..1e-8 changes")
                                   .c_str()
                             : "");
    }
  }
  std::printf("%d cases, %d beyond 0.1%%\n", cases, beyond_tolerance);
  EXPECT_GT(closed_form, 0) << "no sampled case took the closed form: the test checks nothing";
}
