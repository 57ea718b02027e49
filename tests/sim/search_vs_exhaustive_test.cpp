// SimGrid checks of the placement machinery (each TEST runs in its own process: gtest_discover_tests).
// 1. The analytic evaluator agrees with SimGrid within 1% on contention-free scenarios (and on one simple
//    contended case whose equal-share contention the evaluator models exactly); the measured error is printed.
// 2. On tiny instances, search (checked by SimGrid) is within 2% of the exhaustive SimGrid optimum and not worse
//    than greedy (1% tolerance: search optimises the evaluator, not SimGrid).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "../unit/placement_test_platforms.hpp"
#include "sim/core/errors.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/exhaustive_placer.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;


struct AgreementCase {
  std::string name;
  Scenario scenario;
  std::vector<int> hosts;  // host of every rank
  double max_error = 0.2;  // contended cases: the bound on |error|
};

std::vector<AgreementCase> agreement_cases() {
  std::vector<AgreementCase> out;
  const LinkSpec nic{1.25e9, 50e-6}, wan{1.25e8, 30e-3};
  // TP ring over 4 hosts (one flow per NIC direction).
  out.push_back({"tp_ring_across_hosts", make_scenario(make_platform({4}, 1, a100(), nic), make_job(1, 4, 1, 2)),
                 {0, 1, 2, 3}});
  // TP inside one host (4 flows on the shared intra-host link: equal shares, exact).
  out.push_back({"tp_inside_host", make_scenario(make_platform({1}, 4, a100(), nic), make_job(1, 4, 1, 2)),
                 {0, 0, 0, 0}});
  // Two pipeline stages in two regions, GPipe.
  out.push_back({"pp_across_regions_gpipe",
                 make_scenario(make_platform({1, 1}, 1, a100(), nic, wan), make_job(1, 1, 2, 4, "gpipe")), {0, 1}});
  // Four stages, 1F1B, one region, NICs fast enough that successive messages never overlap: bubble.
  out.push_back({"pp4_1f1b_bubble",
                 make_scenario(make_platform({4}, 1, a100(), {100e9, 5e-6}), make_job(1, 1, 4, 8, "1f1b")),
                 {0, 1, 2, 3}});
  // DP ring across 4 regions.
  out.push_back({"dp_ring_across_regions",
                 make_scenario(make_platform({1, 1, 1, 1}, 1, a100(), nic, wan), make_job(4, 1, 1, 2)), {0, 1, 2, 3}});
  // Simple contended case: dp 2 x tp 2, TP inside hosts, both DP rings share each NIC (equal shares).
  out.push_back({"dp2_tp2_shared_nic", make_scenario(make_platform({2}, 2, a100(), nic), make_job(2, 2, 1, 2)),
                 {0, 0, 1, 1}});
  // TP ring alternating intra-host and WAN hops (tp 4 as 2 + 2 GPUs in two regions): chunks queue on the slow hops'
  // connections, the fast hops wait for them (in-order connections, no step barrier).
  out.push_back({"tp_ring_alternating_wan",
                 make_scenario(make_platform({1, 1}, 2, a100(), nic, wan), make_job(1, 4, 1, 1)), {0, 0, 1, 1}});
  return out;
}

class EvaluatorVsSimGrid : public ::testing::TestWithParam<int> {};

TEST_P(EvaluatorVsSimGrid, AgreesWithinOnePercent) {
  const AgreementCase c = agreement_cases()[GetParam()];
  const Placement p = placement_from_hosts(c.hosts);
  const double analytic = Evaluator(c.scenario).iteration_time_s(p);
  SimOptions o;
  o.record_events = false;
  o.record_spans = false;
  const double simulated = simulate(c.scenario, p, o).iteration_time_s;  // one simulation in this process
  const double err = (analytic - simulated) / simulated;
  std::printf("[evaluator-vs-simgrid] %s: analytic %.6f s, simgrid %.6f s, error %+.2f%%\n", c.name.c_str(),
              analytic, simulated, 100 * err);
  RecordProperty("relative_error", std::to_string(err));
  EXPECT_LT(std::fabs(err), 0.01) << c.name;  // measured: all exact to 0.01%
}

INSTANTIATE_TEST_SUITE_P(ContentionFree, EvaluatorVsSimGrid, ::testing::Range(0, 7),
                         [](const ::testing::TestParamInfo<int>& i) { return agreement_cases()[i.param].name; });

