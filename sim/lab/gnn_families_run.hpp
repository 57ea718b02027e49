#pragma once
/** @file gnn_families_run.hpp
 *  @brief `hulk gnn families`' run: per held-out family (gnn_families.hpp) and scenario, greedy's and the search's
 *  placements, every learned row's (gnn_family_rows.hpp) and the equal-budget row's, all timed by SimGrid, then the
 *  family's figures. Torch runs in one child per scenario (all placements of every row), SimGrid in children of
 *  this process. The learned placer comes in through LearnedBackend, so no sim library links torch. */
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/lab/gnn_families.hpp"
#include "sim/lab/gnn_family_rows.hpp"
#include "sim/methods/method_registry.hpp"

namespace hulk {

/** @brief What the run draws, runs and writes. */
struct FamiliesRunOptions {
  FamilyOptions family;                 ///< paper_dir "" = the bundled scenarios/paper
  std::vector<std::string> families;    ///< family names, in printing order
  std::vector<std::string> rows;        ///< learned rows to run (selected_rows; empty = all)
  std::string model;                    ///< "" = the committed model
  std::string challenger;               ///< another model file, one more row ("" = none)
  std::string out;                      ///< per-scenario CSV, rewritten after each scenario ("" = none)
  std::uint64_t untrained_seed = 1;     ///< seed of the untrained rows' fresh weights
  /** @brief The method's budgets, for finding its cheapest configuration: every row that runs the scorer-guided
   *  annealing (its decoder does not turn it off) runs it with this many estimates; unset = the decoder's default. */
  std::optional<int> guided_anneal;
  /** @brief Every row that runs the blind annealing (its evaluations > 0) runs it with this many evaluations
   *  (0 = none: no annealing from the alternative start); unset = the method's default. */
  std::optional<int> blind_anneal;
  /** @brief Every row that decodes with greedy's placement as a candidate (not model-only) replaces the views by
   *  the scorer's walk of this many evaluated prefixes (SamplingOptions::walk_moves); unset = the views. */
  std::optional<int> walk_moves;
  /** @brief With walk_moves: the walk's answer's stage blocks, TP rings and DP rings reordered before its local
   *  search (SamplingOptions::walk_reorder). */
  bool walk_reorder = false;
  MethodOptions options;                ///< greedy's and the search's (budget)
  LearnedBackend learned;
};

/** @brief The families' figures, and the scenarios left out of them. */
struct FamiliesReport {
  std::vector<FamilyFigures> figures;   ///< one per family, in the options' order
  std::vector<std::string> failed;      ///< "FAMILY NAME: reason" of each scenario greedy or the search failed on
};

/** @brief Runs every family. A scenario on which greedy or the search fails is reported through `progress` and left
 *  out (one failure does not cost the whole run). `progress` gets one line per scenario; `on_family` each family's
 *  figures as it finishes. Deterministic but for the wall times.
 *  @throws InputError for a bad family, row or model before anything runs; Interrupted saying what was kept. */
FamiliesReport run_gnn_families(const FamiliesRunOptions& options,
                                const std::function<void(const std::string&)>& progress,
                                const std::function<void(const FamilyFigures&)>& on_family);

}  // namespace hulk
