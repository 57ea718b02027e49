// The learned placer with SamplingOptions::walk_moves: the move scorer's walk from greedy's placement, its prefixes
// evaluated, the fastest kept. No SimGrid runs here.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "gnn/gnn_placer.hpp"
#include "gnn/model_file.hpp"
#include "gnn/move_model.hpp"
#include "gnn/polish.hpp"
#include "gnn/sampled_decode.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/lab/gnn_family_rows.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"
#include "sim/place/replica_order.hpp"
#include "sim/place/stage_order.hpp"
#include "sim/place/tp_ring_order.hpp"
#include "sim/scenario/catalog.hpp"

namespace hulk::gnn {
namespace {

/** The walk's prefixes alone: no local search, no annealing. */
SamplingOptions prefixes_only(int moves) {
  SamplingOptions o;
  o.walk_moves = moves;
  o.guided_anneal = 0;
  o.polish = 0;
  return o;
}

/** The in-family draw: every catalogue GPU, at most 64 GPUs. */
SamplerOptions in_family_draw() {
  SamplerOptions o;
  o.gpu_types = GpuCatalog::builtin().all();
  o.max_total_gpus = 64;
  return o;
}

TEST(WalkPrefixes, KeepsTheFastestPrefixOrGreedyAndIsDeterministic) {
  // The committed model's move scorer walks 8 moves from greedy's placement (no bound); the answer must be the
  // fastest of greedy's candidate and the walk's prefixes by the evaluator, recomputed here from the same walk.
  const SamplingOptions walk = prefixes_only(8);
  GnnPlacer placer(default_model_path(), walk);
  MoveScorer scorer = load_move_scorer(default_model_path());
  ASSERT_TRUE(scorer);
  const SamplerOptions o = in_family_draw();
  int moved = 0;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const SampledPlacement got = placer.place_with_details(s);
    EXPECT_EQ(placement_violation(s, got.placement), "");
    EXPECT_DOUBLE_EQ(got.cost, ev.iteration_time_s(got.placement));
    const Placement greedy = GreedyPlacer::place_with(s, ev);
    EXPECT_LE(got.cost, ev.iteration_time_s(greedy));
    std::vector<Placement> steps;
    follow_learned_moves(scorer, s, ev.network(), greedy, walk.walk_moves, -std::numeric_limits<double>::infinity(),
                         &steps);
    EXPECT_EQ(got.distinct, 1 + static_cast<int>(steps.size()));
    double fastest_step = std::numeric_limits<double>::infinity();
    for (const Placement& p : steps) fastest_step = std::min(fastest_step, ev.iteration_time_s(p));
    if (got.chosen >= 1) {
      ASSERT_LE(got.chosen, static_cast<int>(steps.size()));
      EXPECT_EQ(got.placement.gpu_of_rank, steps[got.chosen - 1].gpu_of_rank);
      EXPECT_DOUBLE_EQ(got.cost, fastest_step);
      ++moved;
    } else {
      EXPECT_EQ(got.chosen, -1);
      EXPECT_LE(got.cost, fastest_step);
    }
    EXPECT_EQ(placer.place(s).gpu_of_rank, got.placement.gpu_of_rank);  // same scenario, same answer
  }
  EXPECT_GT(moved, 0) << "the walk improved on greedy's candidate nowhere: the prefixes were not exercised";
}

TEST(WalkPrefixes, TheLearnedLocalSearchPolishesTheBestPrefixInTheScorersOrder) {
  // With a polish budget the best prefix is improved by the polish in the scorer's order (its first 4 exchanges
  // evaluated per step): recomputed here from the prefixes' answer with the same ranking.
  const SamplingOptions prefixes = prefixes_only(4);
  SamplingOptions searched = prefixes;
  searched.polish = 32;
  GnnPlacer walk_only(default_model_path(), prefixes), walk_search(default_model_path(), searched);
  MoveScorer scorer = load_move_scorer(default_model_path());
  const SamplerOptions o = in_family_draw();
  int polished = 0;
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const SampledPlacement start = walk_only.place_with_details(s);
    const SampledPlacement got = walk_search.place_with_details(s);
    EXPECT_EQ(placement_violation(s, got.placement), "");
    EXPECT_LE(got.cost, start.cost);
    RoleScores unused;
    unused.hosts = static_cast<int>(s.platform.hosts.size());
    const PairRanker ranker = [&](const Placement& p) { return learned_exchange_order(scorer, s, ev.network(), p); };
    const SampledPlacement expected = polish_placement(
        s, unused, start, 32, [&ev](const Placement& p) { return ev.iteration_time_s(p); },
        [&ev](const Placement& p) { return ev.time_lower_bound(p); }, ranker, searched.polish_top_k);
    EXPECT_EQ(got.placement.gpu_of_rank, expected.placement.gpu_of_rank) << seed;
    polished += got.polished > 0;
  }
  EXPECT_GT(polished, 0) << "the local search improved no prefix: it was not exercised";
}

