// Honest tables: an absent value is n/a (null in JSON), never 0; summary figures are over the
// scenarios where both methods ran and say how many.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/core/number_text.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/lab/reproduce_summary.hpp"

namespace hulk {
namespace {

MethodResult ran(const std::string& method, double t, std::optional<double> vs_rr, std::optional<double> vs_gr,
                 std::optional<double> gap_search = std::nullopt) {
  MethodResult r;
  r.method = method;
  r.ok = true;
  r.iteration_time_s = t;
  r.speedup_vs_round_robin = vs_rr;
  r.speedup_vs_greedy = vs_gr;
  r.gap_to_lower_bound = 0.5;
  r.gap_to_search = gap_search;
  r.method_wall_s = 0.25;
  return r;
}

MethodResult failed(const std::string& method) {
  MethodResult r;
  r.method = method;
  r.error = "does not fit";
  return r;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CompareTable, AbsentGapToSearchIsNaNotZero) {
  CompareReport rep;
  rep.scenario = "s";
  rep.lower_bound_s = 1;
  rep.results = {ran("round-robin", 2, 1.0, 0.5), ran("greedy", 1, 2.0, 1.0)};
  const std::string table = report_table(rep);
  EXPECT_TRUE(contains(table, "n/a")) << table;
  EXPECT_FALSE(contains(table, "0.0%")) << table;
  const nlohmann::json j = report_to_json(Scenario{}, rep);
  for (const auto& r : j["results"]) {
    ASSERT_TRUE(r.contains("gap_to_search"));
    EXPECT_TRUE(r["gap_to_search"].is_null()) << r.dump();
    EXPECT_TRUE(r["speedup_vs_round_robin"].is_number());
  }
}

TEST(CompareTable, AGapOfAFewUlpsIsZeroNotAnExponent) {
  // A method whose time equals search's up to the last bit would print a gap of "4e-14%".
  MethodResult search = ran("search", 0.3, 1.0, 1.0), gnn = ran("gnn", std::nextafter(0.3, 1.0), 1.0, 1.0);
  gnn.gap_to_search.reset();
  set_ratios(gnn, &search, &search, &search, std::nextafter(0.3, 0.0));
  ASSERT_TRUE(gnn.gap_to_search.has_value());
  EXPECT_EQ(*gnn.gap_to_search, 0.0);
  EXPECT_FALSE(std::signbit(*gnn.gap_to_search));
  EXPECT_EQ(*gnn.gap_to_lower_bound, 0.0);
  CompareReport rep;
  rep.scenario = "s";
  rep.lower_bound_s = 0.3;
  rep.results = {search, gnn};
  const std::string table = report_table(rep);
  EXPECT_FALSE(contains(table, "e-")) << table;
  EXPECT_EQ(relative_gap(0.3, std::nextafter(0.3, 1.0)), 0.0);
  EXPECT_NEAR(relative_gap(1.1, 1.0), 0.1, 1e-12);  // a real gap is kept
  EXPECT_GT(relative_gap(1.0 + 2e-9, 1.0), 0.0);  // just past the rounding threshold
}

TEST(CompareTable, FailedMethodShowsItsErrorAndNoRatio) {
  CompareReport rep;
  rep.scenario = "s";
  rep.results = {failed("round-robin"), ran("greedy", 1, std::nullopt, 1.0)};
  const std::string table = report_table(rep);
  EXPECT_TRUE(contains(table, "round-robin  failed: does not fit")) << table;
  EXPECT_FALSE(contains(table, "0.000x")) << table;
  EXPECT_TRUE(any_method_ok(rep));
  const nlohmann::json j = report_to_json(Scenario{}, rep);
  EXPECT_FALSE(j["results"][0]["ok"].get<bool>());
  EXPECT_TRUE(j["results"][1]["speedup_vs_round_robin"].is_null());
  rep.results = {failed("round-robin"), failed("greedy")};
  EXPECT_FALSE(any_method_ok(rep));
}

/** Five scenarios; gnn fails on the last one, where it would otherwise count as 0x. */
std::vector<CompareReport> five_scenarios(bool with_search) {
  std::vector<CompareReport> reports;
  for (int i = 0; i < 5; ++i) {
    CompareReport rep;
    rep.scenario = "s" + std::to_string(i);
    rep.results.push_back(ran("round-robin", 4, 1.0, 0.5));
    rep.results.push_back(ran("greedy", 2, 2.0, 1.0));
    if (i < 4)
      rep.results.push_back(ran("gnn", 1, 4.0, 2.0, with_search ? std::optional<double>(0.1) : std::nullopt));
    else
      rep.results.push_back(failed("gnn"));
    reports.push_back(rep);
  }
  return reports;
}

TEST(ReproduceSummary, FiguresAreOverTheScenariosWhereBothRan) {
  const auto reports = five_scenarios(true);
  const MethodSummary s = summarize_method(reports, "gnn");
  EXPECT_EQ(s.ran, 4);
  EXPECT_EQ(s.vs_round_robin.count, 4);
  EXPECT_DOUBLE_EQ(s.vs_round_robin.geomean, 4.0);  // not pulled down by the failed scenario
  EXPECT_DOUBLE_EQ(s.vs_round_robin.worst, 4.0);
  ASSERT_TRUE(s.mean_gap_to_search.has_value());
  EXPECT_DOUBLE_EQ(*s.mean_gap_to_search, 0.1);
  const ClaimVerdict claim = claim_verdict(reports, "gnn");
  const std::string text = summary_text(reports, {"round-robin", "greedy", "gnn"}, "5 scenarios in X", claim);
  EXPECT_TRUE(contains(text, "Summary over 5 scenarios in X")) << text;
  EXPECT_TRUE(contains(text, "gnn: vs round-robin 4.000x (worst 4.000x, over 4 of 5 scenarios)")) << text;
  EXPECT_TRUE(contains(text, "greedy: vs round-robin 2.000x (worst 2.000x, over 5 of 5 scenarios)")) << text;
  EXPECT_TRUE(contains(text, "mean gap to search 10.0% (over 4 of 5 scenarios)")) << text;
  EXPECT_TRUE(contains(text, "gnn is 75.0% faster on the geometric mean over 4 of 5 scenarios -> REPRODUCED"))
      << text;
  EXPECT_FALSE(contains(text, "paper")) << text;
}

TEST(ReproduceSummary, NoSearchMeansGapNaAndNoRunMeansNotTested) {
  const auto reports = five_scenarios(false);
  const std::string text =
      summary_text(reports, {"gnn"}, "5 scenarios in X", claim_verdict(reports, "gnn"));
  EXPECT_TRUE(contains(text, "mean gap to search n/a")) << text;
  EXPECT_FALSE(contains(text, "mean gap to search 0")) << text;
  const nlohmann::json j = summary_json(reports, {"gnn"});
  EXPECT_TRUE(j["gnn"]["mean_gap_to_search"].is_null());
  EXPECT_EQ(j["gnn"]["scenarios_vs_round_robin"].get<int>(), 4);
  EXPECT_EQ(j["gnn"]["scenarios_total"].get<int>(), 5);

  std::vector<CompareReport> none(2);
  for (auto& rep : none) rep.results = {failed("round-robin"), ran("gnn", 1, std::nullopt, std::nullopt)};
  const ClaimVerdict claim = claim_verdict(none, "gnn");
  EXPECT_FALSE(claim.fraction_faster().has_value());
  const std::string untested = summary_text(none, {"gnn"}, "2 scenarios in X", claim);
  EXPECT_TRUE(contains(untested, "NOT TESTED")) << untested;
  EXPECT_TRUE(contains(untested, "vs round-robin n/a (over 0 of 2 scenarios)")) << untested;
  EXPECT_FALSE(contains(untested, "REPRODUCED")) << untested;
}

}  // namespace
}  // namespace hulk
