// Placement methods with several jobs sharing one cluster: validity, round-robin's and random's one list of ranks,
// greedy's order and compactness, memory errors naming the job, the share helper, the JobsEvaluator's contention
// model, exhaustive against brute force, search against exhaustive / greedy / round-robin, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/exhaustive_placer.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/jobs_placement.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::jobs_scenario;
using testing::make_job;
using testing::make_platform;
using testing::t4;
using testing::v100;

/** Placement from the (host, slot) of every rank. */
Placement gpus(const std::vector<GpuSlot>& g) { return Placement{g}; }

/** Mixed GPU types per host (a100, v100, t4 in turn), for instances where the choice of GPUs matters. */
PlatformSpec mixed_platform(const std::vector<int>& hosts_per_region, int gpus_per_host) {
  PlatformSpec p = make_platform(hosts_per_region, gpus_per_host, a100());
  const GpuSpec kinds[] = {a100(), v100(), t4()};
  for (size_t h = 0; h < p.hosts.size(); ++h) p.hosts[h].gpu = kinds[h % 3];
  return p;
}

std::vector<Scenario> several_job_instances() {
  std::vector<Scenario> out;
  out.push_back(jobs_scenario(make_platform({2, 2}, 4, a100()), {make_job(2, 2, 1, 4), make_job(1, 1, 2, 4)}));
  out.push_back(
      jobs_scenario(mixed_platform({1, 2, 1}, 2), {make_job(2, 1, 2, 4), make_job(1, 2, 1, 2), make_job(2, 1, 1, 2)}));
  out.push_back(jobs_scenario(mixed_platform({2, 2, 2}, 4),
                              {make_job(2, 2, 2, 8), make_job(4, 1, 1, 4), make_job(1, 2, 2, 4)}, 5));
  out.push_back(jobs_scenario(make_platform({3, 1}, 2, v100()), {make_job(1, 1, 3, 4), make_job(2, 1, 1, 2)}));
  return out;
}

/** A job whose stages fit an A100 (80 GB) but not a T4 (16 GB): ~2e9 parameters with Adam state. */
JobSpec a100_only_job(int dp) {
  JobSpec j = make_job(dp, 1, 1, 2, "1f1b", testing::small_model(40, 0));
  j.model.hidden = 2048;
  j.model.heads = 16;
  return j;
}

double objective(const Scenario& s, const Placement& p) { return JobsEvaluator(s).objective_s(p); }

TEST(MultiJobPlacers, EveryMethodGivesAValidPlacementForTwoAndThreeJobs) {
  for (const Scenario& s : several_job_instances()) {
    SearchOptions opt;
    opt.max_evaluations = 400;
    std::vector<std::pair<std::string, Placement>> placements{{"round-robin", round_robin_placement(s)},
                                                              {"random", RandomPlacer().place(s)},
                                                              {"greedy", GreedyPlacer().place(s)},
                                                              {"search", SearchPlacer(opt).place(s)}};
    if (s.platform.total_gpus() <= 8) placements.emplace_back("exhaustive", ExhaustivePlacer().place(s));
    for (const auto& [method, p] : placements) {
      SCOPED_TRACE(method + " with " + std::to_string(s.jobs.size()) + " jobs on " +
                   std::to_string(s.platform.total_gpus()) + " GPUs");
      EXPECT_EQ(placement_problem(s, p, true), "");
      EXPECT_LT(objective(s, p), std::numeric_limits<double>::infinity());
    }
  }
}

TEST(MultiJobPlacers, RoundRobinTakesTheJobsRanksAsOneList) {
  const Scenario s = jobs_scenario(make_platform({3}, 2, a100()), {make_job(3, 1, 1, 2), make_job(2, 1, 1, 2)});
  const Placement p = round_robin_placement(s);
  // One round over the hosts per slot: job 0 takes slot 0 of hosts 0, 1, 2; job 1 goes on with slot 1 of hosts 0, 1.
  const std::vector<GpuSlot> want{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}};
  EXPECT_EQ(p.gpu_of_rank, want);
  EXPECT_EQ(placement_problem(s, p, true), "");
}

