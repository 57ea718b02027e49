#pragma once
/** @file reproduce_summary.hpp
 *  @brief `reproduce`'s summary over scenarios: per method, geometric mean and worst speedup against round-robin
 *  and greedy, mean gap to search, and the paper's ">20% faster" verdict. Every figure is taken over the scenarios
 *  where both methods it relates ran, and carries that count: a method that failed on a scenario is left out of
 *  the figure (never counted as 0), and a figure with no such scenario is n/a. */
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/lab/compare_runner.hpp"

namespace hulk {

/** @brief Geometric mean and minimum of one ratio over the scenarios where it exists. */
struct RatioAggregate {
  int count = 0;        ///< scenarios where both methods ran
  double geomean = 0;   ///< meaningful only if count > 0
  double worst = 0;     ///< smallest ratio (meaningful only if count > 0)
};

/** @brief One method's figures over all scenarios of a reproduce run. */
struct MethodSummary {
  std::string method;
  int scenarios = 0;                ///< scenarios in the run
  int ran = 0;                      ///< scenarios where the method gave a placement
  RatioAggregate vs_round_robin;
  RatioAggregate vs_greedy;
  int gap_count = 0;                ///< scenarios where the method and search both ran
  std::optional<double> mean_gap_to_search;
  std::optional<double> mean_wall_s;  ///< over the scenarios where the method ran
};

/** @brief The paper's claim tested on one method: more than 20% faster than round-robin on the geometric mean. */
struct ClaimVerdict {
  std::string method;
  int scenarios = 0;
  RatioAggregate vs_round_robin, vs_greedy;
  /** @brief 1 - 1/geomean against round-robin; absent if the method never ran together with round-robin. */
  std::optional<double> fraction_faster() const;
  /** @brief The same against greedy. */
  std::optional<double> fraction_faster_vs_greedy() const;
};

/** @brief Figures of one method over the reports. */
MethodSummary summarize_method(const std::vector<CompareReport>& reports, const std::string& method);

/** @brief The claim for method (gnn if requested, else the last method: chosen by the caller). */
ClaimVerdict claim_verdict(const std::vector<CompareReport>& reports, const std::string& method);

/** @brief The printed summary: a heading naming `what` ("5 paper scenarios"), one line per method, and the two
 *  verdict lines. Wall times are printed on a line of their own per method ("placement time"), so that output
 *  comparisons can drop them. */
std::string summary_text(const std::vector<CompareReport>& reports, const std::vector<std::string>& methods,
                         const std::string& what, const ClaimVerdict& claim);

/** @brief {method: {"geomean_speedup_vs_round_robin", ..., "scenarios", "scenarios_vs_round_robin", ...}}, with
 *  null for an absent figure. */
nlohmann::json summary_json(const std::vector<CompareReport>& reports, const std::vector<std::string>& methods);

/** @brief reproduce.csv: scenario, method, ok, iteration_time_s, speedup_vs_round_robin, speedup_vs_greedy,
 *  gap_to_search, gap_to_lower_bound, lower_bound_s, method_wall_s; an absent value is an empty field. */
std::string reproduce_csv(const std::vector<CompareReport>& reports);

/** @brief reproduce.json: {"scenarios": [report_to_json...], "summary": summary_json, "claim_method",
 *  "claim_scenarios", "claim_fraction_faster", "claim_reproduced", "claim_fraction_faster_vs_greedy"} (null when
 *  the claim could not be tested). scenarios[i] is the scenario of reports[i]. */
nlohmann::json reproduce_json(const std::vector<Scenario>& scenarios, const std::vector<CompareReport>& reports,
                              const std::vector<std::string>& methods, const ClaimVerdict& claim);

}  // namespace hulk
