#include "sim/methods/gnn_method.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "sim/core/jobs.hpp"
#include "sim/core/parallel_tasks.hpp"
#include "sim/core/seeding.hpp"
#include "sim/engine/isolated_run.hpp"
#include "sim/place/alternative_starts.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/island_first.hpp"
#include "sim/evaluate/estimate_trust.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/jobs_placement.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/place/replica_order.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/place/stage_order.hpp"
#include "sim/place/tp_ring_order.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {

/* Several jobs: the one model places job after job, in the job order whose greedy placement the evaluator finds
 *  best (best_greedy_jobs_placement, which includes greedy's own), each job on the share of the GPUs the jobs before
 *  it left (gpu_share.hpp), so every job's placement is valid by construction and the jobs' GPUs are disjoint. As
 *  the one-job decoder keeps the best of its decoded placements by the evaluator, the answer is the better by the
 *  evaluator of the model's and that greedy placement; greedy's too when the model's choice leaves a later job no
 *  share that fits its memory. */
Placement learned_jobs_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                                 bool keep_greedy) {
  const JobsEvaluator ev(scenario);
  std::vector<int> order;
  // Every job order (up to 4 jobs: 48 greedy runs, most of the placement time). With greedy's two heuristic orders
  // only, the jobs-eval set lost a fifth of the gain (1.26x greedy instead of 1.50x), and on a cluster where neither
  // order fits without reserving GPUs the fallback was the reserving greedy, 6x slower than greedy's own placement
  // (which found another order).
  GreedyShareCache greedy_shares;
  const Placement greedy = best_greedy_jobs_placement(scenario, ev, &order, &greedy_shares);
  std::vector<Placement> per_job(scenario.jobs.size());
  std::vector<GpuSlot> used;
  for (int j : order) {
    const std::vector<GpuSlot> free = free_gpus(scenario.platform, used);
    if (!job_fits_gpus(scenario, j, free)) return greedy;
    const GpuShare share = make_gpu_share(scenario, j, free);
    // Greedy's placement of the job on its share, the learned placer's reference: one of the runs above when the
    // jobs before it took the GPUs greedy gave them in some order (the first job always), else computed here.
    const Placement share_greedy = share.to_share(greedy_shares.place(scenario, j, free));
    per_job[j] = share.to_original(learned(share.scenario, model_path, &share_greedy));
    used.insert(used.end(), per_job[j].gpu_of_rank.begin(), per_job[j].gpu_of_rank.end());
  }
  const Placement model = concat_placements(per_job);
  if (!keep_greedy) return model;
  return ev.objective_s(model) <= ev.objective_s(greedy) ? model : greedy;
}