TEST(MultiJobPlacers, RoundRobinAndRandomPlaceTwoJobsAsOneJobOfTheirRanks) {
  // Two equal data-parallel jobs of 2 ranks are, rank for rank, one job of 4 (every rank the same memory, so
  // random's draw order is the Placement order in both): the one rule gives the same GPUs, seed for seed.
  const PlatformSpec p = mixed_platform({2, 2}, 2);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Scenario two = jobs_scenario(p, {make_job(2, 1, 1, 4), make_job(2, 1, 1, 4)}, seed);
    const Scenario one = testing::make_scenario(p, make_job(4, 1, 1, 4), seed);
    EXPECT_EQ(round_robin_placement(two).gpu_of_rank, round_robin_placement(one).gpu_of_rank);
    EXPECT_EQ(RandomPlacer().place(two).gpu_of_rank, RandomPlacer().place(one).gpu_of_rank) << "seed " << seed;
  }
}

TEST(MultiJobPlacers, RoundRobinRefusesMoreRanksThanGpus) {
  const Scenario s = jobs_scenario(make_platform({2}, 2, a100()), {make_job(3, 1, 1, 2), make_job(2, 1, 1, 2)});
  EXPECT_THROW(round_robin_placement(s), InputError);
  EXPECT_THROW(RandomPlacer().place(s), InputError);
  EXPECT_THROW(GreedyPlacer().place(s), InputError);
}

std::set<int> regions_of(const Scenario& s, const Placement& p) {
  std::set<int> out;
  for (const GpuSlot& g : p.gpu_of_rank) out.insert(s.platform.hosts[g.host].region);
  return out;
}

TEST(MultiJobPlacers, GreedyPlacesTheLargestJobFirstAndEachJobCompactly) {
  // The small job is listed first; the large one (8 ranks) is placed first, exactly as alone on the cluster.
  JobSpec small = make_job(2, 2, 1, 4), large = make_job(4, 2, 1, 4);
  small.name = "small";
  large.name = "large";
  const Scenario s = jobs_scenario(make_platform({2, 2}, 4, a100()), {small, large});
  EXPECT_EQ(largest_jobs_first(s), (std::vector<int>{1, 0}));
  const Placement p = GreedyPlacer().place(s);
  EXPECT_EQ(placement_problem(s, p, true), "");
  EXPECT_EQ(job_slice(s, p, 1).gpu_of_rank, GreedyPlacer().place(job_view(s, 1)).gpu_of_rank);
  const std::set<int> r_small = regions_of(s, job_slice(s, p, 0)), r_large = regions_of(s, job_slice(s, p, 1));
  EXPECT_EQ(r_small.size(), 1u);
  EXPECT_EQ(r_large.size(), 1u);
  EXPECT_NE(*r_small.begin(), *r_large.begin());

  // Three regions of 4 GPUs, three jobs of 4 ranks: one region each.
  const Scenario three = jobs_scenario(make_platform({2, 2, 2}, 2, a100()),
                                       {make_job(4, 1, 1, 4), make_job(2, 2, 1, 4), make_job(1, 2, 2, 4)});
  const Placement q = GreedyPlacer().place(three);
  EXPECT_EQ(placement_problem(three, q, true), "");
  std::set<int> used;
  for (int j = 0; j < 3; ++j) {
    const std::set<int> r = regions_of(three, job_slice(three, q, j));
    ASSERT_EQ(r.size(), 1u) << "job " << j;
    used.insert(*r.begin());
  }
  EXPECT_EQ(used.size(), 3u);
}

TEST(MultiJobPlacers, GreedyTriesTheWeightThenTheListedOrderOnTies) {
  JobSpec a = make_job(2, 1, 1, 2), b = make_job(2, 1, 1, 2), c = make_job(2, 1, 1, 2);
  b.weight = 3;
  const Scenario s = jobs_scenario(make_platform({3}, 2, a100()), {a, b, c});
  EXPECT_EQ(largest_jobs_first(s), (std::vector<int>{1, 0, 2}));
}

