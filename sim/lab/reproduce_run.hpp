#pragma once
/** @file reproduce_run.hpp
 *  @brief `hulk reproduce [DIR]`: the paper reproduction. Every scenario of a folder is compared (compare_runner.hpp)
 *  with round-robin as a reference, the scenarios of one job and those of several jobs summarised apart, the paper's
 *  ">20% faster" claim tested on each group, and reproduce.json / .csv written (and the plots drawn by
 *  tools/scripts/plot.py). The CLI checks the options and prints (tools/cli/cmd_reproduce.cpp). */
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"
#include "sim/lab/compare_runner.hpp"
#include "sim/lab/reproduce_summary.hpp"

namespace hulk {

/** @brief One group of scenarios summarised together (their times are comparable). */
struct ReproduceGroup {
  std::string what;                    ///< "5 paper scenarios", "2 scenarios of several jobs sharing one cluster ..."
  std::vector<CompareReport> reports;
  ClaimVerdict claim;
};

/** @brief Every scenario's report, the groups, and reproduce.json's content. */
struct ReproduceReport {
  std::vector<CompareReport> reports;  ///< in scenario order
  std::vector<ReproduceGroup> groups;  ///< one job first, then several jobs (a group only if it has scenarios)
  nlohmann::json doc;                  ///< reproduce.json
};

/** @brief The .yaml files of `dir`, sorted. @throws InputError if it is not a folder or holds none. */
std::vector<std::string> reproduce_scenario_files(const std::string& dir);

/** @brief Loads every file (failing fast on a bad one) and refuses two scenarios of one name: the report's rows are
 *  keyed by it. @throws InputError naming the second file. */
std::vector<Scenario> load_reproduce_scenarios(const std::vector<std::string>& files);

/** @brief Refuses, before any work, an out folder where one of the files reproduce writes is a folder.
 *  @throws InputError naming it. */
void check_reproduce_out(const std::string& out);

/** @brief Runs the methods on every scenario (`progress` gets a line per scenario, `on_scenario` each report as it
 *  finishes; both may be empty) and summarises them; `dir` names the set ("paper" for the bundled one). Writes
 *  out/reproduce.json and reproduce.csv (and removes an earlier interrupted run's reproduce.partial.csv).
 *  @throws Interrupted (after writing out/reproduce.partial.csv with the scenarios finished) when cut short. */
ReproduceReport run_reproduce(const std::vector<Scenario>& scenarios, const std::vector<std::string>& methods,
                              const MethodOptions& options, const std::string& dir, const std::string& out,
                              const std::function<void(const std::string&)>& progress,
                              const std::function<void(const CompareReport&)>& on_scenario);

/** @brief Draws reproduce.json's plots into `out` with plot_script (tools/scripts/plot.py), its output on stderr.
 *  @return false if python3 with matplotlib is not available or the script failed. */
bool plot_reproduce(const std::string& plot_script, const std::string& out);

}  // namespace hulk
