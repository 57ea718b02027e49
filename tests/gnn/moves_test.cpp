// Host exchanges as moves and the move data set of the learned improvement policy (gnn/moves.hpp,
// gnn/move_data.hpp). Torch-free.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "gnn/dataset.hpp"
#include "gnn/decode.hpp"
#include "gnn/move_data.hpp"
#include "gnn/moves.hpp"
#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;

std::string tmp_dir(const std::string& name) {
  return (fs::temp_directory_path() / ("hulk_moves_" + name + "_" + std::to_string(::getpid()))).string();
}

Scenario small_scenario(std::uint64_t seed) {
  SamplerOptions o;
  o.max_total_gpus = 32;
  return sample_scenario(seed, o);
}

TEST(Moves, CandidatesAreValidExchangesThatChangeRoles) {
  int with_candidates = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Scenario s = small_scenario(seed);
    const Placement p = GreedyPlacer().place(s);
    const auto shares = role_shares(s, p);
    const auto candidates = candidate_exchanges(s, p);
    with_candidates += !candidates.empty();
    for (const auto& [a, b] : candidates) {
      ASSERT_LT(a, b);
      EXPECT_NE(shares[a], shares[b]) << "seed " << seed;
      Placement q = p;
      ASSERT_TRUE(exchange_hosts(s, q, a, b));
      EXPECT_EQ(placement_violation(s, q), "") << "seed " << seed;
      const auto after = role_shares(s, q);  // the two hosts' roles trade places when their GPU counts agree
      if (s.platform.hosts[a].gpus == s.platform.hosts[b].gpus) {
        EXPECT_EQ(after[a], shares[b]);
        EXPECT_EQ(after[b], shares[a]);
      }
      Placement back = q;  // an exchange undone by the same exchange
      ASSERT_TRUE(exchange_hosts(s, back, a, b));
      EXPECT_EQ(role_shares(s, back), shares);
    }
  }
  EXPECT_GT(with_candidates, 10);
}

/** Every exchange whose shares differ, checked in full (a copy exchanged, placement_violation): candidate_exchanges'
 *  definition, which it computes from per-host counts and memory. */
std::vector<std::pair<int, int>> exchanges_checked_in_full(const Scenario& s, const Placement& p) {
  const auto share = role_shares(s, p);
  std::vector<std::pair<int, int>> out;
  for (int a = 0; a < static_cast<int>(share.size()); ++a)
    for (int b = a + 1; b < static_cast<int>(share.size()); ++b) {
      Placement q = p;
      if (share[a] != share[b] && exchange_hosts(s, q, a, b) && placement_violation(s, q).empty())
        out.emplace_back(a, b);
    }
  return out;
}

TEST(Moves, CandidatesAreTheExchangesAFullCheckAccepts) {
  int rejected = 0, states = 0;  // pairs with different shares the full check rejects: the fast test must too
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Scenario s = small_scenario(seed);
    Placement p = GreedyPlacer().place(s);
    for (int step = 0; step < 4; ++step) {  // greedy's placement and states a few exchanges away
      const auto full = exchanges_checked_in_full(s, p);
      ASSERT_EQ(candidate_exchanges(s, p), full) << "seed " << seed << " step " << step;
      const auto share = role_shares(s, p);
      for (int a = 0; a < static_cast<int>(share.size()); ++a)
        for (int b = a + 1; b < static_cast<int>(share.size()); ++b) rejected += share[a] != share[b];
      rejected -= static_cast<int>(full.size());
      ++states;
      if (full.empty()) break;
      const auto& [a, b] = full[(seed + static_cast<std::uint64_t>(step)) % full.size()];
      ASSERT_TRUE(exchange_hosts(s, p, a, b));
    }
  }
  EXPECT_GT(states, 60);
  EXPECT_GT(rejected, 0);
}

