// Evaluator vs SimGrid on random small multi-region scenarios (placements: greedy, two random, search): the error
// distribution, the worst cases and the pairwise ranking agreement are printed and bounded (regression guards). Each
// SimGrid run is a forked child (simulated_iteration_time_s); the test itself starts no engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "../unit/placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/features/scenario_sampler.hpp"

namespace hulk {
namespace {

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * (v.size() - 1))];
}

/** Greedy's placement of s and a random one (seeded from rng); empty when greedy cannot place the job. */
std::vector<Placement> greedy_and_random(const Scenario& s, std::mt19937_64& rng) {
  std::vector<Placement> ps;
  try {
    ps.push_back(GreedyPlacer().place(s));
  } catch (const std::exception&) {
    return ps;
  }
  ps.push_back(RandomPlacer(rng()).place(s));
  return ps;
}

TEST(EvaluatorAccuracy, RandomScenariosErrorAndRankingAreMeasured) {
  std::mt19937_64 rng(777);
  std::vector<double> err_all, err_good;
  struct Case {
    double err;
    int scenario, placement;
    double analytic, simgrid;
    std::string what;
  };
  std::vector<Case> cases;
  int pairs = 0, agree = 0;
  for (int i = 0; i < 60; ++i) {
    const Scenario s = testing::random_scenario(rng);
    const Evaluator ev(s);
    std::vector<Placement> ps = greedy_and_random(s, rng);
    if (ps.empty()) continue;
    ps.push_back(RandomPlacer(rng()).place(s));
    SearchOptions so;
    so.max_evaluations = 2000;
    ps.push_back(SearchPlacer(so).place(s));
    std::vector<double> a, g;
    for (size_t k = 0; k < ps.size(); ++k) {
      a.push_back(ev.iteration_time_s(ps[k]));
      g.push_back(simulated_iteration_time_s(s, ps[k]));
      err_all.push_back(a.back() / g.back() - 1);
      const Parallelism& par = s.only_job().par;
      cases.push_back({err_all.back(), i, static_cast<int>(k), a.back(), g.back(),
                       "regions " + std::to_string(s.platform.regions.size()) + " dp " + std::to_string(par.dp) +
                           " tp " + std::to_string(par.tp) + " pp " + std::to_string(par.pp) + " m " +
                           std::to_string(s.only_job().micro_batches()) + " " + s.only_job().schedule + " " +
                           s.only_job().collective +
                           (s.only_job().pipeline_p2p_blocking() ? " blocking" : " overlapped")});
      if (k == 0 || k == 3) err_good.push_back(a.back() / g.back() - 1);
    }
    for (size_t x = 0; x < a.size(); ++x)
      for (size_t y = x + 1; y < a.size(); ++y) {
        if (std::fabs(g[x] / g[y] - 1) < 0.01) continue;  // SimGrid says equal: nothing to rank
        ++pairs;
        agree += (a[x] < a[y]) == (g[x] < g[y]);
      }
  }
  std::vector<double> abs_all, abs_good;
  for (double e : err_all) abs_all.push_back(std::fabs(e));
  for (double e : err_good) abs_good.push_back(std::fabs(e));
  std::printf("[evaluator-accuracy] all placements n=%zu: |err| median %.2f%% p90 %.2f%% max %.2f%%\n", abs_all.size(),
              100 * percentile(abs_all, 0.5), 100 * percentile(abs_all, 0.9), 100 * percentile(abs_all, 1.0));
  std::printf("[evaluator-accuracy] greedy+search placements n=%zu: |err| median %.2f%% p90 %.2f%% max %.2f%%\n",
              abs_good.size(), 100 * percentile(abs_good, 0.5), 100 * percentile(abs_good, 0.9),
              100 * percentile(abs_good, 1.0));
  // The worst cases, to read their SimGrid traces (scenario index in the rng sequence, placement 0 greedy,
  // 1-2 random, 3 search).
  std::stable_sort(cases.begin(), cases.end(),
                   [](const Case& x, const Case& y) { return std::fabs(x.err) > std::fabs(y.err); });
  for (size_t k = 0; k < std::min<size_t>(8, cases.size()); ++k)
    std::printf("[evaluator-accuracy] worst %zu: scenario %d placement %d (%s): analytic %.6f s simgrid %.6f s "
                "error %+.2f%%\n",
                k, cases[k].scenario, cases[k].placement, cases[k].what.c_str(), cases[k].analytic, cases[k].simgrid,
                100 * cases[k].err);
  std::printf("[evaluator-accuracy] pairwise ranking agreement %d/%d\n", agree, pairs);
  // Bounds just above what the evaluator reaches since it follows the engine's communication model (measured:
  // all placements median 0.00%, p90 2.3%, max 16.3%; greedy+search p90 0.7%, max 6.8%; ranking 251/251).
  ASSERT_GT(abs_all.size(), 150u);
  EXPECT_LT(percentile(abs_all, 0.5), 0.01);
  EXPECT_LT(percentile(abs_all, 0.9), 0.035);
  EXPECT_LT(percentile(abs_all, 1.0), 0.20);
  EXPECT_LT(percentile(abs_good, 0.9), 0.03);
  EXPECT_LT(percentile(abs_good, 1.0), 0.15);
  EXPECT_GT(static_cast<double>(agree) / pairs, 0.98);
}

