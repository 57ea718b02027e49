// The paths that produce published numbers: the command line's "search" is the SimGrid-checked restart
// search, and gen-data's labelling gives a valid label no worse (in SimGrid) than greedy. Each test runs in its
// own process (SimGrid children are forked from it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "sim/features/scenario_sampler.hpp"
#include "sim/lab/labelling.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

const std::string kTiny = std::string(HULK_TEST_DATA) + "/tiny/tiny.yaml";

TEST(MethodRegistry, CommandLineSearchIsTheVerifiedSearch) {
  const Scenario s = load_scenario_file(kTiny);
  for (long budget : {0L, 600L}) {
    MethodOptions options;
    options.budget = budget;
    const PlacementOutcome cli = compute_placement(s, "search", options);
    VerifiedSearchOptions verified;
    if (budget > 0) verified.total_evaluations = budget;
    VerifiedSearchPlacer placer(verified);
    const Placement direct = placer.place(s);
    EXPECT_EQ(cli.placement.gpu_of_rank, direct.gpu_of_rank) << "budget " << budget;
    // And it is the best of the SimGrid-checked candidates, greedy among them.
    ASSERT_FALSE(placer.candidates().empty());
    EXPECT_EQ(placer.candidates().front().origin, "greedy");
  }
}

/** A cluster of the wan-host family (the sampler as `hulk gnn families` runs it) from its sampler seed. */
Scenario wan_host_cluster(std::uint64_t sampler_seed) {
  SamplerOptions o;
  o.gpu_types = GpuCatalog::builtin().all();
  o.max_total_gpus = 64;
  o.wan_capacity = WanCapacity::host;
  return sample_scenario(sampler_seed, o);
}

/** The sampler seed of a wan-host cluster where the verified search's run from a DP-cluster placement wins. */
constexpr std::uint64_t kDpClusterSeed = 6;

/** The verified search's candidates by SimGrid: the best time of those from `origin`, and of the others. */
std::pair<double, double> best_simgrid_s(const VerifiedSearchPlacer& placer, const std::string& origin) {
  double from_origin = INFINITY, others = INFINITY;
  for (const VerifiedCandidate& c : placer.candidates()) {
    double& best = c.origin == origin ? from_origin : others;
    best = std::min(best, c.simgrid_s);
  }
  return {from_origin, others};
}

TEST(MethodRegistry, SearchRunsFromADpClusterPlacementWhereOneBeatsGreedy) {
  // A cluster of the wan-host family whose greedy placement spreads each stage's replicas over slowly connected
  // regions: the evaluator finds a DP-cluster placement faster, and the run from it ends faster in SimGrid
  // (153.4 s) than every restart from greedy (207.0 s; greedy 475.4 s). Such clusters are rare among sampled ones,
  // hence the fixed sampler seed.
  const Scenario s = wan_host_cluster(kDpClusterSeed);
  VerifiedSearchPlacer placer;
  placer.place(s);
  const auto [cluster, others] = best_simgrid_s(placer, "anneal-dp-cluster");
  ASSERT_TRUE(std::isfinite(cluster)) << "no run from a DP-cluster placement";
  std::printf("[search] SimGrid: greedy %.2f s, best other candidate %.2f s, run from the DP clusters %.2f s\n",
              placer.candidates().front().simgrid_s, others, cluster);
  EXPECT_LT(cluster, others);
}

TEST(MethodRegistry, SearchIsTheSameOnOneThreadOrTwo) {
  // The restarts and the alternative start's run go one per core (parallel_tasks.hpp), and so do the check's SimGrid
  // runs: the candidates, their order, their SimGrid times and the answer must not depend on it. The DP-cluster
  // cluster above, so the alternative start's run is there too.
  const Scenario s = wan_host_cluster(kDpClusterSeed);
  VerifiedSearchOptions options;
  options.total_evaluations = 2000;
  std::vector<std::vector<std::string>> origins;
  std::vector<Placement> answers;
  std::vector<std::vector<double>> simgrid_s;
  for (const char* threads : {"1", "2"}) {
    setenv("HULK_THREADS", threads, 1);
    VerifiedSearchPlacer placer(options);
    answers.push_back(placer.place(s));
    origins.emplace_back();
    simgrid_s.emplace_back();
    for (const VerifiedCandidate& c : placer.candidates()) {
      origins.back().push_back(c.origin);
      simgrid_s.back().push_back(c.simgrid_s);
    }
  }
  unsetenv("HULK_THREADS");
  EXPECT_EQ(answers[0].gpu_of_rank, answers[1].gpu_of_rank);
  EXPECT_EQ(origins[0], origins[1]);
  EXPECT_EQ(simgrid_s[0], simgrid_s[1]);
  EXPECT_NE(std::find(origins[0].begin(), origins[0].end(), "anneal-dp-cluster"), origins[0].end());
}

TEST(MethodRegistry, SearchRunsFromGreedyOnTheFastestHostsWhereThatBeatsGreedy) {
  // A 62-GPU cluster of the wan-host family whose job, dp 1 x tp 2 x pp 16 on 32 GPUs,
  // greedy places with half its stages on two P40 hosts: greedy on the fastest hosts is faster by the evaluator, and
  // the run from it ends well below greedy in SimGrid.
  const Scenario s = wan_host_cluster(16426512132811880303ULL);
  VerifiedSearchPlacer placer;
  placer.place(s);
  const double fastest_hosts = best_simgrid_s(placer, "anneal-fastest-hosts").first;
  ASSERT_TRUE(std::isfinite(fastest_hosts)) << "no run from greedy on the fastest hosts";
  const double greedy = placer.candidates().front().simgrid_s;
  std::printf("[search] SimGrid: greedy %.2f s, run from the fastest hosts %.2f s\n", greedy, fastest_hosts);
  EXPECT_LT(fastest_hosts, 0.6 * greedy);
}

TEST(Labelling, LabelIsValidAndNoSlowerThanGreedyInSimGrid) {
  LabelOptions options;
  options.budget = 400;
  options.max_gpus = 16;
  const LabelledSample a = make_labelled_sample(11, options);
  EXPECT_EQ(placement_problem(a.scenario, a.label, true), "");
  ASSERT_TRUE(a.times_s.count("greedy") && a.times_s.count("search"));
  EXPECT_GT(a.times_s.at("search"), 0);
  EXPECT_LE(a.times_s.at("search"), a.times_s.at("greedy"));  // greedy is one of search's checked candidates
  EXPECT_EQ(a.traffic.hosts, static_cast<int>(a.scenario.platform.hosts.size()));
  const LabelledSample b = make_labelled_sample(11, options);  // deterministic for a seed
  EXPECT_EQ(a.label.gpu_of_rank, b.label.gpu_of_rank);
  EXPECT_EQ(a.times_s, b.times_s);
}

}  // namespace
}  // namespace hulk
