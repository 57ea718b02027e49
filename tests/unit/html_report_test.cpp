// The HTML reports (sim/report/html_report.hpp) on the tiny scenario: one picture per method that placed, each GPU
// cell labelled with its rank's stage, replica and tp index from the parallel plan, absent ratios as n/a, names
// escaped, and the same bytes for the same input. The browser test is tests/cli/html_report.sh.
#include <gtest/gtest.h>

#include <string>

#include "sim/report/html_report.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/scenario/scenario.hpp"

using namespace hulk;
using nlohmann::json;

namespace {

Scenario tiny() { return load_scenario(std::string(HULK_TEST_DATA) + "/tiny/tiny.yaml"); }

// Rank r on GPU r in the listed order: host r / 2, slot r % 2.
Placement listed(int ranks) {
  Placement p;
  for (int r = 0; r < ranks; ++r) p.gpu_of_rank.push_back({r / 2, r % 2});
  return p;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A compare report as report_to_json writes it, without round-robin (its ratio key absent in one row, null in the
// other) and with a failed method whose error holds markup.
json report_of(const Scenario& s) {
  json placed = placement_to_json(s, listed(4));
  json results = json::array();
  results.push_back({{"method", "greedy"}, {"ok", true}, {"iteration_time_s", 2.5}, {"speedup_vs_greedy", 1.0},
                     {"gap_to_lower_bound", 0.25}, {"gap_to_search", nullptr}, {"placement", placed},
                     {"method_wall_s", 0.01}});
  results.push_back({{"method", "search"}, {"ok", true}, {"iteration_time_s", 2.0}, {"speedup_vs_round_robin", nullptr},
                     {"speedup_vs_greedy", 1.25}, {"gap_to_lower_bound", 0.0}, {"gap_to_search", 0.0},
                     {"placement", placed}, {"method_wall_s", 0.5}});
  results.push_back({{"method", "gnn"}, {"ok", false}, {"error", "model <missing> & co"}});
  return {{"scenario", s.name}, {"lower_bound_s", 2.0}, {"results", results}};
}

}  // namespace

TEST(HtmlReport, ComparePicturesEveryPlacedMethodWithItsCoordinates) {
  const Scenario s = tiny();
  const std::string html = compare_html(s, report_of(s));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<svg"), 2u);  // greedy and search; gnn failed
  EXPECT_EQ(count(html, "<tr class=\"method-row"), 3u);
  EXPECT_NE(html.find("failed: model &lt;missing&gt; &amp; co"), std::string::npos);
  // No round-robin ran: both rows say n/a for it (key absent, null), never 0.
  // greedy: vs round-robin (absent) and gap to search (null); search: vs round-robin (null).
  EXPECT_EQ(count(html, "<td class=\"na\">n/a</td>"), 3u);
  // dp 2, tp 1, pp 2 in Megatron order: rank 1 is stage 0 replica 1, rank 2 stage 1 replica 0.
  EXPECT_NE(html.find("east-0 GPU 1: rank 1, stage 0, replica 1, tp 0"), std::string::npos);
  EXPECT_NE(html.find("east-1 GPU 0: rank 2, stage 1, replica 0, tp 0"), std::string::npos);
  EXPECT_EQ(count(html, ": idle</title>"), 2u * 4);  // 8 GPUs, 4 ranks, two pictures
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no asset but the SVG namespace
  EXPECT_EQ(html, compare_html(s, report_of(s)));
}

TEST(HtmlReport, ReproduceStatesTheVerdictAndEachScenario) {
  const Scenario s = tiny();
  json doc = {{"scenarios", json::array({report_of(s)})},
              {"claim_method", "search"},
              {"claim_scenarios", 1},
              {"claim_fraction_faster", 0.3},
              {"claim_reproduced", true},
              {"claim_fraction_faster_vs_greedy", 0.2}};
  const std::string html = reproduce_html({s}, doc);
  EXPECT_NE(html.find("REPRODUCED</strong>: search is 30.0% faster on the geometric mean over 1 scenario."),
            std::string::npos);
  EXPECT_EQ(count(html, "<tr class=\"scenario-row\">"), 1u);
  EXPECT_EQ(count(html, "<svg"), 2u);
  doc["claim_fraction_faster"] = nullptr;
  EXPECT_NE(reproduce_html({s}, doc).find("NOT TESTED"), std::string::npos);
}

TEST(HtmlReport, EscapesMarkup) { EXPECT_EQ(html_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;"); }