// The random scenarios above under SimGrid's other network models: LV08 (its default) multiplies every latency by
// 13.01 and SMPI/IB by 11.64 (and bandwidths by 0.97 / 0.94), which the evaluator applies (modelling CM02 only gives
// here |error| median 70-72%, p90 91-92%; with the factors, median 0.03%, p90 0.25%, max 7.3%). Greedy's and a
// random placement each.
TEST(EvaluatorAccuracy, OtherNetworkModelsScaleLatencyAndBandwidthAsSimGridDoes) {
  for (const char* model : {"LV08", "SMPI", "IB"}) {
    std::mt19937_64 rng(777);
    std::vector<double> err;
    for (int i = 0; i < 20; ++i) {
      Scenario s = testing::random_scenario(rng);
      s.network.model = model;
      const Evaluator ev(s);
      for (const Placement& p : greedy_and_random(s, rng))
        err.push_back(std::fabs(ev.iteration_time_s(p) / simulated_iteration_time_s(s, p) - 1));
    }
    std::printf("[evaluator-models] %s n=%zu: |err| median %.2f%% p90 %.2f%% max %.2f%%\n", model, err.size(),
                100 * percentile(err, 0.5), 100 * percentile(err, 0.9), 100 * percentile(err, 1.0));
    ASSERT_GT(err.size(), 20u);
    EXPECT_LT(percentile(err, 0.5), 0.05) << model;
    EXPECT_LT(percentile(err, 0.9), 0.15) << model;
  }
}