TEST(Moves, LabelIsTheClippedRelativeChange) {
  EXPECT_DOUBLE_EQ(move_label(2.0, 1.5), -0.25);
  EXPECT_NEAR(move_label(2.0, 2.2), 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(move_label(1.0, 5.0), kMoveLabelClip);
  EXPECT_DOUBLE_EQ(move_label(1.0, INFINITY), kMoveLabelClip);
  EXPECT_DOUBLE_EQ(move_label(4.0, 0.1), -kMoveLabelClip);
}

TEST(Moves, PairFeaturesAreSymmetric) {
  const Scenario s = small_scenario(3);
  const Placement p = GreedyPlacer().place(s);
  const Evaluator ev(s);
  const auto shares = role_shares(s, p);
  for (const auto& [a, b] : candidate_exchanges(s, p)) {
    const auto ab = pair_features(s, ev.network(), shares, a, b), ba = pair_features(s, ev.network(), shares, b, a);
    for (int k = 0; k < kPairFeatures; ++k) EXPECT_FLOAT_EQ(ab[k], ba[k]) << k;
    for (float v : ab) EXPECT_TRUE(std::isfinite(v));
  }
}

TEST(MoveData, SampleIsDeterministicAndLabelledByTheEvaluator) {
  MoveDataOptions o;
  o.max_gpus = 32;
  o.states = 4;
  o.moves_per_state = 10;
  const MoveSample x = make_move_sample(5, 77, o), y = make_move_sample(5, 77, o);
  ASSERT_FALSE(x.states.empty());
  ASSERT_EQ(x.states.size(), y.states.size());
  const Evaluator ev(x.scenario);
  EXPECT_EQ(x.states.front().placement.gpu_of_rank, GreedyPlacer::place_with(x.scenario, ev).gpu_of_rank);
  for (std::size_t k = 0; k < x.states.size(); ++k) {
    EXPECT_EQ(x.states[k].placement.gpu_of_rank, y.states[k].placement.gpu_of_rank);
    ASSERT_EQ(x.states[k].moves.size(), y.states[k].moves.size());
    EXPECT_LE(x.states[k].moves.size(), 10u);
    const double before = ev.iteration_time_s(x.states[k].placement);
    for (const MoveExample& m : x.states[k].moves) {
      Placement q = x.states[k].placement;
      ASSERT_TRUE(exchange_hosts(x.scenario, q, m.a, m.b));
      EXPECT_NEAR(m.label, move_label(before, ev.iteration_time_s(q)), 1e-12);
    }
    if (k > 0) {  // each state one exchange from the previous one
      Placement prev = x.states[k - 1].placement;
      bool found = false;
      for (const MoveExample& m : x.states[k - 1].moves) {
        Placement q = prev;
        exchange_hosts(x.scenario, q, m.a, m.b);
        found = found || q.gpu_of_rank == x.states[k].placement.gpu_of_rank;
      }
      EXPECT_TRUE(found) << "state " << k;
    }
  }
}

TEST(MoveData, WriteReadRoundTripAndBadFilesNameTheKey) {
  MoveDataOptions o;
  o.max_gpus = 64;
  o.states = 2;
  o.moves_per_state = 5;
  const std::string dir = tmp_dir("roundtrip");
  fs::remove_all(dir);
  int index = 0;  // the first sampled cluster with something to exchange
  while (make_move_sample(index, 9, o).states.front().moves.empty()) ++index;
  Manifest m;
  m.count = index + 2;
  m.seed = 9;
  m.generator = "test";
  write_manifest(dir, m);
  const MoveSample a = make_move_sample(index, 9, o);
  write_move_sample(dir, a);
  EXPECT_THROW(load_move_dataset(dir, false), InputError);  // the others missing
  const std::vector<MoveSample> got = load_move_dataset(dir, true);
  ASSERT_EQ(got.size(), 1u);
  ASSERT_EQ(got[0].states.size(), a.states.size());
  for (std::size_t k = 0; k < a.states.size(); ++k) {
    EXPECT_EQ(got[0].states[k].placement.gpu_of_rank, a.states[k].placement.gpu_of_rank);
    ASSERT_EQ(got[0].states[k].moves.size(), a.states[k].moves.size());
    for (std::size_t i = 0; i < a.states[k].moves.size(); ++i)
      EXPECT_DOUBLE_EQ(got[0].states[k].moves[i].label, a.states[k].moves[i].label);
  }
  // A label out of range names its key.
  std::ifstream in(sample_path(dir, index));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find("\"moves\":[[");
  ASSERT_NE(at, std::string::npos);
  const std::size_t close = text.find(']', at + 10);
  const std::size_t comma = text.rfind(',', close);
  text.replace(comma + 1, close - comma - 1, "7.5");
  std::ofstream(sample_path(dir, index)) << text;
  try {
    read_move_sample(sample_path(dir, index));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("states[0].moves[0]"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hulk::gnn
