// One route model: every consumer (RouteModel, route_between, the evaluator's view, GNN edge features, the traffic
// estimate) sees the same latency and bottleneck for every host pair, on a regions platform, a Hulk-like platform
// with measured pair latencies and an XML-described platform. The engine side is tests/sim/route_model_engine_test.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/features/cluster_graph.hpp"
#include "sim/topology/host_route.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;
using testing::make_scenario;

// Two regions (hosts 0, 1 | 2) with different NICs; wan[1][0] deliberately differs from wan[0][1]: the engine
// builds one link per region pair from wan[0][1], so every consumer must read that one.
Scenario regions_scenario() {
  PlatformSpec p = make_platform({2, 1}, 2, a100(), {1e9, 1e-4}, {1e8, 0.02}, {100e9, 2e-6});
  p.hosts[1].host_link = {2e9, 3e-4};
  p.wan[1][0] = {5e7, 0.5};
  return make_scenario(p, make_job(1, 1, 2, 2));
}

// Hulk-like: three regions, measured latencies for some pairs only (the others keep NIC + WAN + NIC); a per-pair
// bandwidth that the engine does not simulate on a built platform (ignored by every consumer).
Scenario hulk_scenario() {
  PlatformSpec p = make_platform({2, 2, 1}, 4, a100(), {1.25e9, 5e-5}, {1.25e8, 0.01}, {150e9, 2e-6});
  p.host_pair_latency_s[{0, 1}] = 1e-3;
  p.host_pair_latency_s[{0, 4}] = 0.2;
  p.host_pair_latency_s[{2, 3}] = 2e-3;
  p.host_pair_bandwidth_Bps[{0, 4}] = 1e6;
  return make_scenario(p, make_job(1, 1, 2, 2));
}

// As describe_simgrid_xml() leaves it: every pair's latency and bottleneck given, simgrid_xml set.
Scenario xml_scenario() {
  PlatformSpec p = make_platform({2, 1}, 2, a100());
  p.simgrid_xml = "described.xml";
  p.host_pair_latency_s = {{{0, 1}, 3e-5}, {{0, 2}, 0.05}, {{1, 2}, 0.06}};
  p.host_pair_bandwidth_Bps = {{{0, 1}, 5e9}, {{0, 2}, 1e9}, {{1, 2}, 2e9}};
  return make_scenario(p, make_job(1, 1, 2, 2));
}

// Every consumer against the model, for every ordered host pair.
void expect_one_answer(const Scenario& s) {
  const RouteModel model(s.platform);
  const Evaluator ev(s);
  GraphOptions complete;
  complete.nearest_neighbours = 0;
  const ClusterGraph g = build_cluster_graph(s, nullptr, complete);
  const int H = model.hosts();
  ASSERT_EQ(static_cast<int>(g.edges.size()), H * (H - 1));
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b) {
      SCOPED_TRACE("route " + std::to_string(a) + " -> " + std::to_string(b));
      const Route& r = model.route(a, b);
      const HostRoute via_platform = route_between(s.platform, a, b);
      EXPECT_EQ(via_platform.latency_s, r.latency_s);
      EXPECT_EQ(via_platform.bandwidth_Bps, r.bandwidth_Bps);
      EXPECT_EQ(ev.network().route(a, b).latency_s, r.latency_s);
      EXPECT_EQ(ev.network().route(a, b).bandwidth_Bps, r.bandwidth_Bps);
      if (a != b) {
        const GraphEdge& e = g.edges[static_cast<size_t>(a) * (H - 1) + (b < a ? b : b - 1)];
        ASSERT_EQ(e.src, a);
        ASSERT_EQ(e.dst, b);
        EXPECT_EQ(e.latency_s, r.latency_s);
        EXPECT_EQ(e.bandwidth_Bps, r.bandwidth_Bps);
        // Traffic estimate: a two-stage pipeline on (a, b) sends 2m messages of pp_message_bytes over this route.
        Placement p;
        p.gpu_of_rank = {GpuSlot{a, 0}, GpuSlot{b, 0}};
        const TrafficMatrix t = estimate_traffic(s, p);
        const double msgs = 2.0 * 2, bytes = t.bytes[static_cast<int>(CommKind::pp)][static_cast<size_t>(a) * H + b];
        EXPECT_GT(bytes, 0.0);
        EXPECT_DOUBLE_EQ(t.busy_s[static_cast<int>(CommKind::pp)][static_cast<size_t>(a) * H + b],
                         msgs * r.latency_s + bytes / r.bandwidth_Bps);
      }
      // The route's own facts: latency-carrying links sum to the latency, the bottleneck is its slowest link.
      double lat = 0, bw = r.flow_cap_Bps;
      for (int i = 0; i < r.n_path; ++i) lat += model.link(r.path[i]).latency_s;
      for (int i = 0; i < r.n_links; ++i) bw = std::min(bw, model.link_bandwidth_Bps(r.links[i]));
      EXPECT_NEAR(lat, r.latency_s, 1e-12 * r.latency_s);
      EXPECT_EQ(bw, r.bandwidth_Bps);
    }
}

