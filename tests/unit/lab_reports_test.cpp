// The figures the experiment runners of sim/lab compute for the CLI to print: `compare generated`'s comparison of
// each method with search, `bench`'s CSV row, `sweep`'s progress line, and `simulate`'s size check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/lab/bench.hpp"
#include "sim/lab/generated_eval.hpp"
#include "sim/lab/simulate_run.hpp"
#include "sim/lab/sweep_run.hpp"
#include "sim/core/errors.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk {
namespace {

MethodResult ran(const std::string& method, double t, double wall_s) {
  MethodResult r;
  r.method = method;
  r.ok = true;
  r.iteration_time_s = t;
  r.method_wall_s = wall_s;
  return r;
}

MethodResult failed(const std::string& method) {
  MethodResult r;
  r.method = method;
  r.error = "does not fit";
  return r;
}

CompareReport cluster(std::vector<MethodResult> results) {
  CompareReport r;
  r.scenario = "c";
  r.results = std::move(results);
  return r;
}

TEST(GeneratedEval, ComparesEachMethodWithSearchWhereBothRan) {
  const std::vector<CompareReport> reports{
      // greedy 4% slower than search (near), search 3.8% faster than greedy; search took 10x greedy's time.
      cluster({ran("greedy", 1.04, 0.1), ran("search", 1.0, 1.0), ran("gnn", 1.2, 0.5)}),
      // greedy 10% slower (not near); search 9% faster; search took 4x greedy's time.
      cluster({ran("greedy", 1.1, 0.5), ran("search", 1.0, 2.0), failed("gnn")}),
      // search failed: the cluster counts for no method.
      cluster({ran("greedy", 1.0, 0.1), failed("search"), ran("gnn", 1.0, 0.1)}),
  };
  const std::vector<SearchComparison> c = compare_with_search(reports, {"greedy", "search", "gnn", "random"});
  ASSERT_EQ(c.size(), 2u);  // search itself left out; random never ran
  EXPECT_EQ(c[0].method, "greedy");
  EXPECT_EQ(c[0].clusters, 2);
  EXPECT_EQ(c[0].near_search, 1);
  EXPECT_EQ(c[0].search_beats_greedy, 2);
  ASSERT_TRUE(c[0].search_time_ratio.has_value());
  EXPECT_NEAR(*c[0].search_time_ratio, 10.0, 1e-12);  // the upper middle of {4, 10}
  EXPECT_EQ(c[1].method, "gnn");
  EXPECT_EQ(c[1].clusters, 1);
  EXPECT_EQ(c[1].near_search, 0);
  ASSERT_TRUE(c[1].search_time_ratio.has_value());
  EXPECT_NEAR(*c[1].search_time_ratio, 2.0, 1e-12);
}

TEST(GeneratedEval, NoPlacementTimeGivesNoRatio) {
  const std::vector<CompareReport> reports{cluster({ran("greedy", 1.0, 0.0), ran("search", 1.0, 1.0)})};
  const std::vector<SearchComparison> c = compare_with_search(reports, {"greedy", "search"});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(c[0].search_time_ratio.has_value());
  EXPECT_EQ(c[0].near_search, 1);
  EXPECT_EQ(c[0].search_beats_greedy, 0);
}

TEST(GeneratedEval, ClusterJobsStayInTheRange) {
  GeneratedEvalOptions o;
  o.min_jobs = 3;
  o.max_jobs = 5;
  bool seen[9] = {};
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const int n = generated_jobs_of(o, seed);
    ASSERT_GE(n, 3);
    ASSERT_LE(n, 5);
    seen[n] = true;
    EXPECT_EQ(n, generated_jobs_of(o, seed));  // drawn from the seed alone
  }
  EXPECT_TRUE(seen[3] && seen[4] && seen[5]);
}

TEST(BenchReport, CsvRowQuotesNamesAndKeepsTheColumns) {
  BenchReport r;
  r.scenario = "scale, 64";
  r.gpus = 64;
  r.hosts = 8;
  SimulationBench sim;
  sim.method = "greedy";
  sim.iteration_time_s = 1.5;
  sim.wall_median_s = 0.25;
  sim.cpu_median_s = 0.2;
  sim.peak_rss_mb = 11;
  sim.messages = 1000;
  sim.simgrid_messages = 600;
  sim.closed_form = 40;
  const std::string row = bench_csv_row(r, sim, 3);
  EXPECT_EQ(row, "\"scale, 64\",64,8,greedy,3,1.5,0.250,0.200,11,1000,600,40\n");
  // As many fields as the header (the quoted name is one field).
  const std::string header = kBenchCsvHeader;
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(row.begin(), row.end(), ',') - 1);
}

TEST(SweepProgress, DurationsToThePrecisionAPersonPlansWith) {
  EXPECT_EQ(duration_text(0.4), "0 s");
  EXPECT_EQ(duration_text(59.6), "1 min 00 s");
  EXPECT_EQ(duration_text(750), "12 min 30 s");
  EXPECT_EQ(duration_text(3600 + 5 * 60 + 29), "1 h 05 min");
}

TEST(SweepProgress, MethodTimesNameFailures) {
  const CompareReport r = cluster({ran("greedy", 0.031224, 1), failed("search")});
  EXPECT_EQ(sweep_method_times(r), "greedy 0.03122 s, search failed");
}

TEST(SimulateRun, RefusesARunTooLargeUnlessAllowedAndThenAnnouncesIt) {
  const Scenario s = load_scenario_file(std::string(HULK_SOURCE_DIR) + "/scenarios/examples/big-1024.yaml",
                                        {{"job.iterations", "1000"}});
  const Placement placement = make_placer("round-robin")->place(s);
  std::vector<std::string> notices;
  const auto notice = [&](const std::string& line) { notices.push_back(line); };
  try {
    check_run_size(s, placement, false, notice);
    FAIL() << "a run of billions of messages was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--allow-large"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(notices.empty());
  check_run_size(s, placement, true, notice);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].rfind("hulk: simulating about ", 0), 0u) << notices[0];
}

TEST(SimulateRun, SmallRunIsNeitherRefusedNorAnnounced) {
  const Scenario s = load_scenario_file(std::string(HULK_SOURCE_DIR) + "/scenarios/examples/quickstart.yaml");
  const Placement placement = make_placer("round-robin")->place(s);
  std::vector<std::string> notices;
  check_run_size(s, placement, false, [&](const std::string& line) { notices.push_back(line); });
  EXPECT_TRUE(notices.empty());
}

}  // namespace
}  // namespace hulk
