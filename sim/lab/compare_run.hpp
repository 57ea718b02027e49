#pragma once
/** @file compare_run.hpp
 *  @brief `hulk compare` on one scenario: the input checks every method makes up front, every method's placement
 *  and SimGrid time (compare_runner.hpp), and on request each placement's mean time under the scenario's robust
 *  distribution. The CLI loads the scenario, writes the report's files and prints (tools/cli/cmd_compare.cpp). */
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"
#include "sim/lab/compare_runner.hpp"

namespace hulk {

/** @brief The methods and what to measure on top of their times. */
struct CompareOptions {
  std::vector<std::string> methods;
  MethodOptions options;
  bool events = false;     ///< simulate under the scenario's events (methods still place for the quiet network)
  int robust_states = 0;   ///< > 0: each placement's mean SimGrid time over this many states of `robust:`
  std::string layout;      ///< the plan's layout of an `auto` job ("" when nothing was auto), into the JSON
  bool quiet = false;      ///< no note that the events are ignored
  /** @brief Gets progress text as it comes (pieces of lines, each line ending in "\n"); may be empty. */
  std::function<void(const std::string&)> progress;
};

/** @brief The report, its JSON form, and whether it was cut short. */
struct CompareRun {
  CompareReport report;
  nlohmann::json doc;        ///< report_to_json, with "layout" and the robust expectations when asked
  bool interrupted = false;  ///< a method was cut short: the report is partial
};

/** @brief Runs the methods on `s`, whose events are cleared unless options.events (so that the caller's HTML report
 *  shows the scenario the methods ran on). @throws InputError for options the
 *  scenario cannot honour (events without events, robust states without `robust:`) and for a method the input rules
 *  out, before any method runs. */
CompareRun run_compare_scenario(Scenario& s, const CompareOptions& options);

/** @brief The robust expectations as lines under the table ("" when not asked for). */
std::string robust_table(const nlohmann::json& doc);

}  // namespace hulk
