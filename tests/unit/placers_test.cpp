// Placers: validity (property test over random platforms/jobs), quality (search vs greedy vs the evaluator's
// optimum), determinism, factory errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "placement_test_platforms.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/exhaustive_placer.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/verified_search.hpp"
#include "sim/workload/plan.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;

// Independent validity oracle (does not reuse placement_problem).
std::string why_invalid(const Scenario& s, const Placement& p) {
  if (static_cast<int>(p.gpu_of_rank.size()) != s.only_job().par.ranks()) return "rank count";
  const JobCost c = compute_job_cost(s.only_job());
  const ParallelPlan plan(s.only_job().par);
  std::set<std::pair<int, int>> used;
  for (int r = 0; r < s.only_job().par.ranks(); ++r) {
    const GpuSlot g = p.gpu_of_rank[r];
    if (g.host < 0 || g.host >= static_cast<int>(s.platform.hosts.size())) return "host out of range";
    if (g.slot < 0 || g.slot >= s.platform.hosts[g.host].gpus) return "slot out of range";
    if (!used.insert({g.host, g.slot}).second) return "GPU used twice";
    if (c.stages[plan.coord_of(r).pp].peak_memory_bytes > s.platform.hosts[g.host].gpu.memory_bytes)
      return "memory of rank " + std::to_string(r);
  }
  return "";
}

// Makes some GPUs too small for the heaviest stages (memory pressure), keeping at least one feasible job often.
void squeeze_memory(Scenario& s, std::mt19937_64& rng) {
  const JobCost c = compute_job_cost(s.only_job());
  double lo = 1e30, hi = 0;
  for (const auto& st : c.stages) {
    lo = std::min(lo, st.peak_memory_bytes);
    hi = std::max(hi, st.peak_memory_bytes);
  }
  for (auto& h : s.platform.hosts)
    if (rng() % 3 == 0) h.gpu.memory_bytes = lo + (hi - lo) * 0.5 - 1;  // fits only the lighter stages
}

bool feasible_by_counting(const Scenario& s) {
  // Nested fit sets: feasible iff for every stage threshold there are enough GPUs (Hall on nested sets).
  const JobCost c = compute_job_cost(s.only_job());
  const int per_stage = s.only_job().par.dp * s.only_job().par.tp;
  for (const auto& st : c.stages) {
    int need = 0, have = 0;
    for (const auto& o : c.stages)
      if (o.peak_memory_bytes >= st.peak_memory_bytes) need += per_stage;
    for (const auto& h : s.platform.hosts)
      if (h.gpu.memory_bytes >= st.peak_memory_bytes) have += h.gpus;
    if (have < need) return false;
  }
  return true;
}

TEST(Placers, EveryPlacerReturnsValidPlacementsOnRandomInstances) {
  std::mt19937_64 rng(99);
  SearchOptions annealing;  // the plain annealer: the registry's "search" adds SimGrid checks (tests/sim)
  annealing.max_evaluations = 300;
  int valid = 0, refused = 0;
  for (int i = 0; i < 120; ++i) {
    Scenario s = testing::random_scenario(rng);
    if (i % 2 == 1) squeeze_memory(s, rng);
    const bool feasible = feasible_by_counting(s);
    for (const std::string method : {"round-robin", "random", "greedy", "anneal"}) {
      std::unique_ptr<Placer> placer =
          method == "anneal" ? std::make_unique<SearchPlacer>(annealing) : make_placer(method);
      try {
        const Placement p = placer->place(s);
        ASSERT_EQ(why_invalid(s, p), "") << method << " on instance " << i;
        ++valid;
      } catch (const InputError& e) {
        // Only round-robin (a fixed rule) may refuse a feasible job; the others refuse only infeasible ones.
        ASSERT_TRUE(method == "round-robin" || !feasible) << method << " refused feasible instance " << i << ": "
                                                          << e.what();
        ++refused;
      }
    }
  }
  EXPECT_GT(valid, 300);  // the property was exercised, not skipped
  EXPECT_GT(refused, 0);  // and the squeezed instances did include infeasible/refused cases
}

TEST(Placers, RandomRefusesWhenNothingFits) {
  PlatformSpec p = make_platform({2}, 1, testing::a100());
  for (auto& h : p.hosts) h.gpu.memory_bytes = 1e6;
  Scenario s = make_scenario(p, make_job(1, 1, 2, 2));
  EXPECT_THROW(RandomPlacer().place(s), InputError);
  EXPECT_THROW(GreedyPlacer().place(s), InputError);
  EXPECT_THROW(SearchPlacer().place(s), InputError);
}

