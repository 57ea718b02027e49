#pragma once
/** @file plan_run.hpp
 *  @brief `hulk plan` on a scenario file: the plan (sim/methods/plan.hpp) run with a journal named by what
 *  identifies it, so that an interrupted plan resumes, and its files written into a folder. */
#include <string>
#include <vector>

#include "sim/methods/plan.hpp"
#include "sim/scenario/scenario.hpp"

namespace hulk {

/** @brief The plan's inputs. */
struct PlanRunOptions {
  std::string file;                ///< the scenario YAML
  std::vector<Override> overrides; ///< --set, read
  std::vector<std::string> sets;   ///< --set as given (part of the journal's identity)
  std::string out;                 ///< folder of plan.csv, best.yaml, best-placement.json and the journal
  PlanOptions plan;                ///< its journal fields are set by run_plan_file
};

/** @brief The plan and whether the scenario has every price (a $/1M tokens column). */
struct PlanRunReport {
  PlanReport plan;
  bool priced = false;
};

/** @brief The placers of the plan's finalists among `methods`: every one but greedy, which places every screened
 *  layout anyway. */
std::vector<std::string> finalist_methods(const std::vector<std::string>& methods);

/** @brief Loads the scenario, checks the methods' files, runs the plan (resuming from OUT's journal) and writes its
 *  files. @throws InputError for bad input; Interrupted (the journal kept) on SIGINT/SIGTERM. */
PlanRunReport run_plan_file(PlanRunOptions options);

}  // namespace hulk
