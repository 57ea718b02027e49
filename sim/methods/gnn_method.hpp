#pragma once
/** @file gnn_method.hpp
 *  @brief gnn and gnn+refine: the learned placer in its own child process, then (refine) a short annealing run from
 *  its answer, SimGrid choosing between the two. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/methods/method_registry.hpp"

namespace hulk {

/** @brief Evaluations of the short annealing run after the learned placer (about 1% of the search's default budget,
 *  so the method stays two orders of magnitude faster than the search). */
constexpr int kLearnedAnnealEvaluations = 256;
/** @brief Cap on the annealing run's evaluations x ranks: an evaluation costs roughly linear in the job's ranks, so
 *  jobs above 64 ranks get fewer (128 at 128 ranks, 64 at 256), as the decoder's candidates and exchanges are capped
 *  (gnn/sampled_decode.hpp). Why: at 256 evaluations a 128-256-GPU placement takes over a second, and the method is
 *  meant to be far faster than the search. */
constexpr int kLearnedAnnealRankBudget = 16384;
/** @brief Largest job (ranks) that gets the annealing run; above kLargeJobRanks (sim/evaluate/estimate_trust.hpp)
 *  its answer replaces the start only if estimated more than kLargeJobMargin faster (an annealing keeps the
 *  placements the evaluator overrates most). Above 256 ranks its evaluations cost more than the rest of the method
 *  (a few hundred evaluations per second at 1,024 GPUs, hulk bench). */
constexpr int kLearnedAnnealMaxRanks = 256;

/** @brief Further annealing runs, each from the previous run's answer, while the last one found it at least
 *  kLearnedAnnealRerunGain faster than its start (at most this many more): a large gain in a run of ~1% of the
 *  search's budget says placement matters on this cluster and more was left to find (where the search is several
 *  times faster than greedy, one short run gets only part of the way). Clusters where the first run finds little
 *  cost what they did. */
constexpr int kLearnedAnnealReruns = 3;
/** @brief Estimated gain of a run (start time / answer time - 1) that earns another run (kLearnedAnnealReruns). */
constexpr double kLearnedAnnealRerunGain = 0.05;
/** @brief Stage reorderings (sim/place/stage_order.hpp) tried after the annealing run, one evaluation each. */
constexpr int kLearnedStageOrders = 6;

/** @brief How anneal_learned_placement runs (the gnn method's defaults; gnn-families turns parts off as ablations). */
struct LearnedAnnealOptions {
  int evaluations = kLearnedAnnealEvaluations;  ///< the first run's budget (<= 0: no annealing, the start returned)
  int stage_orders = kLearnedStageOrders;       ///< stage reorderings tried after the runs (and of the DP clusters)
  bool tp_rings = true;                         ///< re-chain the TP rings after the runs
  int reruns = kLearnedAnnealReruns;            ///< further runs while a run gains kLearnedAnnealRerunGain
  bool alternative_starts = true;  ///< anneal from the fastest alternative start too when it is faster (trusted)
  bool replica_order = true;       ///< re-order the answer's DP replicas last (sim/place/replica_order.hpp)
  /** @brief Anneal from the fastest alternative start also when it is slower than the learned placement (one run,
   *  no reruns), the faster answer kept. Off in the gnn method; `gnn families` measures it as the `alt-always` row
   *  (it closes more of greedy's gap on large clusters, at more placement time, and can lose a little on small ones). */
  bool anneal_slower_alternative = false;
  /** @brief Anneal from the learned placement (its runs and reruns). False: the learned placement is only reordered
   *  (stages, TP rings, replicas) and the alternative start's branch still anneals blindly: for a learned placer
   *  that spent this budget on an annealing of its own (gnn/guided_anneal.hpp, the move scorer drawing its
   *  proposals), whose answer the blind runs would otherwise rework. One job: several jobs keep their joint
   *  annealing (it moves GPUs between the jobs' shares, which no placement of one job does). */
  bool anneal_from_start = true;
};

