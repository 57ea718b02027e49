#include "gnn/gnn_placer.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "gnn/dataset.hpp"
#include "gnn/model_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "gnn/guided_anneal.hpp"
#include "gnn/move_model.hpp"
#include "gnn/moves.hpp"
#include "gnn/polish.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/features/reference_graph.hpp"
#include "sim/place/fastest_candidate.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/replica_order.hpp"
#include "sim/place/stage_order.hpp"
#include "sim/place/tp_ring_order.hpp"

namespace hulk::gnn {

struct GnnPlacer::Impl {
  PlacementGnn model{nullptr};
  MoveScorer moves{nullptr};  ///< the model file's move scorer, if it has one
  std::mutex moves_mutex;     ///< the views' polishes run on two threads; the scorer's inference one at a time
  SamplingOptions sampling;
};

GnnPlacer::GnnPlacer(const std::string& model_path, SamplingOptions sampling) : impl_(std::make_unique<Impl>()) {
  impl_->model = load_model(model_path);
  impl_->moves = load_move_scorer(model_path);
  impl_->sampling = sampling;
}

GnnPlacer::~GnnPlacer() = default;
GnnPlacer::GnnPlacer(GnnPlacer&&) noexcept = default;
GnnPlacer& GnnPlacer::operator=(GnnPlacer&&) noexcept = default;

int GnnPlacer::max_stages() const { return impl_->model->config().p_max; }

RoleScores GnnPlacer::scores(const Scenario& scenario) {
  GraphOptions go;
  go.nearest_neighbours = impl_->model->config().nearest_neighbours;
  return predict_scores(impl_->model, build_reference_graph(scenario, go));
}

namespace {

/** One view of the model's scores and the sampling decoder's best placement over them. */
struct View {
  RoleScores scores;
  SampledPlacement decoded;
};

/** The cheap structured steps, each kept only if the evaluator finds it faster: stage reorderings of the pipeline's
 *  GPU blocks, the TP rings re-chained (SamplingOptions::tp_rings), the DP rings re-ordered. A handful of estimates
 *  each; no exchange of hosts (the decoder's and the walk's moves) reorders whole blocks, nor says in which order a TP
 *  group spanning hosts runs its ring. */
void reorder_blocks(const Scenario& scenario, const SamplingOptions& opt, SampledPlacement& best,
                    const PlacementCost& cost, const PlacementBound& bound, const RouteModel& network) {
  TimedPlacement ordered =
      fastest_stage_order(scenario, best.placement, best.cost, opt.stage_orders, cost, &network, bound);
  if (ordered.time_s < best.cost) {
    best.placement = std::move(ordered.placement);
    best.cost = ordered.time_s;
    best.reordered = 1;
  }
  if (opt.tp_rings) {
    TimedPlacement rechained = fastest_tp_ring_order(scenario, best.placement, best.cost, cost, &network);
    if (rechained.time_s < best.cost) {
      best.placement = std::move(rechained.placement);
      best.cost = rechained.time_s;
      best.rechained = 1;
    }
  }
  TimedPlacement rering = fastest_replica_order(scenario, best.placement, best.cost, cost, network, bound);
  if (rering.time_s < best.cost) {
    best.placement = std::move(rering.placement);
    best.cost = rering.time_s;
  }
}

/** The steps after the decoder, each keeping its start unless the evaluator finds a faster placement: greedy's
 *  placement as a candidate, stage reorderings, TP ring re-chaining, replica re-ordering and the score-guided
 *  exchanges (which follow the view's scores). */
struct Refinement {
  const Scenario& scenario;
  const SamplingOptions& opt;
  /** Greedy's placement with its DP rings re-ordered when that is faster (replica_order.hpp: whole replicas move,
   *  which neither the decoder's role counts nor the exchanges express); empty without greedy_candidate. The same
   *  for every view: computed once. */
  const TimedPlacement& greedy_candidate;
  const PlacementCost& cost;
  const PlacementBound& bound;
  const RouteModel& network;
  /** The learned move order of the exchanges (empty: the role scores' order). */
  const PairRanker& ranker;
  /** Exchanges tried per step of the polish (SamplingOptions::polish_top_k; with the learned ranker only). */
  int top_k;

