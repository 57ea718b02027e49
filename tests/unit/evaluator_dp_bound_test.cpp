// The lower bound's communication terms (evaluator_bound.cpp): the DP all-reduce after each replica's stage (every
// member's chain of sends, the ring's hop after hop, the busiest link of each stage) and the busiest link of the PP
// hand-offs. They must never put the bound above the evaluation, whatever the collective, channels, TCP window,
// latency model or other jobs on the links, and they must see what DP-bound jobs spend (else they skip nothing).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/fastest_candidate.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk {
namespace {

using testing::make_job;
using testing::make_platform;
using testing::make_scenario;
using testing::swap_walk;

TEST(EvaluatorDpBound, NeverAboveTheEvaluationWithEveryCollective) {
  // Sampled DP jobs, each with the three collectives, one or two channels per peer, some with a TCP window and some
  // under LV08 (the latency first): the per-stage estimates and the all-stage fluid (pp >= 2, few transfers) both.
  const char* collectives[] = {"ring", "hierarchical", "tree"};
  // Sampling runs until the coverage below is reached (placements that do not fit in memory compare nothing), with
  // a ceiling so that a placer that stops fitting anything fails the coverage checks instead of looping.
  const auto covered = [](int compared, int scenarios, int fluid) {
    return compared >= 1200 && scenarios >= 90 && fluid >= 30;
  };
  int compared = 0, scenarios = 0, fluid = 0;
  for (std::uint64_t seed = 1; seed < 600 && !covered(compared, scenarios, fluid); ++seed) {
    const Scenario sampled = sample_scenario(seed);
    if (sampled.only_job().par.ranks() > 96 || sampled.only_job().par.dp < 2) continue;
    for (const char* collective : collectives) {
      Scenario s = sampled;
      s.only_job().collective = collective;
      s.network.channels_per_peer = 1 + static_cast<int>(seed % 2);
      if (seed % 3 == 0) s.network.tcp_window_bytes = 4e6;
      if (seed % 5 == 0) s.network.model = "LV08";
      std::vector<int> greedy;
      try {
        greedy = hosts_of(GreedyPlacer().place(s));
      } catch (const InputError&) {
        continue;
      }
      ++scenarios;
      fluid += s.only_job().par.pp > 1;
      const Evaluator ev(s);
      for (const std::vector<int>& hosts : swap_walk(greedy, 20, seed)) {
        const double bound = ev.time_lower_bound_of_hosts(hosts), t = ev.time_of_hosts(hosts);
        if (!std::isfinite(t)) continue;
        ++compared;
        EXPECT_LE(bound * (1.0 - kBoundRoundingSlack), t)
            << s.name << " " << collective << " dp " << s.only_job().par.dp << " pp " << s.only_job().par.pp
            << " channels " << s.network.channels_per_peer;
      }
    }
  }
  EXPECT_GE(scenarios, 90);
  EXPECT_GE(fluid, 30);
  EXPECT_GE(compared, 1200);
}

TEST(EvaluatorDpBound, NeverAboveTheObjectiveOfSeveralJobsSharingLinks) {
  // Each job's bound under the others' share of the links (Evaluator::share_links), summed as the objective.
  SamplerOptions o;
  o.max_total_gpus = 64;
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const Scenario s = sample_jobs_scenario(seed, 3, o);
    const JobsEvaluator ev(s);
    for (const std::vector<int>& hosts : swap_walk(hosts_of(best_greedy_jobs_placement(s, ev)), 25, seed)) {
      const Placement p = placement_from_hosts(hosts);
      const double t = ev.objective_s(p);
      if (!std::isfinite(t)) continue;
      ++compared;
      EXPECT_LE(ev.objective_lower_bound_of_hosts(hosts) * (1.0 - kBoundRoundingSlack), t) << s.name;
    }
  }
  EXPECT_GE(compared, 80);
}

/** dp 4 x pp 1 on one host per region, two regions over a thin WAN: a DP-bound job (a small model's compute, 100 MB
 *  of gradients per all-reduce member over 125 MB/s). */