// The GNN's generated families under both WAN capacity models (the wan-host family among them): greedy, a random
// and the evaluator-only search's placements of sampled clusters (builtin GPU catalog, <= 64 GPUs). The learned
// placer and its exchanges trust the evaluator on placements near greedy's and the search's: their error is
// bounded; random placements are only ranked (their error is large, mostly optimistic).
TEST(EvaluatorAccuracy, SampledClustersBothWanCapacityModels) {
  for (WanCapacity cap : {WanCapacity::pair, WanCapacity::host}) {
    SamplerOptions o;
    o.gpu_types = GpuCatalog::builtin().all();
    o.max_total_gpus = 64;
    o.wan_capacity = cap;
    std::vector<double> err, err_good;
    int pairs = 0, agree = 0;
    for (std::uint64_t seed = 500; seed < 512; ++seed) {
      Scenario s;
      try {
        s = sample_scenario(seed, o);
      } catch (const std::exception&) {
        continue;
      }
      const Evaluator ev(s);
      SearchOptions so;
      so.max_evaluations = 2000;
      const std::vector<Placement> ps = {GreedyPlacer().place(s), RandomPlacer(seed).place(s),
                                         SearchPlacer(so).place(s)};
      std::vector<double> a, g;
      for (std::size_t k = 0; k < ps.size(); ++k) {
        a.push_back(ev.iteration_time_s(ps[k]));
        g.push_back(simulated_iteration_time_s(s, ps[k]));
        err.push_back(a.back() / g.back() - 1);
        if (k != 1) err_good.push_back(std::fabs(err.back()));
        std::printf("[evaluator-wan] %s seed %llu: analytic %.4f simgrid %.4f (%+.1f%%)\n",
                    cap == WanCapacity::host ? "host" : "pair", static_cast<unsigned long long>(seed), a.back(),
                    g.back(), 100 * err.back());
      }
      for (size_t x = 0; x < a.size(); ++x)
        for (size_t y = x + 1; y < a.size(); ++y) {
          if (std::fabs(g[x] / g[y] - 1) < 0.01) continue;
          ++pairs;
          agree += (a[x] < a[y]) == (g[x] < g[y]);
        }
    }
    for (double& e : err) e = std::fabs(e);
    std::printf("[evaluator-wan] %s: n=%zu |err| median %.2f%% p90 %.2f%% max %.2f%%; greedy+search median %.2f%% "
                "max %.2f%%; ranking %d/%d\n",
                cap == WanCapacity::host ? "host" : "pair", err.size(), 100 * percentile(err, 0.5),
                100 * percentile(err, 0.9), 100 * percentile(err, 1.0), 100 * percentile(err_good, 0.5),
                100 * percentile(err_good, 1.0), agree, pairs);
    // Measured (12 clusters each): all placements p90 4.4% (pair) and 3.9% (host), the random placements' tensor-
    // parallel rings over the WAN beyond it (up to +48%: approximation 1's sharing between stages, weighted by duty
    // and co-busy share); greedy+search max 2.1% and 5.0%, median 0.0%; ranking 31/31 and 33/33.
    ASSERT_GE(err_good.size(), 16u);
    EXPECT_LT(percentile(err, 0.9), 0.06);
    EXPECT_LT(percentile(err_good, 0.5), 0.01);
    EXPECT_LT(percentile(err_good, 1.0), 0.12);
    EXPECT_GE(agree, pairs * 9 / 10);
  }
}

// The `larger` family's clusters (128-256 GPUs of the builtin catalog) with pipelined DP jobs, where the
// evaluator is least faithful (evaluator.hpp: the DP all-reduces of many stages fall back to per-stage estimates above
// 128 ring transfers; groups of more than 32 replicas share hand-offs in lockstep). Greedy's placement and the
// evaluator-only search's: the error and whether the search's gain over greedy by the evaluator holds in SimGrid
// (the learned placer's exchanges trust the same estimates). Bounds are regression guards at what it reaches now.
TEST(EvaluatorAccuracy, TreeAllReducesOfManyReplicasAcrossRegions) {
  // Tree all-reduces of 16-64 replicas over 16 regions (4 hosts x 8 A100s each, 1 Gbit/s 30 ms WAN): greedy's
  // placement and a random one, each within 15% of SimGrid. A per-stage fallback for jobs of more than 256 tree
  // transfers puts greedy's placement 66-79% under SimGrid (and a random one 97% over).
  const PlatformSpec platform =
      testing::make_platform(std::vector<int>(16, 4), 8, testing::a100(), {1.25e9, 50e-6}, {1.25e8, 30e-3});
  for (const Parallelism& par : {Parallelism{16, 4, 4}, Parallelism{32, 4, 4}, Parallelism{64, 1, 8}}) {
    JobSpec job = testing::make_job(par.dp, par.tp, par.pp, 8, "1f1b", testing::small_model(2 * par.pp));
    job.collective = "tree";
    const Scenario s = testing::make_scenario(platform, job);
    const Evaluator ev(s);
    for (const Placement& p : {GreedyPlacer().place(s), RandomPlacer(1).place(s)}) {
      const double analytic = ev.iteration_time_s(p), simgrid = simulated_iteration_time_s(s, p);
      std::printf("[evaluator-tree] dp %d tp %d pp %d: analytic %.3f simgrid %.3f (%+.1f%%)\n", par.dp, par.tp, par.pp,
                  analytic, simgrid, 100 * (analytic / simgrid - 1));
      EXPECT_LT(std::fabs(analytic / simgrid - 1), 0.15) << "dp " << par.dp;
    }
  }
}

