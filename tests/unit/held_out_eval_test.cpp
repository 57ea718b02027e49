// gnn-eval's figures (sim/lab/held_out_eval.hpp): geometric means over the placed samples, round-robin only
// over the samples where it was feasible, failures counted apart.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/errors.hpp"
#include "sim/lab/held_out_eval.hpp"

namespace hulk {
namespace {

TEST(HeldOutEval, FiguresAreOverTheSamplesWhereTheyExist) {
  HeldOutReport report;
  report.total = 3;
  report.rows = {{0, 1.0, 4.0, 2.0, 1.0, 10.0}, {1, 2.0, NAN, 2.0, 1.0, 20.0}};
  report.failures = {{2, "no fit"}};
  const HeldOutFigures f = held_out_figures(report);
  EXPECT_EQ(f.placed, 2);
  EXPECT_EQ(f.with_round_robin, 1);
  EXPECT_DOUBLE_EQ(f.geomean_vs_round_robin, 4.0);  // the infeasible round-robin does not count
  EXPECT_DOUBLE_EQ(f.worst_vs_round_robin, 4.0);
  EXPECT_NEAR(f.geomean_vs_greedy, std::sqrt(2.0), 1e-12);
  EXPECT_DOUBLE_EQ(f.worst_vs_greedy, 1.0);
  EXPECT_DOUBLE_EQ(f.mean_gap_to_search, 0.5);  // (0 + 1) / 2
  EXPECT_DOUBLE_EQ(f.mean_inference_ms, 15.0);
  EXPECT_EQ(held_out_csv(report),
            "index,gnn_s,round_robin_s,greedy_s,search_s,inference_ms\n0,1,4,2,1,10.000\n1,2,nan,2,1,20.000\n");
}

TEST(HeldOutEval, CountsAndMediansAgainstSearchAndGreedy) {
  HeldOutReport report;
  report.total = 3;
  // gnn / greedy / search: equal to search; 1.04x search and faster than greedy; 1.5x search and slower than greedy.
  report.rows = {{0, 1.0, NAN, 1.2, 1.0, 1.0}, {1, 1.04, NAN, 2.0, 1.0, 1.0}, {2, 3.0, NAN, 2.0, 2.0, 1.0}};
  const HeldOutFigures f = held_out_figures(report);
  EXPECT_EQ(f.within_5pct_of_search, 2);
  EXPECT_EQ(f.at_least_as_fast_as_greedy, 2);
  EXPECT_NEAR(f.median_gap_to_search, 0.04, 1e-12);
  EXPECT_NEAR(f.greedy_median_gap_to_search, 0.2, 1e-12);    // gaps 0.2, 1.0, 0.0
  EXPECT_NEAR(f.greedy_mean_gap_to_search, 0.4, 1e-12);
  EXPECT_NEAR(f.search_geomean_vs_greedy, std::cbrt(1.2 * 2.0 * 1.0), 1e-12);
  const std::string text = held_out_summary(f, 3, "hulk gnn gen-data --budget 3000");
  EXPECT_NE(text.find("3 of 3 samples placed; search labels from: hulk gnn gen-data --budget 3000"), std::string::npos);
  EXPECT_NE(text.find("within 5% of search on 2 of 3"), std::string::npos);
  EXPECT_NE(text.find("at least as fast as greedy on 2 of 3"), std::string::npos);
  EXPECT_EQ(text.find("round-robin"), std::string::npos);  // no sample where it fits: no line
}

TEST(HeldOutEval, NothingPlacedGivesZeroCountsAndMismatchIsAnError) {
  HeldOutReport report;
  report.total = 1;
  report.failures = {{0, "no fit"}};
  const HeldOutFigures f = held_out_figures(report);
  EXPECT_EQ(f.placed, 0);
  EXPECT_EQ(f.with_round_robin, 0);
  EXPECT_THROW(evaluate_held_out({HeldOutCase{}}, {}, nullptr), InputError);
  LearnedAnswer failed;
  failed.error = "model refused";
  const HeldOutReport r = evaluate_held_out({HeldOutCase{}}, {failed}, nullptr);  // no SimGrid run for a failure
  EXPECT_EQ(r.total, 1);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].second, "model refused");
}

}  // namespace
}  // namespace hulk
