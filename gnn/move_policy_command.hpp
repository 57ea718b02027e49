#pragma once
/** @file move_policy_command.hpp
 *  @brief Torch-free entry point of `hulk gnn move-policy`: how model-only's walk (follow_learned_moves) does on the
 *  held-out clusters of a move data set, for several stopping margins and walk lengths, measured by the analytic
 *  evaluator. What the policy's constants (SamplingOptions::learned_moves, learned_move_margin) are chosen on.
 *
 *  The held-out clusters are those train-moves validates on for the same --seed and validation share
 *  (held_out_move_sample), so the rules are compared on clusters the scorer was not trained on. For each cluster:
 *  greedy's placement (the walk's start), then the walk of each margin; after k moves (k = 1, 2, 4, ..., max) the
 *  placement is evaluated. The evaluator is called here to MEASURE the rules; the walk itself calls none. */
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

namespace hulk::gnn {

/** @brief The arguments of `hulk gnn move-policy`. */
struct MovePolicyCommand {
  std::vector<std::string> data_dirs;  ///< move data sets (hulk gnn gen-moves), loaded in order
  bool allow_partial = false;          ///< use the samples present
  std::string model;                   ///< model file with a move scorer
  std::uint64_t seed = 1;              ///< train-moves' seed: selects the held-out clusters
  double val_fraction = 0.1;           ///< train-moves' held-out share
  int max_moves = 16;                  ///< longest walk measured
  std::vector<double> margins{-1.0, 0.0, 0.02, 0.05, 0.1, 0.15};  ///< learned_move_margin values compared
  /** @brief learned_move_max_score values compared (each with every margin); infinity = no bound. */
  std::vector<double> max_scores{std::numeric_limits<double>::infinity()};
};

/** @brief One rule's result over the held-out clusters. */
struct MovePolicyRow {
  double margin = 0;
  double max_score = 0;          ///< the rule's bound on the taken move's predicted change
  int max_moves = 0;
  double geomean_vs_greedy = 0;  ///< geometric mean of t_greedy / t_walk (> 1: the walk is faster)
  double worst_vs_greedy = 0;    ///< smallest t_greedy / t_walk
  double improved_share = 0;     ///< share of clusters where the walk is faster than greedy
  double mean_moves = 0;         ///< moves taken, mean over clusters
};

/** @brief The report: the rules, and what the scorer predicts from greedy's placement (its bias). */
struct MovePolicyReport {
  int clusters = 0;
  double greedy_top_predicted = 0;     ///< mean predicted relative change of greedy's top-ranked move
  double greedy_median_predicted = 0;  ///< mean of the median prediction over greedy's candidate moves
  double greedy_top_actual = 0;        ///< mean evaluated relative change of greedy's top-ranked move
  /** @brief Share of the clusters whose first state (greedy's placement in gen-moves' data) has a labelled move
   *  that is faster (label < 0): where one host exchange can beat greedy at all. */
  double greedy_improvable = 0;
  /** @brief Geometric mean of t_greedy / t after the best labelled move of the first state, or none if no move is
   *  faster: what a one-move policy that always knew the best move would reach. */
  double greedy_one_move_oracle = 0;
  std::vector<MovePolicyRow> rows;     ///< by margin, then max_score, then walk length
};

/** @brief Whether sample `index` is held out of training by train-moves of this seed and validation share. */
bool held_out_move_sample(std::uint64_t seed, int index, double val_fraction);

/** @brief Measures the rules. @throws InputError for a bad data set, no held-out cluster, or a model file without a
 *  move scorer. */
MovePolicyReport report_move_policy(const MovePolicyCommand& command, std::ostream* progress);

}  // namespace hulk::gnn