TEST(MultiJobPlacers, AJobThatFitsNoGpuMemoryIsAnInputErrorNamingTheJob) {
  JobSpec huge = make_job(1, 1, 1, 2, "1f1b", testing::small_model(48, 0));
  huge.model.hidden = 8192;
  huge.model.heads = 64;
  huge.name = "huge";
  JobSpec fine = make_job(1, 1, 1, 2);
  fine.name = "fine";
  const Scenario s = jobs_scenario(make_platform({2, 1}, 2, t4()), {fine, huge});
  auto message = [&](Placer&& placer) {
    try {
      placer.place(s);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (const std::string& m :
       {message(GreedyPlacer()), message(RandomPlacer()), message(SearchPlacer()), message(ExhaustivePlacer())})
    EXPECT_NE(m.find("job 'huge'"), std::string::npos) << m;
}

TEST(MultiJobPlacers, GreedyTriesTheNextOrderWhenAJobIsLeftWithoutRoom) {
  // One A100 and one T4. The light job (weight 2, so first) takes the faster A100 and leaves the big job, which
  // fits only an A100, the T4: that order names the big job; greedy then tries the heaviest stage first and places
  // both; search finds the same.
  PlatformSpec p = make_platform({2}, 1, a100());
  p.hosts[1].gpu = t4();
  JobSpec light = make_job(1, 1, 1, 2), big = a100_only_job(1);
  light.name = "light";
  light.weight = 2;
  big.name = "big";
  const Scenario s = jobs_scenario(p, {light, big});
  try {
    greedy_jobs_placement(s, largest_jobs_first(s));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("job 'big'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("left free"), std::string::npos) << e.what();
  }
  std::vector<int> order;
  const Placement g = greedy_jobs_first_fit(s, &order);
  EXPECT_EQ(order, (std::vector<int>{1, 0}));
  EXPECT_EQ(GreedyPlacer().place(s).gpu_of_rank, g.gpu_of_rank);
  EXPECT_EQ(g.gpu_of_rank, (std::vector<GpuSlot>{{1, 0}, {0, 0}}));
  SearchPlacer search;
  const Placement q = search.place(s);
  EXPECT_EQ(placement_problem(s, q, true), "");
  EXPECT_EQ(q.gpu_of_rank, g.gpu_of_rank);
}

TEST(MultiJobPlacers, GreedyNamesTheJobWhenNoOrderLeavesItRoom) {
  // Two A100-only jobs of one rank and one A100: no order fits (the loader's joint check refuses such files; code
  // that builds one gets the first order's error).
  PlatformSpec p = make_platform({2}, 1, a100());
  p.hosts[1].gpu = t4();
  JobSpec a = a100_only_job(1), b = a100_only_job(1);
  a.name = "a";
  b.name = "b";
  const Scenario s = jobs_scenario(p, {a, b});
  try {
    GreedyPlacer().place(s);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("job 'b'"), std::string::npos) << e.what();
  }
}

TEST(MultiJobPlacers, ShareHelperKeepsHostsWithFreeGpusAndMapsBack) {
  PlatformSpec p = make_platform({2, 1}, 2, a100());
  p.host_pair_latency_s = {{{0, 1}, 1e-3}, {{0, 2}, 2e-3}, {{1, 2}, 3e-3}};
  p.host_pair_bandwidth_Bps = {{{0, 2}, 5e8}, {{1, 2}, 6e8}};
  const Scenario s = jobs_scenario(p, {make_job(1, 1, 3, 4), make_job(1, 1, 1, 2)});
  const GpuShare share = make_gpu_share(s, 0, {{2, 1}, {0, 1}, {2, 0}});
  const PlatformSpec& sub = share.scenario.platform;
  ASSERT_EQ(sub.hosts.size(), 2u);
  EXPECT_EQ(sub.hosts[0].name, "h0");
  EXPECT_EQ(sub.hosts[0].gpus, 1);
  EXPECT_EQ(sub.hosts[1].name, "h2");
  EXPECT_EQ(sub.hosts[1].gpus, 2);
  EXPECT_EQ(sub.hosts[1].region, 1);
  EXPECT_EQ(sub.regions, p.regions);
  EXPECT_EQ(sub.host_pair_latency_s, (std::map<std::pair<int, int>, double>{{{0, 1}, 2e-3}}));
  EXPECT_EQ(sub.host_pair_bandwidth_Bps, (std::map<std::pair<int, int>, double>{{{0, 1}, 5e8}}));
  EXPECT_FALSE(names_jobs(share.scenario));
  EXPECT_EQ(share.scenario.only_job().par.pp, 3);
  EXPECT_EQ(share.original_host, (std::vector<int>{0, 2}));
  EXPECT_EQ(share.to_original(GpuSlot{0, 0}), (GpuSlot{0, 1}));
  EXPECT_EQ(share.to_original(GpuSlot{1, 1}), (GpuSlot{2, 1}));
  EXPECT_THROW(share.to_original(GpuSlot{0, 1}), std::out_of_range);
  const Placement sub_p = gpus({{1, 0}, {0, 0}, {1, 1}});
  const Placement back = share.to_original(sub_p);
  EXPECT_EQ(back.gpu_of_rank, (std::vector<GpuSlot>{{2, 0}, {0, 1}, {2, 1}}));
  // The same routes: the job's estimate on the share equals its estimate on the cluster.
  const Scenario full = job_view(s, 0);
  EXPECT_EQ(Evaluator(share.scenario).iteration_time_s(sub_p), Evaluator(full).iteration_time_s(back));
  EXPECT_EQ(free_gpus(p, back.gpu_of_rank), (std::vector<GpuSlot>{{0, 0}, {1, 0}, {1, 1}}));
}

TEST(MultiJobPlacers, ShareOfASimgridXmlPlatformKeepsTheFileAndTheRoutes) {
  // XML platforms map hosts by name and describe routes per host pair: the share keeps both.
  PlatformSpec p = make_platform({4}, 1, a100());
  p.simgrid_xml = "/platforms/cluster.xml";
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      p.host_pair_latency_s[{a, b}] = 1e-4 * (1 + a + b);
      p.host_pair_bandwidth_Bps[{a, b}] = 1e8 * (1 + a * b);
    }
  const Scenario s = jobs_scenario(p, {make_job(1, 1, 1, 2), make_job(1, 1, 3, 4)});
  const GpuShare share = make_gpu_share(s, 1, {{1, 0}, {2, 0}, {3, 0}});
  EXPECT_EQ(share.scenario.platform.simgrid_xml, p.simgrid_xml);
  EXPECT_EQ(share.scenario.platform.hosts[0].name, "h1");
  const Placement sub_p = gpus({{2, 0}, {0, 0}, {1, 0}});
  EXPECT_EQ(Evaluator(share.scenario).iteration_time_s(sub_p),
            Evaluator(job_view(s, 1)).iteration_time_s(share.to_original(sub_p)));
  const Placement g = GreedyPlacer().place(s);
  EXPECT_EQ(placement_problem(s, g, true), "");
}

TEST(MultiJobPlacers, JobsEvaluatorWithOneJobIsTheEvaluatorBitForBit) {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 20; ++i) {
    Scenario s = testing::random_scenario(rng);
    const Placement p = RandomPlacer().place(s);
    const double alone = Evaluator(s).iteration_time_s(p);
    EXPECT_EQ(JobsEvaluator(s).objective_s(p), alone);
    // `jobs:` with a single entry of weight 3: still that job's time exactly.
    Scenario listed = s;
    listed.only_job().name = "only";
    listed.only_job().weight = 3;
    listed.jobs_listed = true;
    EXPECT_EQ(JobsEvaluator(listed).objective_s(p), alone);
  }
}

