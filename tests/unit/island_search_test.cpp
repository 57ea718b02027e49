// Island-first placement of DiLoCo jobs (sim/place/island_first.hpp) and the search that refines it, by the
// step-time estimate alone (sim/evaluate/sync_evaluator.hpp; SimGrid in tests/sim/island_first_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/island_first.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/workload/islands.hpp"
#include "sim/workload/plan.hpp"

using namespace hulk;
using namespace hulk::testing;

namespace {

Scenario diloco(Scenario s, const std::string& islands = "region") {
  s.only_job().sync.algorithm = "diloco";
  s.only_job().sync.inner_steps = 100;
  s.only_job().sync.compression = "int8";
  s.only_job().sync.islands = islands;
  return s;
}

/** Three regions of three hosts x 2 GPUs of mixed models (A100, V100, T4 in every region, in different orders), a
 *  1 Gbit/s WAN; dp 3 x tp 2 x pp 2: one replica of 4 GPUs fits a region, with GPUs to choose from. */
Scenario mixed_regions() {
  PlatformSpec p = make_platform({3, 3, 3}, 2, a100());
  const GpuSpec kinds[3] = {a100(), v100(), t4()};
  for (int h = 0; h < 9; ++h) p.hosts[h].gpu = kinds[(h + h / 3) % 3];
  return diloco(make_scenario(p, make_job(3, 2, 2, 4), 5));
}

/** Region of every replica's ranks; -1 for a replica whose ranks span regions. */
std::vector<int> replica_regions(const Scenario& s, const Placement& p) {
  const ParallelPlan plan(s.only_job().par);
  std::vector<int> out;
  for (int d = 0; d < s.only_job().par.dp; ++d) {
    int region = s.platform.hosts[p.gpu_of_rank[plan.rank_of(0, d, 0)].host].region;
    for (int st = 0; st < s.only_job().par.pp; ++st)
      for (int t = 0; t < s.only_job().par.tp; ++t)
        if (s.platform.hosts[p.gpu_of_rank[plan.rank_of(st, d, t)].host].region != region) region = -1;
    out.push_back(region);
  }
  return out;
}

}  // namespace

// The search keeps the best placement seen by its estimate and its schedule does not depend on the budget: a larger
// budget never ends worse, nor does any budget end worse than the start; its answer keeps the start's islands.
TEST(IslandSearch, NeverWorseWithALargerBudgetNorThanItsStart) {
  const Scenario s = mixed_regions();
  const SyncEvaluator ev(s);
  // From greedy's island-first placement, and from a poor one (round-robin inside each island) with room to gain.
  const std::optional<Placement> poor =
      island_first_placement(s, [](const Scenario& island) { return round_robin_placement(island); });
  ASSERT_TRUE(poor.has_value());
  for (const bool given : {false, true}) {
    double previous = INFINITY, start = 0;
    for (const long long budget : {0LL, 40LL, 300LL, 999LL, 1000LL, 1001LL, 2500LL, 6000LL}) {
      SearchOptions o;
      o.max_evaluations = budget;
      if (given) o.start = *poor;
      SearchPlacer search(o);
      const Placement p = search.place(s);
      const double t = search.stats().best_time_s;
      start = search.stats().start_time_s;
      EXPECT_NEAR(ev.step_time_s(p) / t, 1.0, 1e-12) << budget;  // the reported best is the answer's estimate
      EXPECT_LE(t, previous) << "budget " << budget << (given ? " from the poor start" : "");
      EXPECT_LE(t, start) << budget;
      const std::optional<IslandKeeper> kept = IslandKeeper::of(s, hosts_of(given ? *poor : GreedyPlacer().place(s)));
      ASSERT_TRUE(kept.has_value());
      EXPECT_TRUE(kept->keeps(hosts_of(p))) << budget;
      previous = t;
    }
    if (given) EXPECT_LT(previous, 0.99 * start);  // the poor start leaves room: the search must find some of it
  }
}

// The islands go to the fastest groups: with two A100 regions and a T4 region, each holding one replica, the two
// replicas run in the A100 regions, each entirely inside its region.
TEST(IslandSearch, GreedyPutsEachReplicaInsideOneOfTheFastestRegions) {
  PlatformSpec p = make_platform({2, 2, 2}, 2, a100());
  for (int h = 2; h < 4; ++h) p.hosts[h].gpu = t4();
  const Scenario s = diloco(make_scenario(p, make_job(2, 2, 2, 4), 3));
  const std::vector<int> regions = replica_regions(s, GreedyPlacer().place(s));
  EXPECT_EQ(std::set<int>(regions.begin(), regions.end()), (std::set<int>{0, 2}));
}

// islands: host puts every replica on one host; islands: groups inside one of its groups (here across regions).
TEST(IslandSearch, HostAndGroupIslandsHoldWholeReplicas) {
  const Scenario by_host = diloco(make_scenario(make_platform({2, 2}, 2, a100()), make_job(4, 2, 1, 4), 4), "host");
  const Placement p = GreedyPlacer().place(by_host);
  const ParallelPlan plan(by_host.only_job().par);
  for (int d = 0; d < 4; ++d)
    EXPECT_EQ(p.gpu_of_rank[plan.rank_of(0, d, 0)].host, p.gpu_of_rank[plan.rank_of(0, d, 1)].host) << d;
  Scenario grouped = diloco(make_scenario(make_platform({2, 2}, 2, a100()), make_job(2, 2, 2, 4), 4), "groups");
  grouped.only_job().sync.island_groups = {{"h0", "h2"}, {"h1", "h3"}};
  const Placement g = GreedyPlacer().place(grouped);
  const ParallelPlan gplan(grouped.only_job().par);
  for (int r = 0; r < grouped.only_job().par.ranks(); ++r)  // group 0 is the even hosts, group 1 the odd ones
    EXPECT_EQ(g.gpu_of_rank[r].host % 2, g.gpu_of_rank[gplan.rank_of(0, gplan.coord_of(r).dp, 0)].host % 2) << r;
}

// A replica larger than every region: no island-first placement, a warning line, and greedy's every-step placement.
TEST(IslandSearch, ReplicasLargerThanEveryGroupFallBackWithAWarning) {
  Scenario s = diloco(make_scenario(make_platform({1, 1, 1, 1}, 2, a100()), make_job(2, 2, 2, 4), 6));
  s.name = "fallback";
  Scenario step = s;
  step.only_job().sync = SyncSpec{};
  ::testing::internal::CaptureStderr();
  const Placement p = GreedyPlacer().place(s);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(p.gpu_of_rank, GreedyPlacer().place(step).gpu_of_rank);
  EXPECT_NE(err.find("hulk: warning: job.sync.islands:"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}