  SampledPlacement operator()(View view) const {
    SampledPlacement best = std::move(view.decoded);
    // Strictly faster only: on a tie the model's decode stays (it is greedy's in most ties anyway).
    if (opt.greedy_candidate && greedy_candidate.time_s < best.cost) {
      if (greedy_candidate.placement.gpu_of_rank != best.placement.gpu_of_rank) ++best.distinct;
      best.placement = greedy_candidate.placement;
      best.cost = greedy_candidate.time_s;
      best.chosen = -1;
    }
    reorder_blocks(scenario, opt, best, cost, bound, network);
    return polish_placement(scenario, view.scores, std::move(best),
                            polish_budget(scenario, opt.polish, opt.polish_rank_budget), cost, bound, ranker,
                            ranker ? top_k : 0);
  }
};

/** The scores of the views to decode: the graph's and, with SamplingOptions::prior_free_view, the network's own
 *  without greedy's prior (a noise stream of their own). */
std::vector<RoleScores> view_scores(PlacementGnn& model, ClusterGraph& graph, RoleScores scores,
                                    const SamplingOptions& opt) {
  std::vector<RoleScores> views;
  views.push_back(std::move(scores));
  if (!opt.reference_prior || !opt.prior_free_view || graph.reference_counts.empty()) return views;
  graph.reference_counts.clear();  // zero prior (features.cpp): the network's own scores
  views.push_back(predict_scores(model, graph));
  return views;
}

/** Each view decoded and refined, the faster answer kept (the first view's on a tie). The second view's answer is
 *  left out when its decode places every rank on the same host as the first's (its refinement repeats the first's
 *  but for the polish's scores). The views are independent: one per core (parallel_tasks.hpp), each judged by an
 *  evaluator of its own (an evaluator's scratch is not shared between threads); the same answer on any number. */
SampledPlacement decode_and_refine_views(std::vector<RoleScores> views, const Evaluator& evaluator,
                                         const Scenario& scenario, const SamplingOptions& opt,
                                         const TimedPlacement& greedy_candidate, const PairRanker& ranker) {
  const int n = static_cast<int>(views.size());
  std::optional<Evaluator> second_judge;  // a copy: scratch of its own
  if (n > 1) second_judge.emplace(evaluator);
  std::vector<SampledPlacement> answers(n);
  std::vector<std::vector<int>> decoded_hosts(n);
  std::vector<int> decoded_distinct(n);
  std::vector<std::function<void()>> tasks;
  for (int v = 0; v < n; ++v)
    tasks.push_back([&, v]() {
      const Evaluator& judge = v == 0 ? evaluator : *second_judge;
      const PlacementCost cost = [&judge](const Placement& p) { return judge.iteration_time_s(p); };
      const PlacementBound bound = [&judge](const Placement& p) { return judge.time_lower_bound(p); };
      SamplingOptions own = opt;
      if (v > 0) own.seed = sample_seed(opt.seed, 0x0a11'0c0d'e5ULL);
      SampledPlacement decoded = decode_best_of_samples(scenario, views[v], own, cost, bound);
      decoded_hosts[v] = hosts_of(decoded.placement);
      decoded_distinct[v] = decoded.distinct;
      const Refinement refine{scenario, opt, greedy_candidate, cost, bound, judge.network(), ranker,
                              opt.polish_top_k};
      answers[v] = refine(View{std::move(views[v]), std::move(decoded)});
    });
  run_tasks(tasks);
  SampledPlacement out = std::move(answers[0]);
  if (n < 2) return out;
  // Every candidate either view costed is counted, as when the views ran one after the other.
  out.distinct += decoded_distinct[1];
  answers[1].distinct += decoded_distinct[0];
  if (decoded_hosts[1] != decoded_hosts[0] && answers[1].cost < out.cost) out = std::move(answers[1]);
  return out;
}

/** The scorer's walk of `moves` moves from greedy's placement (no stopping bound: the evaluator picks the prefix),
 *  each prefix evaluated unless the cost's lower bound shows it no faster than the best so far; the fastest kept,
 *  `start` (greedy's candidate) on ties. */
SampledPlacement best_walk_prefix(MoveScorer& scorer, const Scenario& scenario, const RouteModel& network,
                                  const Placement& greedy, const TimedPlacement& start, int moves,
                                  const PlacementCost& cost, const PlacementBound& bound) {
  SampledPlacement best;
  best.placement = start.placement;
  best.cost = start.time_s;
  best.chosen = -1;
  best.distinct = 1;
  std::vector<Placement> steps;
  follow_learned_moves(scorer, scenario, network, greedy, moves, -std::numeric_limits<double>::infinity(), &steps);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ++best.distinct;
    if (bound && cannot_beat(bound(steps[i]), best.cost)) continue;
    const double t = cost(steps[i]);
    if (t < best.cost) {
      best.placement = std::move(steps[i]);
      best.cost = t;
      best.chosen = static_cast<int>(i) + 1;
    }
  }
  return best;
}

/** The guided annealing's scorer (guided_anneal.hpp): a state's candidate exchanges and their predicted changes,
 *  all 0 without a move scorer (uniform proposals). The annealing comes back to states it left (an exchange undone,
 *  or two in either order): their candidates and scores are kept, not computed again (the scorer is deterministic:
 *  the same answers, fewer passes). */
ScoredExchanges remembering_scorer(MoveScorer& model, std::mutex& mutex, const Scenario& scenario,
                                   const RouteModel& network) {
  using Scored = std::pair<std::vector<std::pair<int, int>>, std::vector<double>>;
  auto scored = std::make_shared<std::map<std::vector<GpuSlot>, Scored>>();
  return [&model, &mutex, &scenario, &network, scored](const Placement& p) {
    if (const auto hit = scored->find(p.gpu_of_rank); hit != scored->end()) return hit->second;
    std::vector<std::pair<int, int>> moves = candidate_exchanges(scenario, p);
    std::vector<double> scores(moves.size(), 0.0);
    if (model) {
      const std::lock_guard<std::mutex> lock(mutex);
      scores = predict_moves(model, scenario, network, p, moves);
    }
    return scored->emplace(p.gpu_of_rank, Scored{std::move(moves), std::move(scores)}).first->second;
  };
}

/** The walk's answer improved by the polish in the scorer's order (polish.hpp with the learned ranker: each step
 *  evaluates the scorer's first polish_top_k exchanges and takes the first faster one, a learned local search), so
 *  the estimates after the walk also go where the weights point; `start` itself without a ranker or polish budget. */
SampledPlacement learned_local_search(SampledPlacement start, const Scenario& scenario, const SamplingOptions& opt,
                                      const PlacementCost& cost, const PlacementBound& bound,
                                      const PairRanker& ranker) {
  if (!ranker) return start;
  RoleScores unused;  // the ranker orders the exchanges: the role scores are not read, only their host count
  unused.hosts = static_cast<int>(scenario.platform.hosts.size());
  return polish_placement(scenario, unused, std::move(start),
                          polish_budget(scenario, opt.polish, opt.polish_rank_budget), cost, bound, ranker,
                          opt.polish_top_k);
}

/** Replaces @p out by greedy's placement for a large job (SamplingOptions::large_job_ranks) when its gain is within
 *  the evaluator's error at this size, or rests on TP rings over the WAN, where that error was not measured
 *  (estimate_trust.hpp). */
void keep_greedy_if_untrusted(const Scenario& scenario, const SamplingOptions& opt, const Placement& greedy,
                              double greedy_s, SampledPlacement& out) {
  const bool large = opt.large_job_ranks > 0 && scenario.only_job().par.ranks() > opt.large_job_ranks;
  if (!large || out.placement.gpu_of_rank == greedy.gpu_of_rank) return;
  if (out.cost * (1.0 + opt.large_job_margin) < greedy_s &&
      tp_groups_across_regions(scenario, out.placement) <= tp_groups_across_regions(scenario, greedy))
    return;
  out.placement = greedy;
  out.cost = greedy_s;
  out.chosen = -1;
  out.polished = 0;
  out.reordered = 0;
  out.rechained = 0;
}

}  // namespace