TEST(MultiJobPlacers, JobsOnDisjointRegionsWithoutSharedLinksHaveTheirAloneTimes) {
  const Scenario s = jobs_scenario(make_platform({2, 2}, 2, a100()), {make_job(2, 2, 1, 4), make_job(2, 1, 2, 4)});
  const Placement p = gpus({{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {3, 0}, {2, 1}, {3, 1}});
  ASSERT_EQ(placement_problem(s, p, true), "");
  const std::vector<double> t = JobsEvaluator(s).job_times_s(p);
  for (int j = 0; j < 2; ++j) EXPECT_EQ(t[j], Evaluator(job_view(s, j)).iteration_time_s(job_slice(s, p, j)));
  EXPECT_EQ(JobsEvaluator(s).objective_s(p), weighted_objective(s, t));
}

TEST(MultiJobPlacers, JobsCrossingTheSameWanLinkAreEachSlowerThanAlone) {
  Scenario s = jobs_scenario(make_platform({2, 2}, 1, a100()), {make_job(2, 1, 1, 2), make_job(2, 1, 1, 2)});
  // Each job's DP pair spans the two regions: both cross the region pair's WAN link.
  const Placement p = gpus({{0, 0}, {2, 0}, {1, 0}, {3, 0}});
  const JobsEvaluator ev(s);
  const std::vector<double> t = ev.job_times_s(p);
  for (int j = 0; j < 2; ++j) {
    const double alone = Evaluator(job_view(s, j)).iteration_time_s(job_slice(s, p, j));
    EXPECT_GT(t[j], alone * 1.2) << "job " << j;
  }
  std::vector<int> hosts;
  for (const GpuSlot& g : p.gpu_of_rank) hosts.push_back(g.host);
  const std::vector<int> counts = ev.jobs_on_links(hosts);
  EXPECT_EQ(*std::max_element(counts.begin(), counts.end()), 2);
  // With per-host WAN caps (no region-pair pipe) and distinct hosts, the jobs share nothing.
  s.platform.wan_capacity = WanCapacity::host;
  const std::vector<double> host_caps = JobsEvaluator(s).job_times_s(p);
  for (int j = 0; j < 2; ++j) EXPECT_EQ(host_caps[j], Evaluator(job_view(s, j)).iteration_time_s(job_slice(s, p, j)));
}

TEST(MultiJobPlacers, InfeasiblePlacementsHaveInfiniteObjective) {
  const JobSpec big = a100_only_job(1);
  PlatformSpec p = make_platform({2}, 2, a100());
  p.hosts[1].gpu = t4();
  const Scenario s = jobs_scenario(p, {make_job(1, 1, 1, 2), big});
  const JobsEvaluator ev(s);
  ASSERT_FALSE(ev.fits(1, 1));  // the big job does not fit a T4
  ASSERT_TRUE(ev.fits(1, 0));
  EXPECT_EQ(ev.objective_s(gpus({{0, 0}, {1, 0}})), std::numeric_limits<double>::infinity());
  EXPECT_LT(ev.objective_s(gpus({{1, 0}, {0, 0}})), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ev.objective_s(gpus({{0, 0}})), std::numeric_limits<double>::infinity());  // malformed
}

/** Brute force: the minimal objective over every injective map of all ranks to GPUs. */
double brute_force_best(const Scenario& s) {
  const JobsEvaluator ev(s);
  const std::vector<GpuSlot> all = all_gpus(s.platform);
  const int R = total_ranks(s);
  std::vector<GpuSlot> cur;
  std::vector<bool> used(all.size(), false);
  double best = std::numeric_limits<double>::infinity();
  std::function<void()> rec = [&]() {
    if (static_cast<int>(cur.size()) == R) {
      best = std::min(best, ev.objective_s(Placement{cur}));
      return;
    }
    for (size_t i = 0; i < all.size(); ++i) {
      if (used[i]) continue;
      used[i] = true;
      cur.push_back(all[i]);
      rec();
      cur.pop_back();
      used[i] = false;
    }
  };
  rec();
  return best;
}

std::vector<Scenario> tiny_instances() {
  std::vector<Scenario> out;
  // 2 jobs of 2 ranks on 3 hosts x 2 GPUs (two regions), mixed GPUs.
  out.push_back(jobs_scenario(mixed_platform({2, 1}, 2), {make_job(2, 1, 1, 2), make_job(1, 1, 2, 4)}));
  out.push_back(jobs_scenario(mixed_platform({1, 1, 1}, 2), {make_job(1, 2, 1, 2), make_job(2, 1, 1, 2)}, 3));
  JobSpec heavy = make_job(1, 1, 2, 4);
  heavy.weight = 4;
  out.push_back(jobs_scenario(mixed_platform({1, 2}, 2), {make_job(2, 1, 1, 2), heavy}, 4));
  out.push_back(
      jobs_scenario(mixed_platform({2, 2}, 2), {make_job(1, 1, 2, 4), make_job(2, 1, 1, 2), make_job(1, 2, 1, 2)}, 6));
  return out;
}

TEST(MultiJobPlacers, ExhaustiveEqualsBruteForceOnTinyInstances) {
  for (const Scenario& s : tiny_instances()) {
    if (total_ranks(s) > 4) continue;  // brute force over 8!/2! maps is slow-ish; the 2-job cases suffice
    ExhaustivePlacer ex;
    const Placement p = ex.place(s);
    EXPECT_EQ(placement_problem(s, p, true), "");
    EXPECT_EQ(ex.best_time_s(), objective(s, p));
    EXPECT_DOUBLE_EQ(ex.best_time_s(), brute_force_best(s));
  }
}

TEST(MultiJobPlacers, ExhaustiveKeepsItsLimits) {
  const Scenario s = jobs_scenario(make_platform({3}, 4, a100()), {make_job(2, 1, 1, 2), make_job(2, 1, 1, 2)});
  EXPECT_THROW(ExhaustivePlacer().place(s), InputError);  // 12 GPUs > 8
  ExhaustiveOptions few;
  few.max_placements = 10;
  const Scenario t = tiny_instances()[0];
  EXPECT_THROW(ExhaustivePlacer(few).place(t), InputError);
}

TEST(MultiJobPlacers, SearchReachesTheExhaustiveObjectiveOnTinyInstances) {
  for (const Scenario& s : tiny_instances()) {
    ExhaustivePlacer ex;
    ex.place(s);
    SearchPlacer search;
    const Placement p = search.place(s);
    EXPECT_EQ(placement_problem(s, p, true), "");
    EXPECT_LE(objective(s, p), ex.best_time_s() * (1 + 1e-12)) << "start " << search.stats().start_method;
    EXPECT_EQ(search.stats().best_time_s, objective(s, p));
  }
}

TEST(MultiJobPlacers, SearchIsNoWorseThanGreedyAndRoundRobinOnSeveralRegions) {
  for (const Scenario& s : several_job_instances()) {
    SearchOptions opt;
    opt.max_evaluations = 1500;
    const double searched = objective(s, SearchPlacer(opt).place(s));
    EXPECT_LE(searched, objective(s, GreedyPlacer().place(s)));
    const Placement rr = round_robin_placement(s);
    if (placement_problem(s, rr, true).empty()) EXPECT_LE(searched, objective(s, rr));
  }
}

TEST(MultiJobPlacers, SameSeedSamePlacement) {
  for (const Scenario& s : several_job_instances()) {
    SearchOptions opt;
    opt.max_evaluations = 300;
    EXPECT_EQ(SearchPlacer(opt).place(s).gpu_of_rank, SearchPlacer(opt).place(s).gpu_of_rank);
    EXPECT_EQ(RandomPlacer().place(s).gpu_of_rank, RandomPlacer().place(s).gpu_of_rank);
    EXPECT_EQ(GreedyPlacer().place(s).gpu_of_rank, GreedyPlacer().place(s).gpu_of_rank);
    Scenario other = s;
    other.seed = s.seed + 100;
    EXPECT_EQ(placement_problem(other, RandomPlacer().place(other), true), "");
  }
}

TEST(MultiJobPlacers, RandomFallsBackToTheMemorySafeDrawUnderMemoryPressure) {
  // One A100 host and three T4 hosts; the big job fits only the A100s: a random permutation rarely works.
  const JobSpec big = a100_only_job(2);
  PlatformSpec p = make_platform({4}, 2, t4());
  p.hosts[2].gpu = a100();
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Scenario s = jobs_scenario(p, {make_job(2, 1, 2, 4), big}, seed);
    const Placement q = RandomPlacer().place(s);
    EXPECT_EQ(placement_problem(s, q, true), "") << "seed " << seed;
  }
}

}  // namespace
}  // namespace hulk