TEST(Placers, DeterministicForASeed) {
  Scenario s = testing::hulk_like_scenario(3);
  SearchOptions o;
  o.max_evaluations = 2000;
  const Placement a = SearchPlacer(o).place(s), b = SearchPlacer(o).place(s);
  EXPECT_TRUE(a.gpu_of_rank == b.gpu_of_rank);
  EXPECT_TRUE(GreedyPlacer().place(s).gpu_of_rank == GreedyPlacer().place(s).gpu_of_rank);
  EXPECT_TRUE(RandomPlacer().place(s).gpu_of_rank == RandomPlacer().place(s).gpu_of_rank);
  Scenario other = s;
  other.seed = s.seed + 1;
  EXPECT_FALSE(RandomPlacer().place(s).gpu_of_rank == RandomPlacer().place(other).gpu_of_rank);
}

TEST(Placers, GreedyKeepsTensorParallelInsideHostsAndBeatsRoundRobin) {
  Scenario s = testing::hulk_like_scenario();
  Evaluator ev(s);
  const Placement g = GreedyPlacer().place(s);
  for (int r = 0; r < s.only_job().par.ranks(); r += s.only_job().par.tp)
    for (int t = 1; t < s.only_job().par.tp; ++t) EXPECT_EQ(g.gpu_of_rank[r].host, g.gpu_of_rank[r + t].host) << r;
  const double tg = ev.iteration_time_s(g), trr = ev.iteration_time_s(round_robin_placement(s));
  EXPECT_LT(tg, trr);
  // Every stage of greedy's placement is inside one region (the platform has room for that).
  const int n = s.only_job().par.dp * s.only_job().par.tp;
  for (int st = 0; st < s.only_job().par.pp; ++st)
    for (int i = 1; i < n; ++i)
      EXPECT_EQ(s.platform.hosts[g.gpu_of_rank[st * n].host].region,
                s.platform.hosts[g.gpu_of_rank[st * n + i].host].region);
}

TEST(Placers, GreedyIsNeverSlowerThanRoundRobinWhereHostsReachThemselvesSlowly) {
  // Hosts of 2 GPUs joined by PCIe (8 GB/s) behind 400 Gbit/s NICs: a TP group on one host is slower than one
  // spread over two. Greedy's rules keep TP groups on a host; round-robin's placement is one of its candidates.
  const Scenario s = make_scenario(make_platform({4}, 2, a100(), {50e9, 2e-6}, {1.25e8, 20e-3}, {8e9, 5e-6}),
                                   make_job(2, 2, 2, 8));
  Evaluator ev(s);
  EXPECT_LE(ev.iteration_time_s(GreedyPlacer().place(s)), ev.iteration_time_s(round_robin_placement(s)));
}

TEST(Placers, SearchNeverWorseThanGreedy) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 40; ++i) {
    Scenario s = testing::random_scenario(rng);
    Evaluator ev(s);
    SearchOptions o;
    o.max_evaluations = 1000;
    SearchPlacer search(o);
    const double ts = ev.iteration_time_s(search.place(s));
    const double tg = ev.iteration_time_s(GreedyPlacer().place(s));
    ASSERT_LE(ts, tg * (1 + 1e-12)) << "instance " << i;
    EXPECT_DOUBLE_EQ(search.stats().best_time_s, ts);
  }
  Scenario big = testing::hulk_like_scenario();
  Evaluator ev(big);
  SearchOptions o;
  o.max_evaluations = 5000;
  EXPECT_LE(ev.iteration_time_s(SearchPlacer(o).place(big)), ev.iteration_time_s(GreedyPlacer().place(big)));
}

TEST(Placers, SearchFindsTheEvaluatorOptimumOnTinyInstances) {
  // Brute force over the evaluator itself (exhaustive placer, evaluator oracle) vs search.
  std::mt19937_64 rng(11);
  int compared = 0;
  for (int i = 0; i < 60 && compared < 25; ++i) {
    Scenario s = testing::random_scenario(rng);
    if (s.platform.total_gpus() > 8 || count_placements_up_to_symmetry(s, 20000) > 20000) continue;
    ExhaustiveOptions eo;
    eo.time_oracle = nullptr;
    eo.max_placements = 20000;
    ExhaustivePlacer ex(eo);
    const Placement best = ex.place(s);
    Evaluator ev(s);
    EXPECT_DOUBLE_EQ(ev.iteration_time_s(best), ex.best_time_s());
    SearchOptions so;
    so.max_evaluations = 3000;
    const double ts = ev.iteration_time_s(SearchPlacer(so).place(s));
    EXPECT_LE(ts, ex.best_time_s() * 1.02) << "instance " << i;
    EXPECT_GE(ts, ex.best_time_s() * (1 - 1e-9)) << "exhaustive missed a better placement, instance " << i;
    ++compared;
  }
  EXPECT_GE(compared, 10);
}