TEST(EvaluatorAccuracy, WindowBoundPipelineHandOffsKeepTheirRateWhileTheLinkHasRoom) {
  // 4 regions x 4 hosts x 2 A100s, 10 Gbit/s 40 ms WAN, a 4 MB TCP window (each flow <= 50 MB/s, a twenty-fifth of
  // the WAN): the hand-offs in flight across a boundary run side by side at their window's rate in SimGrid. Sharing
  // the link among them as if uncapped gives +20% to +30% here (+70% on greedy's placement of GPT-3 XL pp 8 on such a
  // cluster); the evaluator keeps their rate and is within 0.1%.
  const PlatformSpec platform =
      testing::make_platform(std::vector<int>(4, 4), 2, testing::a100(), {3.125e9, 10e-6}, {1.25e9, 40e-3});
  for (const Parallelism& par : {Parallelism{2, 2, 8}, Parallelism{4, 1, 8}, Parallelism{8, 1, 4}}) {
    Scenario s = testing::make_scenario(platform, testing::make_job(par.dp, par.tp, par.pp, 16, "1f1b",
                                                                    testing::small_model(2 * par.pp)));
    s.network.tcp_window_bytes = 4e6;
    const Evaluator ev(s);
    for (const Placement& p : {GreedyPlacer().place(s), RandomPlacer(1).place(s)}) {
      const double analytic = ev.iteration_time_s(p), simgrid = simulated_iteration_time_s(s, p);
      std::printf("[evaluator-window] dp %d tp %d pp %d: analytic %.3f simgrid %.3f (%+.1f%%)\n", par.dp, par.tp,
                  par.pp, analytic, simgrid, 100 * (analytic / simgrid - 1));
      EXPECT_LT(std::fabs(analytic / simgrid - 1), 0.10) << "dp " << par.dp << " pp " << par.pp;
    }
  }
}

TEST(EvaluatorAccuracy, PipelinesInsideAPcieHostShareItsAggregateNotItsPorts) {
  // One region of 4 hosts x 8 A100s on PCIe (16 GB/s per GPU port, 128 GB/s shared per host), a pipeline of 8
  // stages on one host (greedy's placement) and others. Sharing the host's aggregate link among the hand-offs as if
  // it were their bottleneck (each slowed by the count of flows on it), where SimGrid gives up to 8 of them their
  // full port rate, gives +78% on dp 1 x pp 8 (8.02 ms against 4.5 ms), and the gnn's annealing then leaves greedy's
  // placement for an estimated 0.2% gain that is 10% slower in SimGrid.
  const PlatformSpec platform =
      testing::make_platform({4}, 8, testing::a100(), {3.125e9, 10e-6}, {1.25e9, 40e-3}, {16e9, 5e-6});
  for (const Parallelism& par : {Parallelism{1, 1, 8}, Parallelism{2, 1, 8}, Parallelism{2, 2, 4}}) {
    for (const char* schedule : {"gpipe", "1f1b"}) {
      const Scenario s = testing::make_scenario(platform, testing::make_job(par.dp, par.tp, par.pp, 8, schedule,
                                                                            testing::small_model(2 * par.pp)));
      const Evaluator ev(s);
      // Greedy's placement (stages packed on hosts): +4.6% to +17.6% before, within 0.2% now. A random one (TP
      // groups and stages over hosts) is off by up to -18% for another reason, unchanged: printed and bounded only.
      const std::vector<std::pair<const char*, Placement>> placements{{"greedy", GreedyPlacer().place(s)},
                                                                      {"random", RandomPlacer(1).place(s)}};
      for (const auto& [name, p] : placements) {
        const double analytic = ev.iteration_time_s(p), simgrid = simulated_iteration_time_s(s, p);
        std::printf("[evaluator-pcie] dp %d tp %d pp %d %s %s: analytic %.6f simgrid %.6f (%+.1f%%)\n", par.dp,
                    par.tp, par.pp, schedule, name, analytic, simgrid, 100 * (analytic / simgrid - 1));
        EXPECT_LT(std::fabs(analytic / simgrid - 1), std::string(name) == "greedy" ? 0.02 : 0.25)
            << "dp " << par.dp << " pp " << par.pp << " " << schedule << " " << name;
      }
    }
  }
}