// Contended scenarios: the evaluator's sharing model is approximate here (shares counted per phase, TP rings of
// other stages weighted by their duty, PP messages during TP all-reduces not counted). The error is printed and
// bounded a little above what is measured (0%, 0%, +5.1%, +0.1%, +11.8%, -2.6%; before the other stages' TP rings
// and the early DP all-reduces were counted: 0%, 0%, -14.8%, +0.1%, -33.5%, -4.8%): measured and reported, not
// hidden.
std::vector<AgreementCase> contended_cases() {
  std::vector<AgreementCase> out;
  const LinkSpec nic{1.25e9, 50e-6};
  // Comm-bound 1F1B: 1 MB hand-offs take ~5x a stage's forward; each NIC carries both directions' bursts.
  out.push_back({"pp4_1f1b_comm_bound", make_scenario(make_platform({4}, 1, a100(), nic), make_job(1, 1, 4, 8)),
                 {0, 1, 2, 3}});
  // 3D job dp 2 x tp 2 x pp 2 on 2 regions, TP inside hosts, stages split across regions.
  out.push_back({"dp2_tp2_pp2_two_regions",
                 make_scenario(make_platform({2, 2}, 2, a100(), nic, {1.25e8, 20e-3}), make_job(2, 2, 2, 4)),
                 {0, 0, 1, 1, 2, 2, 3, 3}});
  // Same job, a scattered placement (TP and DP across regions).
  out.push_back({"dp2_tp2_pp2_scattered",
                 make_scenario(make_platform({2, 2}, 2, a100(), nic, {1.25e8, 20e-3}), make_job(2, 2, 2, 4)),
                 {0, 2, 1, 3, 0, 2, 1, 3}});
  // The 47-server Hulk-like platform, dp 4 x tp 2 x pp 4, a random placement (measured-latency routes).
  {
    Scenario s = testing::hulk_like_scenario();
    s.only_job().model.layers = 8;  // keeps the simulation short; the structure is unchanged
    std::mt19937_64 rng(5);
    std::vector<int> hosts;
    std::vector<int> free(s.platform.hosts.size());
    for (size_t h = 0; h < free.size(); ++h) free[h] = s.platform.hosts[h].gpus;
    while (static_cast<int>(hosts.size()) < s.only_job().par.ranks()) {
      const int h = static_cast<int>(rng() % free.size());
      if (free[h] > 0) {
        --free[h];
        hosts.push_back(h);
      }
    }
    out.push_back({"hulk_like_random_placement", s, hosts});
  }
  // tp 2 x pp 2, both stages' TP pairs split over the same two hosts (hand-offs stay inside the hosts): the two
  // stages' rings share each NIC while both compute (docs/model.md approximation 1, tp_rings.cpp).
  out.push_back({"tp_rings_of_two_stages_share_nics",
                 make_scenario(make_platform({2}, 2, a100(), nic), make_job(1, 2, 2, 8)), {0, 1, 0, 1}});
  // dp 2 x pp 3, GPipe: the last stage's replicas on hosts 0 and 1 finish first, and their DP ring crosses the
  // NICs that carry the other stages' backward hand-offs into hosts 0 and 1 (approximation 6).
  out.push_back({"early_dp_over_handoffs",
                 make_scenario(make_platform({4}, 2, a100(), nic), make_job(2, 1, 3, 8, "gpipe")),
                 {0, 1, 2, 3, 0, 1}, 0.035});
  return out;
}

class EvaluatorVsSimGridContended : public ::testing::TestWithParam<int> {};

TEST_P(EvaluatorVsSimGridContended, ErrorIsMeasured) {
  const AgreementCase c = contended_cases()[GetParam()];
  const Placement p = placement_from_hosts(c.hosts);
  const double analytic = Evaluator(c.scenario).iteration_time_s(p);
  SimOptions o;
  o.record_events = false;
  o.record_spans = false;
  const double simulated = simulate(c.scenario, p, o).iteration_time_s;
  const double err = (analytic - simulated) / simulated;
  std::printf("[evaluator-vs-simgrid contended] %s: analytic %.6f s, simgrid %.6f s, error %+.2f%%\n",
              c.name.c_str(), analytic, simulated, 100 * err);
  RecordProperty("relative_error", std::to_string(err));
  EXPECT_LT(std::fabs(err), c.max_error) << c.name;
}