TEST(WalkPrefixes, TheReorderingsFollowTheBestPrefix) {
  // walk_reorder: the best prefix's stage blocks reordered, TP rings re-chained and DP rings re-ordered, each kept
  // if faster: recomputed here from the prefixes' answer with the same steps (no local search, no annealing).
  const SamplingOptions prefixes = prefixes_only(4);
  SamplingOptions reordered = prefixes;
  reordered.walk_reorder = true;
  GnnPlacer walk_only(default_model_path(), prefixes), walk_reordered(default_model_path(), reordered);
  const SamplerOptions o = in_family_draw();
  int changed = 0;
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Evaluator ev(s);
    const auto cost = [&ev](const Placement& p) { return ev.iteration_time_s(p); };
    const auto bound = [&ev](const Placement& p) { return ev.time_lower_bound(p); };
    const SampledPlacement start = walk_only.place_with_details(s);
    const SampledPlacement got = walk_reordered.place_with_details(s);
    EXPECT_EQ(placement_violation(s, got.placement), "");
    EXPECT_LE(got.cost, start.cost);
    TimedPlacement expected =
        fastest_stage_order(s, start.placement, start.cost, reordered.stage_orders, cost, &ev.network(), bound);
    expected = fastest_tp_ring_order(s, expected.placement, expected.time_s, cost, &ev.network());
    expected = fastest_replica_order(s, expected.placement, expected.time_s, cost, ev.network(), bound);
    EXPECT_EQ(got.placement.gpu_of_rank, expected.placement.gpu_of_rank) << seed;
    EXPECT_DOUBLE_EQ(got.cost, expected.time_s) << seed;
    changed += got.placement.gpu_of_rank != start.placement.gpu_of_rank;
  }
  EXPECT_GT(changed, 0) << "no reordering was kept: the steps were not exercised";
}

TEST(WalkPrefixes, FamiliesOptionSetsEveryRowThatKeepsGreedysCandidate) {
  // The walk starts from greedy's candidate: rows without one (no-greedy, the model alone) keep their decoder.
  const std::vector<LearnedRow> all = learned_rows("");
  const std::vector<LearnedRow> walked = with_walk(all, 4);
  ASSERT_EQ(walked.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool model_only = all[i].name.rfind("model-only", 0) == 0 || all[i].name == "no-greedy";
    EXPECT_EQ(walked[i].decoder.walk_moves.has_value(), !model_only) << all[i].name;
    if (!model_only) EXPECT_EQ(*walked[i].decoder.walk_moves, 4) << all[i].name;
    EXPECT_FALSE(with_walk(all, std::nullopt)[i].decoder.walk_moves.has_value()) << all[i].name;
    EXPECT_FALSE(walked[i].decoder.walk_reorder.has_value()) << all[i].name;
    EXPECT_EQ(with_walk(all, 4, true)[i].decoder.walk_reorder.value_or(false), !model_only) << all[i].name;
  }
}

}  // namespace
}  // namespace hulk::gnn