/** @brief The short annealing runs from a learned placement of one job: options.evaluations of the search's moves
 *  (at most kLearnedAnnealRankBudget / ranks, search_placer.hpp), the evaluator judging, no SimGrid, the search's
 *  own seed; up to options.reruns further runs (as many evaluations each), each from the last one's answer, while
 *  the last gained more than kLearnedAnnealRerunGain; then up to stage_orders reorderings of the answer's stage blocks (the
 *  annealing changes blocks, rarely their order), with tp_rings, its TP rings re-chained
 *  (sim/place/tp_ring_order.hpp: swaps rarely find a better ring) and, with replica_order, its DP replicas
 *  re-ordered (sim/place/replica_order.hpp: whole replicas, which the swaps rarely move). With options.alternative_starts, the same again
 *  from the fastest alternative start (sim/place/alternative_starts.hpp: DP-cluster placements, each with up to
 *  stage_orders reorderings of its stages, and greedy on the fastest hosts) when that is faster than the learned
 *  placement by a gain trusted_gain() accepts for the job's size, the faster of the two answers kept (the learned
 *  one's on ties): never slower by the evaluator than without. The best placement seen, the start included, so
 *  never slower than the start by the evaluator (on large jobs: the start unless trusted_gain). The start itself
 *  when evaluations <= 0 or when the job has more than kLearnedAnnealMaxRanks ranks. Several jobs: the joint
 *  annealing of the search (jobs_search.hpp: moves GPUs between the jobs' shares as well as inside each job) with
 *  the same budget (ranks: all jobs'), reruns and trust rule, judged by JobsEvaluator::objective_s; no alternative
 *  starts, stage reorderings or re-chaining (they are of one job); its answer only if strictly better than the
 *  start by that objective; then round-robin's placement of the jobs if that is faster still, as the greedy method
 *  keeps it (faster_round_robin_jobs, also without the annealing). Deterministic. */
Placement anneal_learned_placement(const Scenario& scenario, const Placement& start,
                                   const LearnedAnnealOptions& options);

/** @brief The gnn method's options of anneal_learned_placement: its learned placer (gnn/gnn_placer.hpp) anneals
 *  from its own answer with the move scorer drawing the proposals (SamplingOptions::guided_anneal), so the blind
 *  runs start from the alternative start only (anneal_from_start false); the rest as LearnedAnnealOptions{}. */
LearnedAnnealOptions gnn_method_anneal_options();

/** @brief anneal_learned_placement with LearnedAnnealOptions{} (the blind runs from `start` too) and a first run of
 *  `evaluations`. */
Placement anneal_learned_placement(const Scenario& scenario, const Placement& start, int evaluations);

/** @brief Several jobs, in this process: the learned placer places job after job in the job order whose greedy
 *  placement the evaluator finds best, each on the GPUs the jobs before it left. With keep_greedy (the method's
 *  behaviour) the better by the several-job evaluator of that and the greedy placement in that order is kept;
 *  without (an ablation), greedy's only when a job is left no share that fits its memory. The gnn method then runs
 *  the joint annealing (anneal_learned_placement): where the jobs' shares matter, the search finds clusters several
 *  times faster than greedy's placement, which job-by-job placement alone keeps. */
Placement learned_jobs_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                                 bool keep_greedy = true);

/** @brief The learned placement the annealing run starts from: learned_jobs_placement (with keep_greedy) for more
 *  than one job, else `learned`'s answer for the one job (a `jobs:` list of one as if written with `job:`). */
Placement learned_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                            bool keep_greedy = true);

/** @brief Places with the GNN model at model_path (several jobs: learned_jobs_placement), then the short annealing
 *  run (anneal_learned_placement); a DiLoCo job islands first (sim/place/island_first.hpp), both on each island; with refine, a longer local search follows, SimGrid deciding (budget
 *  evaluations, 0 = default). @throws InputError for a missing/corrupt/incompatible model file. */
Placement gnn_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                        bool refine, long budget);

}  // namespace hulk