INSTANTIATE_TEST_SUITE_P(Contended, EvaluatorVsSimGridContended, ::testing::Range(0, 6),
                         [](const ::testing::TestParamInfo<int>& i) { return contended_cases()[i.param].name; });

// Tiny heterogeneous instances where placement matters.
Scenario tiny_instance(int which) {
  const LinkSpec nic{1.25e9, 50e-6};
  if (which == 0) {
    // Fast, slow and remote servers; 3D-ish job tp 2 x pp 2.
    PlatformSpec p = make_platform({2, 1}, 2, a100(), nic, {1.25e8, 40e-3});
    p.hosts[1].gpu = testing::t4();
    p.hosts[2].gpu = testing::v100();
    return make_scenario(p, make_job(1, 2, 2, 4, "1f1b", testing::small_model(8, 32000)));
  }
  if (which == 1) {
    // Two regions with a slow WAN, dp 2 x pp 2, GPipe.
    PlatformSpec p = make_platform({2, 2}, 2, a100(), nic, {6.25e7, 80e-3});
    p.hosts[0].gpu = testing::v100();
    return make_scenario(p, make_job(2, 1, 2, 4, "gpipe"));
  }
  // Six single-GPU servers in three regions, a 4-stage pipeline; the first listed server is a slow T4 (round-robin
  // uses it) and regions 0 and 2 are far apart.
  PlatformSpec p = make_platform({2, 2, 2}, 1, a100(), nic, {1.25e8, 20e-3});
  p.wan[0][2] = p.wan[2][0] = {1.25e8, 150e-3};
  p.hosts[0].gpu = testing::t4();
  return make_scenario(p, make_job(1, 1, 4, 6, "1f1b", testing::small_model(8, 32000)));
}

class SearchVsExhaustive : public ::testing::TestWithParam<int> {};

TEST_P(SearchVsExhaustive, SearchWithinTwoPercentOfTheSimGridOptimum) {
  const Scenario s = tiny_instance(GetParam());
  ExhaustiveOptions oracle;
  oracle.time_oracle = hulk::simulated_iteration_time_s;  // SimGrid, one child process per placement
  ExhaustivePlacer ex(oracle);
  const Placement best = ex.place(s);
  ASSERT_GT(ex.evaluated(), 1);
  const double t_opt = ex.best_time_s();
  const double t_search = simulated_iteration_time_s(s, SearchPlacer().place(s));
  const double t_greedy = simulated_iteration_time_s(s, GreedyPlacer().place(s));
  const double t_rr = simulated_iteration_time_s(s, round_robin_placement(s));
  std::printf("[search-vs-exhaustive] instance %d: %lld placements, optimum %.6f s, search %.6f s (%+.2f%%), "
              "greedy %.6f s, round-robin %.6f s\n",
              GetParam(), ex.evaluated(), t_opt, t_search, 100 * (t_search / t_opt - 1), t_greedy, t_rr);
  EXPECT_DOUBLE_EQ(simulated_iteration_time_s(s, best), t_opt);  // the optimum is reproducible
  EXPECT_LE(t_search, 1.02 * t_opt);
  EXPECT_GE(t_search, t_opt * (1 - 1e-9));  // nothing beats the exhaustive optimum
  EXPECT_LE(t_search, 1.01 * t_greedy);
  // With the SimGrid re-check, search is never worse than its start under SimGrid either.
  SearchOptions checked;
  checked.simgrid_candidates = 4;
  checked.simgrid_time = hulk::simulated_iteration_time_s;
  SearchPlacer rechecked(checked);
  const Placement pc = rechecked.place(s);
  const double t_checked = simulated_iteration_time_s(s, pc);
  EXPECT_DOUBLE_EQ(t_checked, rechecked.stats().simgrid_time_s);
  EXPECT_GE(rechecked.stats().simgrid_runs, 2);
  const double t_start = rechecked.stats().start_method == "greedy" ? t_greedy : t_rr;
  EXPECT_LE(t_checked, t_start * (1 + 1e-12));
  EXPECT_LE(t_checked, t_search * (1 + 1e-12));  // the evaluator's best is among the candidates
}

INSTANTIATE_TEST_SUITE_P(Tiny, SearchVsExhaustive, ::testing::Range(0, 3));

}  // namespace
}  // namespace hulk
