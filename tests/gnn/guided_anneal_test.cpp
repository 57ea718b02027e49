// The annealing whose proposals the move scorer draws (gnn/guided_anneal.hpp). Torch-free: scorers made of the
// evaluator's own times stand in for the network.
#include <gtest/gtest.h>

#include <cmath>

#include "gnn/guided_anneal.hpp"
#include "gnn/moves.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/random_placer.hpp"

namespace hulk::gnn {
namespace {

/** A scorer that knows each exchange's true relative time change (sign +1) or its opposite (sign -1). */
ScoredExchanges oracle(const Scenario& s, const Evaluator& ev, double sign) {
  return [&s, &ev, sign](const Placement& p) {
    std::vector<std::pair<int, int>> moves = candidate_exchanges(s, p);
    std::vector<double> scores;
    const double before = ev.iteration_time_s(p);
    for (const auto& [a, b] : moves) {
      Placement q = p;
      exchange_hosts(s, q, a, b);
      scores.push_back(sign * move_label(before, ev.iteration_time_s(q)));
    }
    return std::make_pair(std::move(moves), std::move(scores));
  };
}

SampledPlacement random_start(const Scenario& s, const Evaluator& ev, std::uint64_t seed) {
  SampledPlacement st;
  st.placement = RandomPlacer(seed).place(s);
  st.cost = ev.iteration_time_s(st.placement);
  return st;
}

TEST(GuidedAnneal, ValidNeverWorseWithinBudgetAndDeterministic) {
  SamplerOptions o;
  o.max_total_gpus = 32;
  int improved = 0;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    int calls = 0;
    const PlacementCost cost = [&](const Placement& p) { return ++calls, ev.iteration_time_s(p); };
    const PlacementBound bound = [&ev](const Placement& p) { return ev.time_lower_bound(p); };
    const SampledPlacement start = random_start(s, ev, seed);
    GuidedAnnealOptions opt;
    opt.evaluations = 20;
    opt.seed = seed;
    GuidedAnnealStats stats;
    const SampledPlacement got = guided_anneal(s, start, opt, cost, bound, oracle(s, ev, 1), &stats);
    EXPECT_EQ(placement_violation(s, got.placement), "") << seed;
    EXPECT_LE(got.cost, start.cost) << seed;
    EXPECT_DOUBLE_EQ(got.cost, ev.iteration_time_s(got.placement)) << seed;
    EXPECT_LE(calls, 20) << seed;
    EXPECT_EQ(calls, stats.evaluations) << seed;
    improved += got.cost < start.cost;
    const SampledPlacement again = guided_anneal(s, start, opt, cost, bound, oracle(s, ev, 1));
    EXPECT_EQ(again.placement.gpu_of_rank, got.placement.gpu_of_rank) << seed;
    opt.evaluations = 0;
    calls = 0;
    const SampledPlacement none = guided_anneal(s, start, opt, cost, bound, oracle(s, ev, 1));
    EXPECT_EQ(none.placement.gpu_of_rank, start.placement.gpu_of_rank);
    EXPECT_EQ(calls, 0);
  }
  EXPECT_GT(improved, 0);  // random placements are poor: an exchange helps somewhere
}

TEST(GuidedAnneal, AScorerThatRanksWellSpendsTheSameBudgetBetter) {
  // The same budget of cost calls from greedy's placement, the proposals drawn by a scorer that knows the exchanges'
  // time changes or by one that ranks them backwards: over sampled clusters the first ends faster in all.
  SamplerOptions o;
  o.max_total_gpus = 64;
  double log_good = 0, log_poor = 0;
  for (std::uint64_t seed = 40; seed < 64; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const PlacementCost cost = [&ev](const Placement& p) { return ev.iteration_time_s(p); };
    SampledPlacement start;
    start.placement = GreedyPlacer().place(s);
    start.cost = cost(start.placement);
    GuidedAnnealOptions opt;
    opt.evaluations = 8;
    opt.seed = seed;
    log_good += std::log(start.cost / guided_anneal(s, start, opt, cost, {}, oracle(s, ev, 1)).cost);
    log_poor += std::log(start.cost / guided_anneal(s, start, opt, cost, {}, oracle(s, ev, -1)).cost);
  }
  EXPECT_GT(log_good, log_poor);
}

}  // namespace
}  // namespace hulk::gnn