namespace hulk {
namespace {

TEST(MultiJobPlacers, GreedyShareCacheChangesNoPlacement) {
  // The cache is pure: greedy over every job order with it (best_greedy_jobs_placement) gives, on sampled clusters of
  // 2-4 jobs, exactly the placement the same loop gives without it, and each cached one-job answer is greedy's.
  SamplerOptions o;
  o.max_total_gpus = 64;
  int checked = 0;
  for (std::uint64_t seed = 60; seed < 72; ++seed) {
    Scenario s;
    try {
      s = sample_jobs_scenario(seed, 2 + static_cast<int>(seed % 3), o);
    } catch (const InputError&) {
      continue;
    }
    const JobsEvaluator ev(s);
    Placement expected;
    double best = std::numeric_limits<double>::infinity();
    for (bool reserve : {false, true})
      for (const std::vector<int>& order : greedy_job_orders(s, 4)) {
        try {
          const Placement p = greedy_jobs_placement(s, order, reserve);
          const double t = ev.objective_s(p);
          if (expected.gpu_of_rank.empty() || t < best) expected = p, best = t;
        } catch (const InputError&) {
        }
      }
    if (expected.gpu_of_rank.empty()) continue;
    EXPECT_EQ(best_greedy_jobs_placement(s, ev).gpu_of_rank, expected.gpu_of_rank) << "seed " << seed;
    GreedyShareCache cache;
    const std::vector<int> order = largest_jobs_first(s);
    try {
      EXPECT_EQ(greedy_jobs_placement(s, order, false, &cache).gpu_of_rank,
                greedy_jobs_placement(s, order, false).gpu_of_rank);
      EXPECT_EQ(greedy_jobs_placement(s, order, false, &cache).gpu_of_rank,  // every answer from the cache now
                greedy_jobs_placement(s, order, false).gpu_of_rank);
    } catch (const InputError&) {
    }
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

TEST(MultiJobPlacers, GreedyIsNeverSlowerThanRoundRobin) {
  // Sampled several-job clusters of mixed GPUs where round-robin's placement is valid: greedy (first fit over job
  // orders, then round-robin's placement if faster) is never slower by the jobs' objective. Round-robin spreads
  // every job over all hosts, so on these samples the first fit alone is never slower either (the count is
  // printed): the branch that keeps round-robin's placement is not reached by them.
  const auto clusters = testing::sampled_jobs_where_round_robin_fits(1500);
  int first_fit_slower = 0;
  for (const auto& [seed, s] : clusters) {
    const JobsEvaluator ev(s);
    const double round_robin_s = ev.objective_s(round_robin_placement(s));
    first_fit_slower += ev.objective_s(greedy_jobs_first_fit(s)) > round_robin_s;
    EXPECT_LE(ev.objective_s(GreedyPlacer().place(s)), round_robin_s) << "seed " << seed;
  }
  EXPECT_GE(clusters.size(), 20u);
  std::printf("[greedy-vs-round-robin] %zu clusters, first fit slower on %d\n", clusters.size(), first_fit_slower);
}

}  // namespace
}  // namespace hulk
