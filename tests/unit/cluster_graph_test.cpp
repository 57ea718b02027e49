// Pure tests of the cluster graph: route model, traffic aggregation, graph structure. Closed-form oracles.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "sim/features/cluster_graph.hpp"
#include "sim/core/errors.hpp"
#include "sim/features/scenario_sampler.hpp"

namespace hulk {
namespace {

// Two regions: region 0 hosts 0,1; region 1 host 2.
Scenario small_scenario() {
  Scenario s;
  s.platform.regions = {"a", "b"};
  for (int i = 0; i < 3; ++i) {
    HostSpec h;
    h.name = "h" + std::to_string(i);
    h.region = i < 2 ? 0 : 1;
    h.gpus = 4;
    h.gpu.name = "X";
    h.gpu.fp16_flops = 100e12;
    h.gpu.fp32_flops = 10e12;
    h.gpu.memory_bytes = 80e9;
    h.host_link = LinkSpec{(i + 1) * 1e9, (i + 1) * 10e-6};
    h.intra_link = LinkSpec{100e9, 1e-6};
    s.platform.hosts.push_back(h);
  }
  s.platform.wan = {{LinkSpec{}, LinkSpec{0.1e9, 30e-3}}, {LinkSpec{0.1e9, 30e-3}, LinkSpec{}}};
  s.only_job().model = ModelSpec{"m", 8, 1024, 16, 1024, 51200};
  s.only_job().par = Parallelism{2, 2, 2};
  s.only_job().global_batch = 8;
  s.only_job().micro_batch = 1;
  return s;
}

TEST(HostRoute, SameHostUsesIntraLink) {
  const Scenario s = small_scenario();
  const HostRoute r = route_between(s.platform, 1, 1);
  EXPECT_DOUBLE_EQ(r.latency_s, 1e-6);
  EXPECT_DOUBLE_EQ(r.bandwidth_Bps, 100e9);
}

TEST(HostRoute, SameRegionIsTwoNics) {
  const Scenario s = small_scenario();
  const HostRoute r = route_between(s.platform, 0, 1);
  EXPECT_DOUBLE_EQ(r.latency_s, 10e-6 + 20e-6);
  EXPECT_DOUBLE_EQ(r.bandwidth_Bps, 1e9);
}

TEST(HostRoute, CrossRegionAddsWanAndTakesBottleneck) {
  const Scenario s = small_scenario();
  const HostRoute r = route_between(s.platform, 2, 0);
  EXPECT_DOUBLE_EQ(r.latency_s, 30e-6 + 30e-3 + 10e-6);
  EXPECT_DOUBLE_EQ(r.bandwidth_Bps, 0.1e9);
}

TEST(HostRoute, HostPairOverridesWin) {
  Scenario s = small_scenario();
  s.platform.host_pair_latency_s[{0, 2}] = 0.123;
  s.platform.host_pair_bandwidth_Bps[{0, 2}] = 7e6;
  const HostRoute r = route_between(s.platform, 2, 0);
  EXPECT_DOUBLE_EQ(r.latency_s, 0.123);
  // A built platform's bandwidth is its links' (what the engine simulates); per-pair bandwidth is XML-only.
  EXPECT_DOUBLE_EQ(r.bandwidth_Bps, 0.1e9);
  s.platform.simgrid_xml = "described.xml";
  EXPECT_DOUBLE_EQ(route_between(s.platform, 2, 0).bandwidth_Bps, 7e6);
}

CommEvent ev(int it, const char* kind, int a, int b, double bytes, double t0, double t1) {
  CommEvent e;
  e.iteration = it;
  e.kind = kind;
  e.src_host = a;
  e.dst_host = b;
  e.bytes = bytes;
  e.start_s = t0;
  e.end_s = t1;
  return e;
}

TEST(Traffic, SumsBytesAndUnionsBusyTimePerIteration) {
  const Scenario s = small_scenario();
  // Iteration 0: two overlapping dp messages 0->2 and 2->0: union [0, 2] = 2 s. Iteration 1: one of [10, 11].
  std::vector<CommEvent> events = {ev(0, "dp", 0, 2, 100, 0.0, 1.0), ev(0, "dp", 2, 0, 50, 0.5, 2.0),
                                   ev(1, "dp", 0, 2, 150, 10.0, 11.0), ev(1, "pp", 1, 0, 8, 10.0, 10.5)};
  const TrafficMatrix t = traffic_from_events(s.platform, events);
  EXPECT_DOUBLE_EQ(t.bytes_between(CommKind::dp, 0, 2), 150.0);  // (100 + 50 + 150) / 2 iterations
  EXPECT_DOUBLE_EQ(t.bytes_between(CommKind::dp, 2, 0), 150.0);
  EXPECT_DOUBLE_EQ(t.busy_between(CommKind::dp, 0, 2), 1.5);     // (2 + 1) / 2
  EXPECT_DOUBLE_EQ(t.bytes_between(CommKind::pp, 0, 1), 4.0);
  EXPECT_DOUBLE_EQ(t.busy_between(CommKind::pp, 1, 0), 0.25);
  EXPECT_DOUBLE_EQ(t.bytes_between(CommKind::tp, 0, 2), 0.0);
  EXPECT_TRUE(t.any_between(2, 0));
  EXPECT_FALSE(t.any_between(1, 2));
}

TEST(Traffic, RejectsUnknownKindAndHost) {
  const Scenario s = small_scenario();
  EXPECT_THROW(traffic_from_events(s.platform, {ev(0, "xx", 0, 1, 1, 0, 1)}), InputError);
  EXPECT_THROW(traffic_from_events(s.platform, {ev(0, "dp", 0, 7, 1, 0, 1)}), InputError);
}

void expect_well_formed(const ClusterGraph& g) {
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const GraphEdge& e = g.edges[i];
    EXPECT_NE(e.src, e.dst);
    seen.insert({e.src, e.dst});
    if (i) EXPECT_TRUE(std::make_pair(g.edges[i - 1].src, g.edges[i - 1].dst) < std::make_pair(e.src, e.dst));
    for (float f : e.features) EXPECT_TRUE(std::isfinite(f));
  }
  for (const auto& [a, b] : seen) EXPECT_TRUE(seen.count({b, a})) << a << "->" << b << " has no reverse";
  for (const auto& n : g.node_features)
    for (float f : n) EXPECT_TRUE(std::isfinite(f));
  for (const auto& st : g.stage_features)
    for (float f : st) EXPECT_TRUE(std::isfinite(f));
  EXPECT_EQ(static_cast<int>(g.node_features.size()), g.hosts);
  EXPECT_EQ(static_cast<int>(g.stage_features.size()), g.pp);
}

TEST(ClusterGraph, CompleteGraphAndRawEdgeValues) {
  const Scenario s = small_scenario();
  GraphOptions o;
  o.nearest_neighbours = 0;
  const ClusterGraph g = build_cluster_graph(s, nullptr, o);
  expect_well_formed(g);
  ASSERT_EQ(g.edges.size(), 6u);
  EXPECT_EQ(g.pp, 2);
  for (const GraphEdge& e : g.edges) {
    const HostRoute r = route_between(s.platform, e.src, e.dst);
    EXPECT_DOUBLE_EQ(e.latency_s, r.latency_s);
    EXPECT_DOUBLE_EQ(e.bandwidth_Bps, r.bandwidth_Bps);
    EXPECT_EQ(e.same_region, s.platform.hosts[e.src].region == s.platform.hosts[e.dst].region);
    EXPECT_EQ(e.features[10], 0.0f);  // no traffic information
  }
}

TEST(ClusterGraph, TrafficEdgesKeptAndFeaturised) {
  // 10 single-host regions in a line: host i's nearest neighbours are i-1, i+1. With k = 1, the pair (0, 9)
  // is far apart, but it carries traffic, so it must be an edge with its bytes.
  Scenario s = small_scenario();
  s.platform.regions.clear();
  s.platform.hosts.clear();
  const int n = 10;
  s.platform.wan.assign(n, std::vector<LinkSpec>(n));
  for (int i = 0; i < n; ++i) {
    HostSpec h = small_scenario().platform.hosts[0];
    h.region = i;
    s.platform.regions.push_back("r" + std::to_string(i));
    s.platform.hosts.push_back(h);
    for (int j = 0; j < n; ++j) s.platform.wan[i][j] = LinkSpec{1e9, 1e-3 * (1 + std::abs(i - j))};
  }
  TrafficMatrix t = traffic_from_events(s.platform, {ev(0, "tp", 0, 9, 2e6, 0, 1)});
  GraphOptions o;
  o.nearest_neighbours = 1;
  const ClusterGraph g = build_cluster_graph(s, &t, o);
  expect_well_formed(g);
  bool found = false;
  for (const GraphEdge& e : g.edges) {
    if (e.src == 0 && e.dst == 9) {
      found = true;
      EXPECT_DOUBLE_EQ(e.traffic_bytes[static_cast<int>(CommKind::tp)], 2e6);
      EXPECT_NEAR(e.features[4 + 1], std::log10(1.0 + 2.0) / 3.0, 1e-6);
      EXPECT_EQ(e.features[10], 1.0f);
    }
    EXPECT_TRUE(std::abs(e.src - e.dst) == 1 || (std::min(e.src, e.dst) == 0 && std::max(e.src, e.dst) == 9))
        << e.src << "->" << e.dst << " is neither a nearest neighbour nor a traffic pair";
  }
  EXPECT_TRUE(found);
  TrafficMatrix wrong = TrafficMatrix::zeros(3);
  EXPECT_THROW(build_cluster_graph(s, &wrong, o), InputError);
}

TEST(ClusterGraph, SampledScenariosGiveWellFormedGraphs) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Scenario s = sample_scenario(seed);
    const ClusterGraph g = build_cluster_graph(s, nullptr);
    expect_well_formed(g);
    // Every host has at least min(k, H-1) neighbours.
    std::vector<int> deg(g.hosts, 0);
    for (const GraphEdge& e : g.edges) deg[e.src]++;
    for (int d : deg) EXPECT_GE(d, std::min(24, g.hosts - 1));
  }
}

}  // namespace
}  // namespace hulk