TEST(RouteModel, RegionsPlatformOneAnswer) {
  const Scenario s = regions_scenario();
  expect_one_answer(s);
  const RouteModel model(s.platform);
  // Values by hand: the engine's wan[0][1] in both directions, NIC latencies summed.
  EXPECT_DOUBLE_EQ(model.route(2, 1).latency_s, 1e-4 + 3e-4 + 0.02);
  EXPECT_DOUBLE_EQ(model.route(1, 2).bandwidth_Bps, 1e8);
  EXPECT_DOUBLE_EQ(model.route(2, 0).bandwidth_Bps, 1e8);
  EXPECT_DOUBLE_EQ(model.route(0, 1).bandwidth_Bps, 1e9);
  EXPECT_DOUBLE_EQ(model.route(1, 1).bandwidth_Bps, 100e9);
  EXPECT_DOUBLE_EQ(model.route(1, 1).latency_s, 2e-6);
}

TEST(RouteModel, HulkPlatformOneAnswer) {
  const Scenario s = hulk_scenario();
  expect_one_answer(s);
  const RouteModel model(s.platform);
  EXPECT_DOUBLE_EQ(model.route(4, 0).latency_s, 0.2);
  EXPECT_DOUBLE_EQ(model.route(4, 0).bandwidth_Bps, 1.25e8);  // per-pair bandwidth is not what the engine builds
  EXPECT_DOUBLE_EQ(model.route(1, 2).latency_s, 5e-5 + 5e-5 + 0.01);
  // Measured latencies live on a per-route latency link; NIC and WAN links then carry none.
  const Route& r = model.route(0, 4);
  ASSERT_EQ(r.n_path, 4);
  EXPECT_EQ(model.link(r.path[3]).kind, LinkKind::pair_latency);
  EXPECT_EQ(model.link_name(r.path[3]), "lat:h0>h4");
  EXPECT_EQ(model.link(r.path[0]).latency_s, 0.0);
  EXPECT_EQ(model.link(r.path[1]).kind, LinkKind::wan);
  EXPECT_EQ(model.link_name(r.path[1]), "wan:r0~r2");
  EXPECT_EQ(model.link(r.path[1]).duplex, Duplex::up);
  EXPECT_EQ(model.link(model.route(4, 0).path[1]).duplex, Duplex::down);
}

// Links two routes have in common (path ids).
std::vector<int> common_links(const RouteModel& m, int a1, int b1, int a2, int b2) {
  std::vector<int> out;
  const Route& r1 = m.route(a1, b1);
  const Route& r2 = m.route(a2, b2);
  for (int i = 0; i < r1.n_path; ++i)
    for (int j = 0; j < r2.n_path; ++j)
      if (r1.path[i] == r2.path[j]) out.push_back(r1.path[i]);
  return out;
}

// Regions r0 (hosts 0, 1), r1 (hosts 2, 3), r2 (host 4); the WAN capacity model under test.
PlatformSpec capacity_platform(WanCapacity capacity) {
  PlatformSpec p = make_platform({2, 2, 1}, 2, a100(), {1.25e9, 5e-5}, {1.25e8, 0.02}, {150e9, 2e-6});
  p.wan[0][2] = p.wan[2][0] = {6e7, 0.08};
  p.wan_capacity = capacity;
  return p;
}

