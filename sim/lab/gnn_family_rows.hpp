#pragma once
/** @file gnn_family_rows.hpp
 *  @brief The learned rows of `hulk gnn families` (sim/lab/gnn_families_run.hpp): the gnn method and its ablations,
 *  each a model (trained, fresh weights or another file), the decoder's switches and the annealing after it. */
#include <optional>
#include <string>
#include <vector>

#include "sim/lab/learned_backend.hpp"
#include "sim/methods/gnn_method.hpp"

namespace hulk {

/** @brief A learned row: which model and which decoder, and the gnn method's annealing after the placer. */
struct LearnedRow {
  std::string name;
  bool untrained = false;       ///< fresh weights (the run's untrained model) in place of the model file
  LearnedDecoder decoder;
  std::string model;            ///< "" = the run's model file
  /** @brief The annealing after the placer (gnn_method.hpp); its stage_orders and tp_rings follow the decoder's
   *  when set there. */
  LearnedAnnealOptions anneal;
};

/** @brief Every learned row in the table's order: gnn first, its ablations, then (with a challenger model file) the
 *  challenger, gnn's decoder on that file. */
std::vector<LearnedRow> learned_rows(const std::string& challenger);

/** @brief The rows named in `wanted` (in the table's order; empty = all), and the challenger when there is one. The
 *  first stays `gnn`: the figures and the evaluator's error are of the first row.
 *  @throws InputError (key --rows) for an unknown name or no gnn. */
std::vector<LearnedRow> selected_rows(const std::vector<LearnedRow>& all, const std::vector<std::string>& wanted);

/** @brief The rows with the method's budgets changed: each row whose decoder runs the guided annealing (not set to
 *  0) gets `guided_anneal` estimates of it, each row that runs the blind annealing (evaluations > 0) gets
 *  `blind_anneal` evaluations of it; an unset budget leaves the rows' own. So the method and its untrained copy
 *  are measured at a cheaper (or dearer) configuration, the equal-budget row following the gnn row's estimates. */
std::vector<LearnedRow> with_budgets(std::vector<LearnedRow> rows, const std::optional<int>& guided_anneal,
                                     const std::optional<int>& blind_anneal);

/** @brief The rows with the scorer's walk in place of the views (SamplingOptions::walk_moves = walk_moves) in each
 *  row whose decoder keeps greedy's placement as a candidate (not the model-only rows), with `reorder` its answer's
 *  stage, TP ring and DP ring reorderings too (SamplingOptions::walk_reorder); unset: the rows as they are. */
std::vector<LearnedRow> with_walk(std::vector<LearnedRow> rows, const std::optional<int>& walk_moves,
                                  bool reorder = false);

/** @brief The annealing a row runs after its placer: its own, with the decoder's stage_orders and tp_rings. */
LearnedAnnealOptions row_anneal(const LearnedRow& row);

}  // namespace hulk