TEST(Exhaustive, EnumeratesUpToSymmetryAndRefusesLargeInstances) {
  // 2 hosts x 2 GPUs, 2 ranks: rank -> host maps with capacity 2 each: 00, 01, 10, 11.
  Scenario s = make_scenario(make_platform({2}, 2, testing::a100()), make_job(2, 1, 1, 1));
  EXPECT_EQ(count_placements_up_to_symmetry(s, 100), 4);
  // 3 ranks on hosts of capacity 1, 1, 2 (4 GPUs): 3^3 maps minus those using host 0 or 1 twice or host 2 thrice.
  PlatformSpec p = make_platform({3}, 1, testing::a100());
  p.hosts[2].gpus = 2;
  Scenario s3 = make_scenario(p, make_job(3, 1, 1, 1));
  // Count by hand: all 27 maps minus maps with a host over capacity.
  int expect = 0;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 3; ++c) {
        int n[3] = {0, 0, 0};
        ++n[a];
        ++n[b];
        ++n[c];
        if (n[0] <= 1 && n[1] <= 1 && n[2] <= 2) ++expect;
      }
  EXPECT_EQ(count_placements_up_to_symmetry(s3, 1000), expect);
  // Refusals: more than 8 GPUs, or above the cap.
  Scenario big = make_scenario(make_platform({3}, 3, testing::a100()), make_job(2, 1, 1, 1));
  EXPECT_THROW(ExhaustivePlacer().place(big), InputError);
  ExhaustiveOptions tiny_cap;
  tiny_cap.max_placements = 3;
  tiny_cap.time_oracle = nullptr;
  EXPECT_THROW(ExhaustivePlacer(tiny_cap).place(s), InputError);
}

TEST(Registry, AMethodListWithAnEmptyItemOrAFileWithoutPathIsRefused) {
  // `greedy,,search` skipped the empty item without a word; `file:` named no file.
  EXPECT_THROW(parse_method_list("greedy,,search"), InputError);
  EXPECT_THROW(parse_method_list("greedy,"), InputError);  // a trailing comma is refused too
  EXPECT_EQ(parse_method_list("greedy,search").size(), 2u);
  EXPECT_THROW(check_method_files("file:", MethodOptions{}), InputError);
}

TEST(Registry, KnowsEveryMethodAndSuggestsOnTypos) {
  const std::vector<std::string> expected = {"round-robin", "random", "greedy",    "search",
                                             "robust",      "exhaustive", "gnn", "gnn+refine"};
  EXPECT_EQ(known_methods(), expected);
  MethodOptions with_learned;
  with_learned.learned = [](const Scenario& s, const std::string&, const Placement*) { return round_robin_placement(s); };
  for (const auto& m : known_methods()) EXPECT_EQ(make_placer(m, with_learned)->name(), m);
  EXPECT_EQ(make_placer("file:x.json")->name(), "file:x.json");
  // "search" is the SimGrid-checked restart search everywhere, not the plain annealer.
  EXPECT_NE(dynamic_cast<VerifiedSearchPlacer*>(make_placer("search").get()), nullptr);
  EXPECT_THROW(make_placer("gnn"), InputError);  // no learned placer given
  try {
    make_placer("gredy");
    FAIL() << "no exception";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("did you mean 'greedy'"), std::string::npos) << what;
    EXPECT_NE(what.find("round-robin, random, greedy, search, robust, exhaustive, gnn, gnn+refine, file:PATH"),
              std::string::npos)
        << what;
  }
  EXPECT_THROW(make_placer("annealing-with-magic"), InputError);
  EXPECT_THROW(parse_method_list("greedy,gnn+refin"), InputError);
  EXPECT_EQ(parse_method_list("greedy,gnn+refine").size(), 2u);
}

TEST(Seeds, ComponentSeedsAreStableAndDistinct) {
  EXPECT_EQ(fnv1a64(""), 14695981039346656037ULL);  // FNV-1a offset basis
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);  // published FNV-1a 64 test vector
  EXPECT_NE(component_seed(1, "search"), component_seed(1, "random"));
  EXPECT_NE(component_seed(1, "search"), component_seed(2, "search"));
  EXPECT_EQ(component_seed(42, "search"), component_seed(42, "search"));
}

}  // namespace
}  // namespace hulk
