// The evaluator's cheap lower bound (Evaluator::time_lower_bound_of_hosts) and the two places that skip evaluations
// with it: fastest_candidate (greedy's candidates) and the annealing's acceptance (annealing.hpp). Skipping must
// change no answer: the bound never exceeds the evaluation, and the answers with it are the answers without it.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/annealing.hpp"
#include "sim/place/fastest_candidate.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {
namespace {

using testing::make_job;
using testing::make_platform;
using testing::make_scenario;
using testing::swap_walk;

/** The bound and the evaluation sum the same terms in different orders: equal in exact arithmetic, a few ulps
 *  apart in floating point (the slack fastest_candidate and the annealing allow). */
constexpr double kSlack = kBoundRoundingSlack;

/** Sampled scenarios (one job) in every pipeline mode: each schedule with blocking and overlapped p2p, one and
 *  two channels per peer, CM02 (latency at the receiver) and LV08 (latency first). */
std::vector<Scenario> bound_scenarios(int count) {
  std::vector<Scenario> out;
  const char* schedules[] = {"1f1b", "gpipe"};
  const char* p2p[] = {"blocking", "overlapped"};
  for (std::uint64_t seed = 1; static_cast<int>(out.size()) < count && seed < 400; ++seed) {
    Scenario s = sample_scenario(seed);
    if (s.only_job().par.ranks() > 64) continue;  // keeps the test fast
    const int k = static_cast<int>(out.size());
    s.only_job().schedule = schedules[k % 2];
    s.only_job().pipeline_p2p = p2p[(k / 2) % 2];
    s.network.channels_per_peer = 1 + (k / 4) % 2;
    s.network.model = (k / 8) % 2 ? "LV08" : "CM02";
    try {
      GreedyPlacer().place(s);
    } catch (const InputError&) {  // GPipe keeps every micro-batch's activations: some jobs no longer fit
      continue;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::vector<int>> candidates_of(const Scenario& s, std::uint64_t seed) {
  std::vector<std::vector<int>> c = swap_walk(hosts_of(GreedyPlacer().place(s)), 30, seed);
  for (int k = 0; k < 10; ++k) c.push_back(hosts_of(RandomPlacer(seed * 100 + k).place(s)));
  return c;
}

TEST(EvaluatorBound, NeverAboveTheEvaluationInAnyPipelineMode) {
  const std::vector<Scenario> scenarios = bound_scenarios(24);
  ASSERT_EQ(scenarios.size(), 24u);
  int pipelined = 0, compared = 0;
  for (const Scenario& s : scenarios) {
    const Evaluator ev(s);
    pipelined += s.only_job().par.pp > 1;
    for (const std::vector<int>& hosts : candidates_of(s, s.seed)) {
      const double bound = ev.time_lower_bound_of_hosts(hosts), t = ev.time_of_hosts(hosts);
      if (!std::isfinite(t)) {
        EXPECT_FALSE(std::isfinite(bound)) << s.name << ": an infeasible placement should have no finite bound";
        continue;
      }
      ++compared;
      EXPECT_LE(bound * (1.0 - kSlack), t)
          << s.name << " (" << s.only_job().schedule << ", " << s.only_job().pipeline_p2p << ")";
      EXPECT_GT(bound, 0.0) << s.name;
    }
  }
  EXPECT_GE(pipelined, 12);
  EXPECT_GE(compared, 600);
}

TEST(EvaluatorBound, CountsTheOneFOneBWindowOnASlowLink) {
  // pp 2 in two regions 100 ms apart, 1F1B, 16 micro-batches, a small model: stage 0 may run only two micro-batches
  // ahead (F j+2 waits for B j), so every two micro-batches cost a round trip over the WAN, about 16 x 100 ms in
  // all. Fill + busy time + drain alone would give about 2 round trips: the bound must see the window.
  const int m = 16;
  const double latency = 0.1;
  Scenario s = make_scenario(make_platform({1, 1}, 1, testing::a100(), {1.25e9, 50e-6}, {1.25e8, latency}),
                             make_job(1, 1, 2, m, "1f1b"));
  const Evaluator ev(s);
  const std::vector<int> hosts{0, 1};
  const double bound = ev.time_lower_bound_of_hosts(hosts), t = ev.time_of_hosts(hosts);
  EXPECT_GE(bound, (m - 2) * latency) << "t " << t;
  EXPECT_LE(bound * (1.0 - kSlack), t);
}

TEST(EvaluatorBound, CountsTheBlockingSendsWait) {
  // pp 2 over a thin WAN (10 Mbps, 1 ms): with Megatron's blocking p2p each rank waits for its message to leave after
  // every op that has an output, 2 x 16 transfers in all on the critical path; overlapped sends do not wait.
  Scenario s = make_scenario(make_platform({1, 1}, 1, testing::a100(), {1.25e9, 50e-6}, {1.25e6, 1e-3}),
                             make_job(1, 1, 2, 16, "1f1b"));
  const std::vector<int> hosts{0, 1};
  s.only_job().pipeline_p2p = "overlapped";
  const Evaluator overlapped(s);
  s.only_job().pipeline_p2p = "blocking";
  const Evaluator blocking(s);
  const double gap_t = blocking.time_of_hosts(hosts) - overlapped.time_of_hosts(hosts);
  const double gap_bound = blocking.time_lower_bound_of_hosts(hosts) - overlapped.time_lower_bound_of_hosts(hosts);
  ASSERT_GT(gap_t, 0.0);
  EXPECT_GE(gap_bound, 0.5 * gap_t) << "the bound should see most of what blocking costs";
  EXPECT_LE(blocking.time_lower_bound_of_hosts(hosts) * (1.0 - kSlack), blocking.time_of_hosts(hosts));
}

TEST(EvaluatorBound, RulesOutMostSwapsFromGreedyOnTheHulkLikeCluster) {
  // Without this the bound could be 0 and every test above pass: on 47 servers in 12 regions a random swap from
  // greedy's placement usually puts a stage far away, and the bound should see it.
  const Scenario s = testing::hulk_like_scenario();
  const Evaluator ev(s);
  const std::vector<int> greedy = hosts_of(GreedyPlacer().place(s));
  const double greedy_s = ev.time_of_hosts(greedy);
  std::mt19937_64 rng(11);
  int ruled_out = 0;
  const int swaps = 200;
  for (int i = 0; i < swaps; ++i) {
    std::vector<int> hosts = greedy;
    std::swap(hosts[rng() % hosts.size()], hosts[rng() % hosts.size()]);
    ruled_out += ev.time_lower_bound_of_hosts(hosts) > greedy_s;
  }
  EXPECT_GE(ruled_out, swaps / 4) << "of " << swaps << " swaps";
}

TEST(FastestCandidate, SameAnswerAsEvaluatingEveryCandidateInOrder) {
  int skipped = 0;
  for (const Scenario& s : bound_scenarios(12)) {
    const Evaluator ev(s);
    std::vector<std::vector<int>> c = candidates_of(s, s.seed + 7);
    c.push_back(c[3]);  // a tie: the first of equal times must win
    c.insert(c.begin(), c[5]);
    int want = -1;
    double want_s = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < c.size(); ++i) {
      const double t = ev.time_of_hosts(c[i]);
      if (t < want_s) {
        want = static_cast<int>(i);
        want_s = t;
      }
    }
    const FastestCandidate got = fastest_candidate(ev, c);
    EXPECT_EQ(got.index, want) << s.name;
    EXPECT_EQ(got.time_s, want_s) << s.name;
    skipped += static_cast<int>(c.size()) - got.evaluated;
    // Two threads however cheap the evaluations (where the machine has two: task_threads()).
    const long long calls_before = evaluator_calls();
    const FastestCandidate shared = fastest_candidate(ev, c, 0.0);
    EXPECT_EQ(shared.index, want) << s.name << ", two threads";
    EXPECT_EQ(shared.time_s, want_s) << s.name << ", two threads";
    // The estimates counted are one worker's, whatever the second did: what equal-budget rows are given.
    EXPECT_EQ(shared.evaluated, got.evaluated) << s.name << ", two threads";
    EXPECT_EQ(evaluator_calls() - calls_before, got.evaluated) << s.name << ", two threads";
  }
  EXPECT_GT(skipped, 0) << "the bound never saved an evaluation";
  const Scenario s = sample_scenario(1);
  EXPECT_EQ(fastest_candidate(Evaluator(s), {}).index, -1);
}

/** What the search's annealing needs of a state: GPUs and hosts of every rank (no free GPUs: moves swap ranks). */
struct SwapState {
  std::vector<GpuSlot> gpu;
  std::vector<int> host;
  std::vector<GpuSlot> free;
};

/** One annealing run from greedy's placement with swap moves, with or without the evaluator's bound. */
std::pair<std::vector<GpuSlot>, SearchStats> swap_annealing(const Scenario& s, bool with_bound) {
  const Evaluator ev(s);
  const Placement greedy = GreedyPlacer().place(s);
  SwapState cur{greedy.gpu_of_rank, hosts_of(greedy), {}};
  std::mt19937_64 rng(5), moves(6);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SearchOptions options;
  options.max_evaluations = 400;
  SearchStats stats;
  double best_t = 0;
  const auto propose = [&](SwapState& c) {
    const size_t a = moves() % c.gpu.size(), b = moves() % c.gpu.size();
    if (c.host[a] == c.host[b]) return false;
    std::swap(c.gpu[a], c.gpu[b]);
    std::swap(c.host[a], c.host[b]);
    return true;
  };
  const auto objective = [&](const std::vector<int>& h) { return ev.time_of_hosts(h); };
  const auto bound = [&](const std::vector<int>& h) { return with_bound ? ev.time_lower_bound_of_hosts(h) : 0.0; };
  std::vector<GpuSlot> best = anneal(cur, ev.time_of_hosts(cur.host), options, std::chrono::steady_clock::now(), rng,
                                     unit, propose, objective, bound, [](double, const SwapState&) {}, stats, best_t);
  return {std::move(best), stats};
}

TEST(AnnealingBound, TheRunIsTheSameBitForBitWithFewerEvaluations) {
  long long bounded = 0;
  const Scenario hulk = testing::hulk_like_scenario();
  std::vector<Scenario> scenarios = bound_scenarios(6);
  scenarios.push_back(hulk);
  for (const Scenario& s : scenarios) {
    const auto [plain, plain_stats] = swap_annealing(s, false);
    const auto [bounded_run, bounded_stats] = swap_annealing(s, true);
    EXPECT_EQ(plain, bounded_run) << s.name;
    EXPECT_EQ(plain_stats.accepted, bounded_stats.accepted) << s.name;
    EXPECT_EQ(plain_stats.evaluations, bounded_stats.evaluations) << s.name;
    EXPECT_EQ(plain_stats.bounded, 0) << s.name;
    bounded += bounded_stats.bounded;
  }
  EXPECT_GT(bounded, 100) << "the bound should skip many of the hulk-like cluster's far swaps";
}


/** The search (one job or several) with and without the bound: the same placement, evaluations and accepted moves. */
long long expect_same_search(const Scenario& s) {
  SearchOptions with;
  with.max_evaluations = 600;
  SearchOptions without = with;
  without.lower_bound = false;
  SearchPlacer a(with), b(without);
  const Placement pa = a.place(s), pb = b.place(s);
  EXPECT_EQ(pa.gpu_of_rank, pb.gpu_of_rank) << s.name;
  EXPECT_EQ(a.stats().accepted, b.stats().accepted) << s.name;
  EXPECT_EQ(a.stats().evaluations, b.stats().evaluations) << s.name;
  EXPECT_EQ(a.stats().best_time_s, b.stats().best_time_s) << s.name;
  EXPECT_EQ(b.stats().bounded, 0) << s.name;
  return a.stats().bounded;
}

TEST(AnnealingBound, TheSearchOfOneJobOrSeveralIsTheSameWithIt) {
  long long one = 0, several = 0;
  for (const Scenario& s : bound_scenarios(4)) one += expect_same_search(s);
  one += expect_same_search(testing::hulk_like_scenario());
  SamplerOptions o;
  o.max_total_gpus = 64;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) several += expect_same_search(sample_jobs_scenario(seed, 3, o));
  EXPECT_GT(one, 0);
  EXPECT_GT(several, 0) << "the several-job objective's bound never skipped a proposal";
}

}  // namespace
}  // namespace hulk
