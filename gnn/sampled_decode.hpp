#pragma once
/** @file sampled_decode.hpp
 *  @brief Sampling decoder: several valid placements from one set of GNN scores, the cheapest kept. Torch-free.
 *
 *  The GNN's per-host role probabilities are a distribution over placements, and near-equivalent placements
 *  (two regions equally good for a stage, interchangeable hosts) split its probability mass: the single argmax
 *  decode can mix them into something worse than either. As in sampling decoders of neural combinatorial
 *  optimisation (Kool et al. 2019, "Attention, learn to solve routing problems!"), we decode the argmax and
 *  candidates-1 perturbed copies of the scores (Gumbel noise, i.e. sampling from the softmax, at temperatures
 *  0.25x, 0.5x, 1x and 2x the given one in turn), and keep the candidate the cost function (the analytic
 *  evaluator in practice) ranks first. Every candidate is valid (decode_placement), so the answer is too.
 *  Deterministic for a seed. */
#include <cstdint>
#include <functional>
#include <limits>

#include "gnn/decode.hpp"
#include "sim/evaluate/estimate_trust.hpp"
#include "sim/place/fastest_candidate.hpp"

namespace hulk::gnn {

/** @brief Knobs of the sampling decoder. */
struct SamplingOptions {
  int candidates = 32;        ///< placements decoded: the argmax one plus candidates - 1 sampled ones (>= 1)
  /** @brief Cap on candidates x ranks (0 = none): each candidate costs a decode and an evaluation, both roughly
   *  linear in the job's ranks, so large jobs get fewer candidates (2,048: 32 candidates up to 64 ranks, 2 at
   *  1,024 ranks) and inference stays within its budget. Deterministic, unlike a wall-clock limit. */
  int rank_budget = 2048;
  double temperature = 1.0;   ///< base scale of the Gumbel noise added to the log-probabilities
  std::uint64_t seed = 1;     ///< noise seed (fixed: same scores, same answer)
  /** @brief GnnPlacer: greedy's own placement (the graph's reference) is one more candidate, judged by the same
   *  evaluator, so the answer is never slower than greedy by the evaluator. Off: an ablation. */
  bool greedy_candidate = true;
  /** @brief GnnPlacer: the greedy reference's residual prior is added to the model's logits (model.hpp). Off (an
   *  ablation, not how the model was trained): the prior is zero and the scores are the network's alone. */
  bool reference_prior = true;
  /** @brief GnnPlacer, with reference_prior: the scores are also computed a second time without the prior (the
   *  network's own view), and their decodes compete with the first view's; the polish follows the winning view's
   *  scores. Why: the prior holds every decode near greedy's placement, and on clusters where greedy is far from
   *  the search's answer the network's own scores can decode much nearer to it. Off: one view (an ablation). */
  bool prior_free_view = true;
  /** @brief GnnPlacer: evaluations of the score-guided host exchanges after the decoder (gnn/polish.hpp; 0 = none,
   *  an ablation), capped by polish_rank_budget / ranks as the candidates are by rank_budget. */
  int polish = 128;
  int polish_rank_budget = 8192;  ///< cap on polish evaluations x ranks (0 = none)
  /** @brief GnnPlacer: reorderings of the pipeline stages' GPU blocks tried before the polish
   *  (sim/place/stage_order.hpp), each one evaluation; 0 = none (an ablation). */
  int stage_orders = 6;
  /** @brief GnnPlacer: each TP group's ring re-chained over its GPUs after the stage reorderings
   *  (sim/place/tp_ring_order.hpp), one evaluation; false = not (an ablation). */
  bool tp_rings = true;
  /** @brief GnnPlacer, with greedy_candidate: on jobs of more than large_job_ranks ranks (0 = never) a placement
   *  other than greedy's is kept only if the evaluator finds it more than large_job_margin faster (estimated
   *  speedup > 1 + margin) and has no more TP groups across regions than greedy's (trusted_replacement), else
   *  greedy's is returned. Why: at that size the evaluator's error is of the order of
   *  the gains the decoder and the exchanges find, and acting on it made the `larger` family's held-out worst case
   *  well below greedy in SimGrid. Defaults: sim/evaluate/estimate_trust.hpp. */
  int large_job_ranks = kLargeJobRanks;
  /** @brief GnnPlacer, the model alone (candidates <= 1 and no greedy_candidate) with a model file that has a move
   *  scorer (gnn/move_model.hpp): greedy's placement improved by up to this many host exchanges the scorer ranks
   *  first, none of them evaluated (follow_learned_moves); 0 = the argmax decode of the role scores instead. */
  int learned_moves = 16;
  /** @brief How far (relative time) a move's score must be below the median score of its state's candidates for
   *  the policy to take it (learned_moves; follow_learned_moves). 0: the bound below decides. */
  double learned_move_margin = 0.0;
  /** @brief A move the policy takes must be predicted below this relative time change (follow_learned_moves'
   *  max_score; infinity = no bound). NaN (the default): the model file's bound (MoveScorerImpl::stop_bound), fitted
   *  on the training split's validation clusters (gnn/move_calibrate.hpp), 0 in a file without one. Why fitted: the
   *  scorer's predictions are biased slow, so the neutral bound 0 leaves the walk at greedy's placement on most
   *  clusters (docs/gnn.md). */
  double learned_move_max_score = std::numeric_limits<double>::quiet_NaN();
  /** @brief GnnPlacer with a move scorer: the polish tries its exchanges in the scorer's order instead of the
   *  role scores' (gnn/polish.hpp); false = the role scores' order (an ablation). */
  bool learned_ranking = true;
  /** @brief GnnPlacer with a move scorer and learned_ranking: each step of the polish tries only the scorer's
   *  first polish_top_k exchanges and the polish ends when none of them is faster (gnn/polish.hpp), so the
   *  exchanges' evaluations follow the scorer's ranking and a poor ranking stops early instead of trying every
   *  exchange blindly; 0 = the whole ranking (an ablation, `gnn families`' whole-ranking row). Why 4: on the
   *  steering families 2, 4 and 8 left the trained method's answers as with the whole ranking, and fresh weights
   *  lost about 1-2% (docs/gnn.md). */
  int polish_top_k = 4;
  double large_job_margin = kLargeJobMargin;  ///< see large_job_ranks
  /** @brief GnnPlacer: cost calls of the scorer-guided annealing over host exchanges after the views' answer
   *  (gnn/guided_anneal.hpp), capped by guided_rank_budget / ranks; 0 = none (an ablation). The gnn method then
   *  anneals blindly from the alternative start only (LearnedAnnealOptions::anneal_from_start), so the weights
   *  decide where the learned placement's annealing spends its evaluations (with fresh weights the same budget goes
   *  to worse exchanges; docs/gnn.md measures both). With a model file that has no move scorer the proposals are
   *  drawn uniformly. */
  int guided_anneal = 256;
  int guided_rank_budget = 16384;  ///< cap on guided_anneal x ranks (as the method's annealing, gnn_method.hpp)
  /** @brief No guided annealing on jobs of more ranks than this (as the method's blind annealing,
   *  kLearnedAnnealMaxRanks): above it the evaluations cost more than the rest of the placer. */
  int guided_max_ranks = 256;
  double guided_temperature = 0.02;  ///< the guided annealing's softmax temperature (relative time change)
  /** @brief GnnPlacer with a move scorer, greedy_candidate and candidates > 1: 0 = the views' decodes and their
   *  refinement (the default); N > 0 = in their place, the scorer's walk of N moves from greedy's placement (each
   *  the best-scored exchange not visited yet, no stopping bound), each of its N prefixes evaluated and the fastest
   *  kept (greedy's on ties), then the polish in the scorer's order from it (polish, polish_top_k: a learned local
   *  search), then the guided annealing. Why: a method shape whose estimates all go where the weights point, at a
   *  fraction of the views' decodes (docs/gnn.md measures its time and share). */
  int walk_moves = 0;
  /** @brief With walk_moves: the best prefix's stage blocks reordered, its TP rings re-chained (tp_rings) and its DP
   *  rings re-ordered, each kept if faster (as the views' refinement does), before the learned local search; false =
   *  not. Why: no exchange of hosts expresses these, and they cost a handful of estimates (docs/gnn.md measures
   *  them). */
  bool walk_reorder = false;
};

/** @brief Cost of a placement (lower is better; +infinity for an infeasible one), e.g. estimated seconds. */
using PlacementCost = std::function<double(const Placement&)>;

/** @brief What the sampling decoder chose. */
struct SampledPlacement {
  Placement placement;   ///< the cheapest candidate (ties: the earliest, so the argmax decode wins ties)
  double cost = 0;       ///< its cost
  int chosen = 0;        ///< its candidate index (0 = argmax decode, -1 = greedy's placement, GnnPlacer)
  int distinct = 0;      ///< distinct placements among the candidates (duplicates are not re-evaluated)
  int polished = 0;            ///< host exchanges the polish kept (gnn/polish.hpp)
  int polish_evaluations = 0;  ///< cost calls the polish made
  int reordered = 0;           ///< 1 if a stage reordering was kept (sim/place/stage_order.hpp), GnnPlacer
  int rechained = 0;           ///< 1 if the TP rings' re-chaining was kept (sim/place/tp_ring_order.hpp), GnnPlacer
};

/** @brief scores + temperature x Gumbel(0, 1) noise per (host, role). */
RoleScores perturb_scores(const RoleScores& scores, double temperature, std::uint64_t seed);

/** @brief Decodes options.candidates placements and returns the cheapest. With `bound` (a lower bound of the cost),
 *  a candidate whose bound shows it no cheaper than the best so far is not costed: the same answer, fewer calls.
 *  @throws InputError as decode_placement when no valid placement exists. */
SampledPlacement decode_best_of_samples(const Scenario& scenario, const RoleScores& scores,
                                        const SamplingOptions& options, const PlacementCost& cost,
                                        const PlacementBound& bound = {});

}  // namespace hulk::gnn