namespace {

/** The annealing run and its reruns (anneal_learned_placement) from `start` (of cost start_s), judged by `cost`;
 *  returns the last run's answer and its cost. Each run's answer is the best it saw, its start included
 *  (search_placer.hpp, jobs_search.hpp). */
std::pair<Placement, double> annealing_runs(const Scenario& scenario, const Placement& start, double start_s,
                                            int evaluations, int reruns,
                                            const std::function<double(const Placement&)>& cost) {
  SearchOptions search;
  search.max_evaluations = evaluations;
  search.start = start;  // seed: the search's own, component_seed(scenario.seed, "search")
  // A large job's answer is trusted only with no more TP groups across regions than its start (estimate_trust.hpp):
  // the runs do not propose others, so they look for a gain where it can be kept.
  if (job_count(scenario) == 1 && total_ranks(scenario) > kLargeJobRanks)
    search.max_tp_groups_across_regions = tp_groups_across_regions(scenario, start);
  Placement annealed = SearchPlacer(search).place(scenario);
  double annealed_s = cost(annealed);
  for (int rerun = 1; rerun <= reruns && start_s > annealed_s * (1.0 + kLearnedAnnealRerunGain); ++rerun) {
    search.start = annealed;
    search.seed = component_seed(scenario.seed, "learned-anneal-rerun-" + std::to_string(rerun));
    start_s = annealed_s;
    annealed = SearchPlacer(search).place(scenario);
    annealed_s = cost(annealed);
  }
  return {std::move(annealed), annealed_s};
}

/** Several jobs: the joint annealing (jobs_search.hpp) from the learned placement, by the jobs' objective (none with
 *  evaluations <= 0); then round-robin's placement if faster, as greedy keeps it (faster_round_robin_jobs): last, not
 *  as the start, since a run from the learned placement can end faster than one from round-robin's (an outside
 *  probe's three-job cluster: 5.60 s against 7.56 s in SimGrid, round-robin 10.89 s). */
Placement anneal_learned_jobs_placement(const Scenario& scenario, const Placement& start, int evaluations,
                                        int reruns) {
  const int ranks = total_ranks(scenario);
  const JobsEvaluator ev(scenario);
  const auto objective_s = [&ev](const Placement& p) { return ev.objective_s(p); };
  const double start_s = ev.objective_s(start);
  Placement answer = start;
  double answer_s = start_s;
  if (evaluations > 0) {
    auto [annealed, annealed_s] = annealing_runs(scenario, start, start_s, evaluations, reruns, objective_s);
    if (annealed.gpu_of_rank != start.gpu_of_rank && annealed_s < start_s &&
        (ranks <= kLargeJobRanks || trusted_replacement(scenario, annealed, annealed_s, start, start_s))) {
      answer = std::move(annealed);
      answer_s = annealed_s;
    }
  }
  if (std::optional<Placement> round_robin = faster_round_robin_jobs(scenario, ev, answer_s)) return *round_robin;
  return answer;
}

/** The fastest alternative start (alternative_starts.hpp: a DP-cluster placement with its stages reordered as the
 *  annealing's answer is, or greedy on the fastest hosts) when it is faster than `start` (of time start_s) by a gain
 *  the job's size trusts, or with even_slower whatever its time; else an empty placement. */
TimedPlacement faster_alternative_start(const Evaluator& ev, const Placement& start, double start_s,
                                        int stage_orders, bool even_slower = false) {
  const double beat = even_slower ? std::numeric_limits<double>::infinity() : start_s;
  AlternativeStart other = fastest_alternative_start(ev, stage_orders, beat);
  if (even_slower && !other.timed.placement.gpu_of_rank.empty()) return other.timed;
  if (other.timed.time_s < start_s &&
      trusted_replacement(ev.scenario(), other.timed.placement, other.timed.time_s, start, start_s))
    return other.timed;
  return {Placement{}, start_s};
}

}  // namespace

LearnedAnnealOptions gnn_method_anneal_options() {
  LearnedAnnealOptions options;
  options.anneal_from_start = false;
  return options;
}

Placement anneal_learned_placement(const Scenario& scenario, const Placement& start, int evaluations) {
  LearnedAnnealOptions options;
  options.evaluations = evaluations;
  return anneal_learned_placement(scenario, start, options);
}

Placement anneal_learned_placement(const Scenario& scenario, const Placement& start,
                                   const LearnedAnnealOptions& options) {
  const int evaluations = options.evaluations, stage_orders = options.stage_orders, reruns = options.reruns;
  const int ranks = static_cast<int>(start.gpu_of_rank.size());
  const bool anneal = evaluations > 0 && ranks <= kLearnedAnnealMaxRanks;
  const int budget = std::min(evaluations, std::max(1, kLearnedAnnealRankBudget / std::max(1, ranks)));
  if (job_count(scenario) > 1) return anneal_learned_jobs_placement(scenario, start, anneal ? budget : 0, reruns);
  if (!anneal) return start;
  const Evaluator ev(scenario);
  const double start_s = ev.iteration_time_s(start);
  // The runs' answer with its stage blocks reordered (the annealing changes blocks, rarely their order) and, with
  // tp_rings, its TP rings re-chained; judged by `judge` (an evaluator of the calling branch's own: its scratch is
  // not shared between threads).
  const auto runs_from = [&](const Evaluator& judge, const Placement& from, double from_s, int up_to_reruns,
                             bool runs = true) {
    const auto time_s = [&judge](const Placement& p) { return judge.iteration_time_s(p); };
    auto [annealed, annealed_s] = runs ? annealing_runs(scenario, from, from_s, budget, up_to_reruns, time_s)
                                       : std::make_pair(from, from_s);
    TimedPlacement out = fastest_stage_order(scenario, annealed, annealed_s, stage_orders, time_s, &judge.network(),
                                             [&judge](const Placement& p) { return judge.time_lower_bound(p); });
    if (options.tp_rings) out = fastest_tp_ring_order(scenario, out.placement, out.time_s, time_s, &judge.network());
    if (options.replica_order)
      out = fastest_replica_order(scenario, out.placement, out.time_s, time_s, judge.network(),
                                  [&judge](const Placement& p) { return judge.time_lower_bound(p); });
    return out;
  };
  // From a faster alternative start too, the faster answer kept (the learned one on ties), so never slower than
  // without it. Only replacing the start by it cost as often as it gained: a better start can still end in a slower
  // valley.
  // The two branches are independent: one per core (parallel_tasks.hpp), the same answers on any number.
  TimedPlacement ordered, alt;
  std::vector<std::function<void()>> branches{[&]() {
    ordered = runs_from(ev, start, start_s, reruns, options.anneal_from_start);
  }};
  if (options.alternative_starts)
    branches.push_back([&]() {
      const Evaluator own(scenario, ev.shared_network());
      const TimedPlacement other =
          faster_alternative_start(own, start, start_s, stage_orders, options.anneal_slower_alternative);
      // A slower start gets one run, no reruns (options.anneal_slower_alternative): most of its gain, less time.
      if (!other.placement.gpu_of_rank.empty())
        alt = runs_from(own, other.placement, other.time_s, other.time_s >= start_s ? 0 : reruns);
    });
  run_tasks(branches);
  // The faster branch's answer (the learned one on ties) if the job's size trusts it over the start, else the other
  // branch's if trusted: an untrusted faster answer from the alternative start does not discard a trusted one.
  const auto trusted = [&](const TimedPlacement& answer) {
    if (answer.placement.gpu_of_rank.empty()) return false;
    return ranks <= kLargeJobRanks || answer.placement.gpu_of_rank == start.gpu_of_rank ||
           trusted_replacement(scenario, answer.placement, answer.time_s, start, start_s);
  };
  const bool alt_first = !alt.placement.gpu_of_rank.empty() && alt.time_s < ordered.time_s;
  for (const TimedPlacement* answer : {alt_first ? &alt : &ordered, alt_first ? &ordered : &alt})
    if (trusted(*answer)) return answer->placement;  // never slower than the start
  return start;
}

