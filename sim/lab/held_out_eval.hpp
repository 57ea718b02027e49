#pragma once
/** @file held_out_eval.hpp
 *  @brief gnn-eval's evaluation: the learned placer's answers on held-out samples, each timed by SimGrid (in a
 *  child), against the times stored in the samples (round-robin, greedy, search label), and the figures the
 *  command prints. The answers themselves come from the program (torch runs in its own child there; sim/ may not
 *  depend on gnn/). */
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief One held-out sample: its scenario and the SimGrid times stored at generation ("greedy", "search", and
 *  "round-robin" when it was feasible). */
struct HeldOutCase {
  int index = 0;
  Scenario scenario;
  std::map<std::string, double> times_s;
};

/** @brief The learned placer's answer on one case. */
struct LearnedAnswer {
  bool ok = false;
  Placement placement;
  double inference_ms = 0;
  std::string error;  ///< why the model could not place (ok == false)
};

/** @brief One placed case, all times in seconds per iteration (round_robin_s is NaN when infeasible). */
struct HeldOutRow {
  int index = 0;
  double gnn_s = 0, round_robin_s = 0, greedy_s = 0, search_s = 0, inference_ms = 0;
};

/** @brief The placed cases and the ones the model could not place. */
struct HeldOutReport {
  int total = 0;                                  ///< cases in the data set
  std::vector<HeldOutRow> rows;                   ///< placed cases, in data set order
  bool interrupted = false;  ///< the interrupt stopped the simulations: rows holds the cases finished before it
  std::vector<std::pair<int, std::string>> failures;  ///< (sample index, error)
};

/** @brief The printed figures, each over the cases where it exists. */
struct HeldOutFigures {
  int placed = 0, with_round_robin = 0;
  double geomean_vs_round_robin = 0, worst_vs_round_robin = 0;  ///< meaningful if with_round_robin > 0
  double geomean_vs_greedy = 0, worst_vs_greedy = 0;            ///< meaningful if placed > 0
  double mean_gap_to_search = 0, mean_inference_ms = 0;         ///< meaningful if placed > 0
  double median_gap_to_search = 0;     ///< gnn's time over the search label's, minus 1: median over placed cases
  int within_5pct_of_search = 0;       ///< placed cases where gnn <= 1.05 x the search label
  int at_least_as_fast_as_greedy = 0;  ///< placed cases where gnn <= greedy
  double search_geomean_vs_greedy = 0; ///< greedy's time over the search label's, geometric mean (placed cases)
  double greedy_median_gap_to_search = 0, greedy_mean_gap_to_search = 0;  ///< greedy's time over search's, minus 1
};

/** @brief Times every placed answer with SimGrid (answers[i] belongs to cases[i]); progress lines go to progress
 *  when given. @throws InputError if answers and cases differ in number. */
HeldOutReport evaluate_held_out(const std::vector<HeldOutCase>& cases, const std::vector<LearnedAnswer>& answers,
                                std::ostream* progress);

/** @brief Geometric means, worst cases and means of a report. */
HeldOutFigures held_out_figures(const HeldOutReport& report);

/** @brief The figures as gnn-eval prints them, one per line. label_generator is the command that made the data
 *  set (its search budget is the labels' budget, printed beside every figure that uses them). */
std::string held_out_summary(const HeldOutFigures& figures, int total, const std::string& label_generator);

/** @brief index,gnn_s,round_robin_s,greedy_s,search_s,inference_ms: one line per placed case. */
std::string held_out_csv(const HeldOutReport& report);

}  // namespace hulk
