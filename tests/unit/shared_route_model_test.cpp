// One route model shared by the evaluators, greedy, the graph and the stage/ring reorderings of one scenario
// (Evaluator(scenario, network)): it is a function of the platform alone, so sharing it must change no result.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/features/reference_graph.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/place/stage_order.hpp"
#include "sim/place/tp_ring_order.hpp"

namespace hulk {
namespace {

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out{testing::hulk_like_scenario()};
  for (std::uint64_t seed = 1; seed <= 6; ++seed) out.push_back(testing::small_sampled_cluster(seed));
  return out;
}

TEST(SharedRouteModel, GivesTheSameTimesPlacementsAndGraphsAsBuildingOne) {
  for (const Scenario& s : scenarios()) {
    const Evaluator own(s);
    const Evaluator shared(s, own.shared_network());
    EXPECT_EQ(&shared.network(), &own.network()) << s.name;
    const Placement greedy = GreedyPlacer().place(s);
    EXPECT_EQ(GreedyPlacer::place_with(s, shared).gpu_of_rank, greedy.gpu_of_rank) << s.name;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const Placement p = RandomPlacer(seed).place(s);
      EXPECT_EQ(shared.iteration_time_s(p), Evaluator(s).iteration_time_s(p)) << s.name;  // bits
    }
    const ClusterGraph a = build_reference_graph(s, GraphOptions{}, greedy);
    const ClusterGraph b = build_reference_graph(s, GraphOptions{}, greedy, &own.network());
    EXPECT_EQ(a.node_features, b.node_features) << s.name;
    ASSERT_EQ(a.edges.size(), b.edges.size()) << s.name;
    for (size_t e = 0; e < a.edges.size(); ++e) {
      EXPECT_EQ(a.edges[e].src, b.edges[e].src);
      EXPECT_EQ(a.edges[e].dst, b.edges[e].dst);
      EXPECT_EQ(a.edges[e].features, b.edges[e].features);
    }
    const int limit = 6;
    const std::vector<Placement> orders = stage_order_candidates(s, greedy, limit);
    const std::vector<Placement> orders_shared = stage_order_candidates(s, greedy, limit, &own.network());
    ASSERT_EQ(orders.size(), orders_shared.size()) << s.name;
    for (size_t i = 0; i < orders.size(); ++i) EXPECT_EQ(orders[i].gpu_of_rank, orders_shared[i].gpu_of_rank);
    EXPECT_EQ(tp_ring_rechained(s, greedy).gpu_of_rank, tp_ring_rechained(s, greedy, &own.network()).gpu_of_rank);
  }
}

TEST(SharedRouteModel, AModelOfAnotherPlatformIsRefused) {
  const Scenario big = testing::hulk_like_scenario();
  const Scenario small = testing::small_sampled_cluster(1);
  ASSERT_NE(big.platform.hosts.size(), small.platform.hosts.size());
  EXPECT_THROW(Evaluator(small, Evaluator(big).shared_network()), std::invalid_argument);
}

TEST(SharedRouteModel, ItCarriesTheNetworkModelsFactorsAndAnotherModelsIsRefused) {
  Scenario lv08 = testing::small_sampled_cluster(1);
  lv08.network.model = "LV08";
  const Scenario cm02 = testing::small_sampled_cluster(1);
  const std::shared_ptr<const RouteModel> scaled = analytic_route_model(lv08), plain = analytic_route_model(cm02);
  EXPECT_DOUBLE_EQ(scaled->route(0, 1).latency_s, 13.01 * plain->route(0, 1).latency_s);
  EXPECT_DOUBLE_EQ(scaled->link_bandwidth_Bps(0), 0.97 * plain->link_bandwidth_Bps(0));
  EXPECT_EQ(&Evaluator(lv08, scaled).network(), scaled.get());
  EXPECT_THROW(Evaluator(lv08, plain), std::invalid_argument);  // a CM02 model would make LV08 13x too fast
  EXPECT_THROW(Evaluator(cm02, scaled), std::invalid_argument);
}

}  // namespace
}  // namespace hulk