Placement learned_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                            bool keep_greedy) {
  // A `jobs:` list of one is one job: the learned placer gets it as written with `job:` (job_view).
  return job_count(scenario) > 1 ? learned_jobs_placement(scenario, model_path, learned, keep_greedy)
                                 : learned(job_view(scenario, 0), model_path, nullptr);
}

namespace {

/** Where the evaluator's estimates are not checked (estimates_checked), SimGrid decides between the gnn's placement
 *  and greedy's: two simulations, in this process's children (the GNN's inference ran in a child of its own). */
Placement simgrid_choice_with_greedy(const Scenario& scenario, const Placement& placement) {
  Placement greedy;
  try {
    greedy = GreedyPlacer().place(scenario);
  } catch (const InputError&) {
    return placement;  // greedy cannot place this job: nothing to compare with
  }
  if (greedy.gpu_of_rank == placement.gpu_of_rank) return placement;
  return simulated_iteration_time_s(scenario, greedy) < simulated_iteration_time_s(scenario, placement) ? greedy
                                                                                                      : placement;
}

}  // namespace

Placement gnn_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                        bool refine, long budget) {
  // Torch must never run in a process that forks afterwards (the refinement's SimGrid checks fork): the GNN
  // inference (with its estimated reference traffic and sampling decoder) runs in its own child.
  nlohmann::json answer = run_in_child([&]() {
    // DiLoCo: islands first (island_first.hpp), the GNN and its annealing run placing each island as a one-job
    // every-step problem on its group's GPUs.
    if (runs_diloco(scenario))
      if (const std::optional<Placement> islands = island_first_placement(scenario, [&](const Scenario& island) {
            // The blind runs from the learned placement too: the island wiring was measured with them (the placer's
            // guided annealing, when it has one, runs first).
            return anneal_learned_placement(island, learned(island, model_path, nullptr), kLearnedAnnealEvaluations);
          }))
        return placement_slots_to_json(*islands);
    const Placement placed = learned_placement(scenario, model_path, learned);
    return placement_slots_to_json(anneal_learned_placement(scenario, placed, gnn_method_anneal_options()));
  });
  Placement placement = placement_slots_from_json(answer, "<gnn>", "placement");
  if (!estimates_checked(scenario)) placement = simgrid_choice_with_greedy(scenario, placement);
  if (!refine) return placement;
  // gnn+refine: a short annealing run from the GNN's answer; SimGrid decides between the two.
  SearchOptions options;
  options.max_evaluations = budget > 0 ? budget : 2000;  // 10x below search's default budget
  options.start = placement;
  const Placement refined = SearchPlacer(options).place(scenario);
  if (refined.gpu_of_rank == placement.gpu_of_rank) return placement;
  return simulated_iteration_time_s(scenario, refined) <= simulated_iteration_time_s(scenario, placement) ? refined
                                                                                                           : placement;
}

}  // namespace hulk