TEST(EvaluatorAccuracy, LargerClustersWithPipelinedDataParallelJobsAreMeasured) {
  SamplerOptions o;
  o.gpu_types = GpuCatalog::builtin().all();
  o.min_total_gpus = 128;
  o.max_total_gpus = 256;
  std::vector<double> err;
  int optimistic = 0, moved = 0, held = 0, scenarios = 0;
  // HULK_LARGER_SEED: another first seed (a held-out check of this test's design seeds, 3100 on).
  const char* first_env = std::getenv("HULK_LARGER_SEED");
  const std::uint64_t first = first_env ? std::strtoull(first_env, nullptr, 10) : 3100;
  for (std::uint64_t seed = first; seed < first + 40 && scenarios < 12; ++seed) {
    Scenario s;
    try {
      s = sample_scenario(seed, o);
    } catch (const std::exception&) {
      continue;
    }
    if (s.only_job().par.pp < 2 || s.only_job().par.dp < 2) continue;
    ++scenarios;
    const Evaluator ev(s);
    SearchOptions so;
    so.max_evaluations = 2000;
    const Placement greedy = GreedyPlacer().place(s), search = SearchPlacer(so).place(s);
    const double a_greedy = ev.iteration_time_s(greedy), g_greedy = simulated_iteration_time_s(s, greedy);
    const bool same = search.gpu_of_rank == greedy.gpu_of_rank;
    const double a_search = same ? a_greedy : ev.iteration_time_s(search);
    const double g_search = same ? g_greedy : simulated_iteration_time_s(s, search);
    for (double e : {a_greedy / g_greedy - 1, a_search / g_search - 1}) {
      err.push_back(std::fabs(e));
      optimistic += e < -0.01;
    }
    if (!same && a_search < a_greedy) {
      ++moved;
      held += g_search < g_greedy;
    }
    const Parallelism& par = s.only_job().par;
    std::printf(
        "[evaluator-larger] seed %llu (%d GPUs, pp %d dp %d tp %d %s %s): greedy analytic %.3f simgrid %.3f "
        "(%+.1f%%); search analytic %.3f simgrid %.3f (%+.1f%%)\n",
        static_cast<unsigned long long>(seed), s.platform.total_gpus(), par.pp, par.dp, par.tp,
        s.only_job().schedule.c_str(), s.only_job().collective.c_str(), a_greedy, g_greedy,
        100 * (a_greedy / g_greedy - 1), a_search, g_search, 100 * (a_search / g_search - 1));
  }
  std::printf("[evaluator-larger] n=%zu |err| median %.1f%% p90 %.1f%% max %.1f%%; optimistic (> 1%% under SimGrid) "
              "%d; search's gain by the evaluator held in SimGrid on %d of %d\n",
              err.size(), 100 * percentile(err, 0.5), 100 * percentile(err, 0.9), 100 * percentile(err, 1.0),
              optimistic, held, moved);
  ASSERT_EQ(scenarios, 12);
  // Design seeds: median 2.3%, p90 6.2%, max 30.1% (the per-stage DP fallback of approximation 3 on dp 12 x pp 15);
  // seeds 8300 on (seen before, not fresh): median 0.4%, p90 6.4%, max 23.9% (greedy's placement of 8301, under SimGrid).
  EXPECT_LT(percentile(err, 0.5), 0.05);
  EXPECT_LT(percentile(err, 0.9), 0.10);
  EXPECT_LT(percentile(err, 1.0), 0.35);
  EXPECT_GE(held * 2, moved);
}

}  // namespace
}  // namespace hulk