Scenario dp_bound_scenario(const std::string& collective) {
  Scenario s = make_scenario(make_platform({2, 2}, 1, testing::a100(), {1.25e9, 50e-6}, {1.25e8, 20e-3}),
                             make_job(4, 1, 1, 2, "1f1b", testing::small_model(8)));
  s.only_job().collective = collective;
  return s;
}

TEST(EvaluatorDpBound, SeesMostOfADpBoundJobsAllReduce) {
  // Without the DP term the bound is the compute alone, a small part of the time: nothing would be skipped.
  for (const char* collective : {"ring", "hierarchical", "tree"}) {
    const Scenario s = dp_bound_scenario(collective);
    const Evaluator ev(s);
    const std::vector<int> hosts{0, 2, 1, 3};  // the ring crosses the WAN at every hop
    const EvalBreakdown b = ev.evaluate_hosts(hosts);
    ASSERT_GT(b.dp_comm_s, 2.0 * (b.iteration_time_s - b.dp_comm_s)) << collective << ": not DP-bound";
    const double bound = ev.time_lower_bound_of_hosts(hosts);
    EXPECT_GE(bound, 0.75 * b.iteration_time_s) << collective;
    EXPECT_LE(bound * (1.0 - kBoundRoundingSlack), b.iteration_time_s) << collective;
  }
}

TEST(EvaluatorDpBound, SeesTheGroupsSharingTheWanLink) {
  // dp 4 x tp 4, each TP rank's DP ring over the same two hosts in two regions: the four rings share the WAN link,
  // four times one ring's bytes on it. Each ring alone would give a quarter of that.
  Scenario s = make_scenario(make_platform({1, 1}, 8, testing::a100(), {1.25e10, 50e-6}, {1.25e8, 5e-3}),
                             make_job(4, 4, 1, 2, "1f1b", testing::small_model(8)));
  s.only_job().collective = "ring";
  const Evaluator ev(s);
  std::vector<int> hosts(16);
  for (int d = 0; d < 4; ++d)
    for (int t = 0; t < 4; ++t) hosts[ev.plan().rank_of(0, d, t)] = d % 2;  // replicas alternate between the hosts
  const EvalBreakdown b = ev.evaluate_hosts(hosts);
  const double bound = ev.time_lower_bound_of_hosts(hosts);
  EXPECT_GE(bound, 0.75 * b.iteration_time_s) << "dp " << b.dp_comm_s << " of " << b.iteration_time_s;
  EXPECT_LE(bound * (1.0 - kBoundRoundingSlack), b.iteration_time_s);
}

TEST(EvaluatorDpBound, SeesTheReplicasHandOffsSharingTheWanLink) {
  // dp 4 x pp 2, every replica's stage 0 in region 0 and stage 1 in region 1 over one thin WAN link, many
  // micro-batches: the four replicas' hand-offs queue on that link. Each replica alone would give a quarter.
  Scenario s = make_scenario(make_platform({4, 4}, 1, testing::a100(), {1.25e10, 50e-6}, {1.25e7, 1e-3}),
                             make_job(4, 1, 2, 16, "1f1b", testing::small_model(8)));
  const Evaluator ev(s);
  std::vector<int> hosts(8);
  for (int d = 0; d < 4; ++d) {
    hosts[ev.plan().rank_of(0, d, 0)] = d;
    hosts[ev.plan().rank_of(1, d, 0)] = 4 + d;
  }
  const EvalBreakdown b = ev.evaluate_hosts(hosts);
  const double bound = ev.time_lower_bound_of_hosts(hosts);
  EXPECT_GE(bound, 0.6 * b.pipeline_s) << "pipeline " << b.pipeline_s << ", time " << b.iteration_time_s;
  EXPECT_LE(bound * (1.0 - kBoundRoundingSlack), b.iteration_time_s);
}

}  // namespace
}  // namespace hulk