SampledPlacement GnnPlacer::place_with_details(const Scenario& scenario, const Placement* given_greedy) {
  if (names_jobs(scenario))  // its decoder, evaluator and exchanges are those of one job
    throw InputError(scenario.file, 0, "jobs",
                     "the learned placer places one job; several jobs are placed one after the other "
                     "(learned_jobs_placement, as the gnn method does)");
  const SamplingOptions& opt = impl_->sampling;
  GraphOptions go;
  go.nearest_neighbours = impl_->model->config().nearest_neighbours;
  // One route model for every step (at 1,024 hosts it costs more to build than a hundred evaluations).
  const hulk::Evaluator evaluator(scenario);
  const RouteModel& network = evaluator.network();
  // The greedy placement is computed once: the graph's reference (roles, estimated traffic, prior) and a candidate.
  if (given_greedy && static_cast<int>(given_greedy->gpu_of_rank.size()) != scenario.only_job().par.ranks())
    throw std::invalid_argument("GnnPlacer: the greedy placement given is of another job");
  const Placement greedy = given_greedy ? *given_greedy : GreedyPlacer::place_with(scenario, evaluator);
  ClusterGraph graph = build_reference_graph(scenario, go, greedy, &network);
  if (!opt.reference_prior) graph.reference_counts.clear();  // zero prior (features.cpp), roles stay node features
  if (opt.candidates <= 1 && !opt.greedy_candidate) {
    // The model alone, nothing evaluated: its learned moves from greedy's placement, or the argmax decode.
    SampledPlacement only;
    only.placement = impl_->moves && opt.learned_moves > 0
                         ? follow_learned_moves(impl_->moves, scenario, network, greedy, opt.learned_moves,
                                                opt.learned_move_margin, nullptr,
                                                std::isnan(opt.learned_move_max_score)
                                                    ? impl_->moves->stop_bound(scenario.platform.total_gpus())
                                                                                       : opt.learned_move_max_score)
                         : decode_placement(scenario, predict_scores(impl_->model, graph));
    only.distinct = 1;
    return only;
  }
  const bool walk = opt.walk_moves > 0 && impl_->moves && opt.greedy_candidate;
  RoleScores s = walk ? RoleScores{} : predict_scores(impl_->model, graph);
  PairRanker ranker;
  if (impl_->moves && opt.learned_ranking)
    ranker = [this, &scenario, &network](const Placement& p) {
      const std::lock_guard<std::mutex> lock(impl_->moves_mutex);
      return learned_exchange_order(impl_->moves, scenario, network, p);
    };
  const PlacementCost cost = [&evaluator](const Placement& p) { return evaluator.iteration_time_s(p); };
  // Candidates the evaluator's cheap bound shows no faster than the best so far are not evaluated (same answers).
  const PlacementBound bound = [&evaluator](const Placement& p) { return evaluator.time_lower_bound(p); };
  const double greedy_s = opt.greedy_candidate ? evaluator.iteration_time_s(greedy) : 0.0;
  const TimedPlacement greedy_candidate =
      opt.greedy_candidate ? fastest_replica_order(scenario, greedy, greedy_s, cost, network, bound) : TimedPlacement{};
  // Each view decoded and refined, the faster answer kept: the faster decode does not always refine to the faster
  // answer, so both are refined.
  SampledPlacement out;
  if (walk) {
    out = best_walk_prefix(impl_->moves, scenario, network, greedy, greedy_candidate, opt.walk_moves, cost, bound);
    if (opt.walk_reorder) reorder_blocks(scenario, opt, out, cost, bound, network);
    out = learned_local_search(std::move(out), scenario, opt, cost, bound, ranker);
  } else {
    out = decode_and_refine_views(view_scores(impl_->model, graph, std::move(s), opt), evaluator, scenario, opt,
                                  greedy_candidate, ranker);
  }
  if (opt.guided_anneal > 0 && scenario.only_job().par.ranks() <= opt.guided_max_ranks) {
    // The scorer decides where the annealing's evaluations go (guided_anneal.hpp); without one (a model file of
    // format 3) every exchange is as likely, so the method still anneals from its answer (the gnn method's blind
    // annealing starts from the alternative start only).
    const ScoredExchanges scorer = remembering_scorer(impl_->moves, impl_->moves_mutex, scenario, network);
    GuidedAnnealOptions guided;
    guided.evaluations = polish_budget(scenario, opt.guided_anneal, opt.guided_rank_budget);
    guided.temperature = opt.guided_temperature;
    guided.seed = sample_seed(opt.seed, 0x6a1d'ed0a'11eaULL);
    out = guided_anneal(scenario, std::move(out), guided, cost, bound, scorer);
  }
  if (opt.greedy_candidate) keep_greedy_if_untrusted(scenario, opt, greedy, greedy_s, out);
  return out;
}

Placement GnnPlacer::place(const Scenario& scenario) { return place_with_details(scenario).placement; }

Placement GnnPlacer::place_given_greedy(const Scenario& scenario, const Placement& greedy) {
  return place_with_details(scenario, &greedy).placement;
}

}  // namespace hulk::gnn
