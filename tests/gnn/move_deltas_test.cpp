// The analytic per-move features of the learned improvement policy (gnn/move_deltas.hpp) and the scorer's two
// feature sets (gnn/move_model.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>

#include <unistd.h>

#include "gnn/model_file.hpp"
#include "gnn/move_deltas.hpp"
#include "gnn/move_model.hpp"
#include "gnn/moves.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/workload/cost_model.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;

Scenario sampled(std::uint64_t seed) {
  SamplerOptions o;
  o.max_total_gpus = 48;
  return sample_scenario(seed, o);
}

/** The quantities of move_deltas.hpp for one placement, recomputed from scratch (O(hosts^2 + ranks)). */
std::array<double, kMoveDeltaFeatures> quantities(const Scenario& s, const RouteModel& net, const Placement& p) {
  const TrafficMatrix t = estimate_traffic(s, p);
  const int n = static_cast<int>(s.platform.hosts.size());
  std::array<double, kMoveDeltaFeatures> q{};
  std::vector<double> load(n, 0.0);
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < n; ++c) {
      if (a == c) continue;
      const double inv = 1.0 / std::max(1.0, std::min(net.route(a, c).bandwidth_Bps, net.route(c, a).bandwidth_Bps));
      double busy = 0;
      for (int k = 0; k < 3; ++k) {
        const double bytes = t.bytes[k][static_cast<std::size_t>(a) * n + c];
        busy += bytes * inv;
        if (a < c) q[2 + k] += bytes * inv;
        if (a < c && s.platform.hosts[a].region != s.platform.hosts[c].region) q[5] += bytes;
      }
      load[a] += busy;
      q[0] = std::max(q[0], busy);
    }
  q[1] = *std::max_element(load.begin(), load.end());
  const JobCost cost = compute_job_cost(s.only_job());
  const int per_stage = s.only_job().par.dp * s.only_job().par.tp;
  for (std::size_t st = 0; st < cost.stages.size(); ++st) {
    double slowest = std::numeric_limits<double>::infinity();
    for (int r = 0; r < per_stage; ++r)
      slowest = std::min(slowest, s.platform.hosts[p.gpu_of_rank[st * per_stage + r].host].gpu.peak_flops("fp16"));
    const StageCost& c = cost.stages[st];
    const double time =
        cost.micro_batches * (c.layers * (3 * c.layer_fwd_flops + c.recompute_layer_flops) + 3 * c.extra_fwd_flops) /
        slowest;
    q[6] = std::max(q[6], time);
    q[7] += time / static_cast<double>(cost.stages.size());
  }
  return q;
}

TEST(MoveDeltas, EachChangeIsTheQuantityAfterTheExchangeMinusBefore) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Scenario s = sampled(seed);
    const Evaluator ev(s);
    const Placement p = GreedyPlacer().place(s);
    const MoveDeltaContext context(s, ev.network(), p);
    const auto before = quantities(s, ev.network(), p);
    for (const auto& [a, b] : candidate_exchanges(s, p)) {
      Placement q = p;
      ASSERT_TRUE(exchange_hosts(s, q, a, b));
      const auto after = quantities(s, ev.network(), q);
      const auto d = context.raw_deltas(a, b);
      for (int k = 0; k < kMoveDeltaFeatures; ++k) {
        const double expected = after[k] - before[k], tol = 1e-9 * (std::abs(after[k]) + std::abs(before[k]) + 1e-12);
        EXPECT_NEAR(d[k], expected, tol) << "seed " << seed << " move " << a << "," << b << " feature " << k;
      }
      const auto ab = context.features(a, b), ba = context.features(b, a);  // the same move, summed in another order
      for (int k = 0; k < kMoveDeltaFeatures; ++k) EXPECT_NEAR(ab[k], ba[k], 1e-5) << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(MoveDeltas, AnExchangeOfTwoIdleHostsChangesNothing) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Scenario s = sampled(seed);
    const Evaluator ev(s);
    const Placement p = GreedyPlacer().place(s);
    const auto shares = role_shares(s, p);
    std::vector<int> idle;
    for (std::size_t h = 0; h < shares.size(); ++h)
      if (shares[h].back() == 1.0) idle.push_back(static_cast<int>(h));
    if (idle.size() < 2) continue;
    const MoveDeltaContext context(s, ev.network(), p);
    for (const double d : context.raw_deltas(idle[0], idle[1])) EXPECT_EQ(d, 0.0) << seed;
    EXPECT_GT(context.scale_s(), 0.0);
    return;
  }
  GTEST_SKIP() << "no sampled cluster with two idle hosts";
}

TEST(MoveDeltas, ScorerInputsHaveTheConfiguredWidthAndOlderScorersLoad) {
  const Scenario s = sampled(3);
  const Evaluator ev(s);
  const Placement p = GreedyPlacer().place(s);
  const auto moves = candidate_exchanges(s, p);
  ASSERT_FALSE(moves.empty());
  MoveModelConfig pair_only;
  pair_only.pair_features = kPairFeatures;
  const MoveInputs wide = move_inputs(s, ev.network(), p, moves, MoveModelConfig{});
  const MoveInputs narrow = move_inputs(s, ev.network(), p, moves, pair_only);
  const auto m = static_cast<std::int64_t>(moves.size());
  EXPECT_EQ(wide.pair.sizes(), (std::vector<std::int64_t>{m, kPairFeatures + kMoveDeltaFeatures}));
  EXPECT_EQ(narrow.pair.sizes(), (std::vector<std::int64_t>{m, kPairFeatures}));
  EXPECT_TRUE(torch::equal(wide.pair.slice(1, 0, kPairFeatures), narrow.pair));
  EXPECT_TRUE(torch::equal(wide.pair, move_inputs(s, ev.network(), p, moves, MoveModelConfig{}).pair));
  // A scorer of either width survives its model file with its width and its predictions.
  for (const MoveModelConfig& config : {MoveModelConfig{}, pair_only}) {
    torch::manual_seed(11);
    PlacementGnn gnn{ModelConfig{}};
    MoveScorer scorer{config};
    const std::string path =
        (fs::temp_directory_path() / ("hulk_move_deltas_" + std::to_string(::getpid()) + ".pt")).string();
    save_model(gnn, path, scorer);
    MoveScorer loaded = load_move_scorer(path);
    fs::remove(path);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->config().pair_features, config.pair_features);
    EXPECT_EQ(predict_moves(scorer, s, ev.network(), p, moves), predict_moves(loaded, s, ev.network(), p, moves));
  }
}

}  // namespace
}  // namespace hulk::gnn