TEST(RouteModel, WanCapacityPairSharesTheRegionPairLink) {
  const RouteModel m(capacity_platform(WanCapacity::pair));
  // Two senders of r0 to two distinct receivers of r1: the one r0~r1 WAN link (its UP half) is shared.
  const std::vector<int> shared = common_links(m, 0, 2, 1, 3);
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_EQ(m.link(shared[0]).kind, LinkKind::wan);
  EXPECT_EQ(m.link_name(shared[0]), "wan:r0~r1");
  EXPECT_EQ(m.links(), 5 * 4 + 3 * 2);  // host links + one split-duplex link per region pair
}

TEST(RouteModel, WanCapacityHostSharesOnlyTheReceiversNics) {
  const Scenario s = make_scenario(capacity_platform(WanCapacity::host), make_job(1, 1, 2, 2));
  expect_one_answer(s);
  const RouteModel m(s.platform);
  // Distinct receivers: nothing in common. One receiver: only its NIC's DOWN half.
  EXPECT_TRUE(common_links(m, 0, 2, 1, 3).empty());
  const std::vector<int> one_receiver = common_links(m, 0, 2, 1, 2);
  ASSERT_EQ(one_receiver.size(), 1u);
  EXPECT_EQ(m.link(one_receiver[0]).kind, LinkKind::nic_down);
  EXPECT_EQ(m.link(one_receiver[0]).a, 2);
  // One sender to two hosts of a region: its NIC and its own cap toward that region.
  const std::vector<int> one_sender = common_links(m, 0, 2, 0, 3);
  ASSERT_EQ(one_sender.size(), 2u);
  EXPECT_EQ(m.link(one_sender[1]).kind, LinkKind::wan_host);
  EXPECT_EQ(m.link_name(one_sender[1]), "wanout:h0>r1");
  EXPECT_EQ(m.link(one_sender[1]).sharing, LinkSharing::shared);
  // The cap is the pair's bandwidth, the latency the pair's WAN latency, per direction.
  const Route& r = m.route(4, 1);
  ASSERT_EQ(r.n_path, 3);
  EXPECT_EQ(m.link_name(r.path[1]), "wanout:h4>r0");
  EXPECT_EQ(m.link(r.path[1]).bandwidth_Bps, 6e7);
  EXPECT_EQ(m.link(r.path[1]).latency_s, 0.08);
  EXPECT_DOUBLE_EQ(r.latency_s, 5e-5 + 5e-5 + 0.08);
  EXPECT_EQ(r.bandwidth_Bps, 6e7);
  EXPECT_NE(m.route(1, 4).path[1], r.path[1]);
  // Hosts x (populated regions - 1) WAN links, no region-pair link.
  EXPECT_EQ(m.links(), 5 * 4 + 5 * 2);
  for (int id = 0; id < m.links(); ++id) EXPECT_NE(m.link(id).kind, LinkKind::wan);
}

// With measured pair latencies the wanout links carry no latency (the route's latency link does), as WAN links.
TEST(RouteModel, WanCapacityHostWithPairLatencies) {
  Scenario s = hulk_scenario();
  s.platform.wan_capacity = WanCapacity::host;
  expect_one_answer(s);
  const RouteModel m(s.platform);
  const Route& r = m.route(0, 4);
  ASSERT_EQ(r.n_path, 4);
  EXPECT_EQ(m.link_name(r.path[1]), "wanout:h0>r2");
  EXPECT_EQ(m.link(r.path[1]).latency_s, 0.0);
  EXPECT_DOUBLE_EQ(r.latency_s, 0.2);
}

// A region without hosts gets no wanout links.
TEST(RouteModel, WanCapacityHostSkipsEmptyRegions) {
  PlatformSpec p = make_platform({2, 0, 1}, 1, a100());
  p.wan_capacity = WanCapacity::host;
  const RouteModel m(p);
  EXPECT_EQ(m.links(), 3 * 4 + 3 * 1);
}

TEST(RouteModel, XmlPlatformOneAnswer) {
  const Scenario s = xml_scenario();
  expect_one_answer(s);
  const RouteModel model(s.platform);
  EXPECT_TRUE(model.from_xml());
  EXPECT_DOUBLE_EQ(model.route(2, 1).latency_s, 0.06);
  EXPECT_DOUBLE_EQ(model.route(2, 1).bandwidth_Bps, 2e9);
  EXPECT_DOUBLE_EQ(model.route(0, 1).bandwidth_Bps, 5e9);
}

}  // namespace
}  // namespace hulk
