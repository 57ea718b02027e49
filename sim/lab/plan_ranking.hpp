#pragma once
/** @file plan_ranking.hpp
 *  @brief `hulk fidelity --layouts`: where several layouts of one job were measured on the same hardware (points of
 *  one validation series whose scenarios differ only in job.parallelism, placement and name), `hulk plan`'s
 *  ranking of those layouts next to the measured one. Each group is planned twice with the series' calibrated
 *  utilisation: once restricted to the measured layouts (plan.layouts; every one placed by greedy, estimated and
 *  simulated in SimGrid, none pruned), which gives plan's predicted time and rank of each; then with the degrees
 *  free and, when the measured layouts share their dp, with that dp fixed (plan.dp; the plan's own choice, greedy
 *  finalists as `compare` plans an auto job), to say whether plan would pick one of the measured layouts or one it
 *  predicts faster. The job is otherwise the measured one (micro-batch, schedule, recomputation, check_memory). */
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/lab/fidelity.hpp"
#include "sim/methods/plan_layouts.hpp"

namespace hulk {

/** @brief One measured layout of a group. */
struct RankedLayout {
  std::string case_name;
  Parallelism par;
  double measured_s = 0;               ///< measured seconds per iteration
  std::optional<double> simulated_s;   ///< fidelity's simulation on the measured placement (absent if it failed)
  double estimate_s = std::numeric_limits<double>::quiet_NaN();  ///< plan: evaluator on its greedy placement
  double plan_s = std::numeric_limits<double>::quiet_NaN();      ///< plan: SimGrid on that placement
  int measured_rank = 0;  ///< 1 = fastest measured
  int plan_rank = 0;      ///< 1 = fastest by plan_s
};

/** @brief A layout the plan chose for the group's job by itself. */
struct PlanChoice {
  std::string bounds;  ///< what bounded it: "degrees free", "dp 8 fixed" (the measured layouts' common dp)
  Layout layout;
  std::string method;  ///< its placement method
  double time_s = std::numeric_limits<double>::quiet_NaN();  ///< its SimGrid time
};

/** @brief One job measured in several layouts, and what the plan makes of them. */
struct LayoutGroup {
  std::string series;
  std::string job;                    ///< "24 layers, hidden 2048, global batch 1024": what its layouts share
  double utilisation = 0;             ///< the series' calibrated utilisation
  std::vector<RankedLayout> layouts;  ///< in manifest order
  double kendall_tau = std::numeric_limits<double>::quiet_NaN();  ///< measured vs plan_s
  /** @brief The plan's own layouts: degrees free, then (when every measured layout has the same dp) that dp fixed. */
  std::vector<PlanChoice> choices;
  bool memory_checked = true;         ///< the scenarios' check_memory (the validation scenarios may turn it off)
  std::string failure;                ///< why the group could not be planned ("" if it was)
};

/** @brief Key under which two scenarios are the same job on the same hardware: the scenario without its name,
 *  file, placement and job.parallelism. */
std::string layout_group_key(const Scenario& scenario);

/** @brief Plans every group of >= 2 layouts of the series that ran (calibrated), in manifest order. `progress`
 *  gets one line per plan step (may be empty). */
std::vector<LayoutGroup> rank_measured_layouts(const std::vector<FidelitySeries>& series,
                                               const std::function<void(const std::string&)>& progress);

/** @brief The printed rankings: per group a table (case, layout, measured s and rank, fidelity's simulated s,
 *  plan's estimate, SimGrid s and rank), Kendall's tau, and the plan's own choice against the measured layouts.
 *  Deterministic (fixed formats, manifest order). */
std::string layout_ranking_table(const std::vector<LayoutGroup>& groups);

}  // namespace hulk
