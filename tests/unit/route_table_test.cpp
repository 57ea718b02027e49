// The factored route model (per-host and per-region-pair parts) against the table of every host pair: the same
// links, the same path, and the same bits of every latency and bandwidth, for every ordered host pair, under every
// network model's factors; platforms whose routes do not decompose keep the table.
#include <gtest/gtest.h>

#include <string>

#include "placement_test_platforms.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_platform;

// Three regions of different sizes, NICs and WAN figures differing per host and per region pair (wan[b][a] differs
// from wan[a][b]: only wan[a][b], a < b, is read), a host with a zero-bandwidth NIC (its capacity becomes 1 B/s)
// and an empty region.
PlatformSpec uneven_platform() {
  PlatformSpec p = make_platform({3, 1, 0, 2}, 4, a100(), {1.25e9, 5e-5}, {1.25e8, 0.02}, {150e9, 2e-6});
  p.hosts[1].host_link = {2e9, 3e-4};
  p.hosts[3].host_link = {0.0, 1e-5};
  p.hosts[4].intra_link = {50e9, 7e-6};
  p.wan[0][1] = {5e7, 0.031};
  p.wan[1][0] = {9e9, 0.5};
  p.wan[1][3] = {3e8, 0.0123};
  return p;
}

void expect_same_routes(const PlatformSpec& p, NetworkFactors f) {
  const RouteModel fast(p, f);
  const RouteModel full(p, f, RouteTable::full);
  ASSERT_FALSE(full.factored());
  ASSERT_EQ(fast.links(), full.links());
  for (int id = 0; id < full.links(); ++id) {
    EXPECT_EQ(fast.link_name(id), full.link_name(id));
    EXPECT_EQ(fast.link_bandwidth_Bps(id), full.link_bandwidth_Bps(id));
    EXPECT_EQ(fast.link(id).latency_s, full.link(id).latency_s);
  }
  for (int a = 0; a < full.hosts(); ++a)
    for (int b = 0; b < full.hosts(); ++b) {
      SCOPED_TRACE("route " + std::to_string(a) + " -> " + std::to_string(b));
      const Route x = fast.route(a, b), y = full.route(a, b);
      ASSERT_EQ(x.n_path, y.n_path);
      ASSERT_EQ(x.n_links, y.n_links);
      for (int i = 0; i < y.n_path; ++i) EXPECT_EQ(x.path[i], y.path[i]);
      for (int i = 0; i < y.n_links; ++i) EXPECT_EQ(x.links[i], y.links[i]);
      // Bitwise: the factored form must add in the same order as the table.
      EXPECT_EQ(x.latency_s, y.latency_s);
      EXPECT_EQ(x.bandwidth_Bps, y.bandwidth_Bps);
      EXPECT_EQ(x.flow_cap_Bps, y.flow_cap_Bps);
    }
  for (int ra = 0; ra < full.regions(); ++ra)
    for (int rb = 0; rb < full.regions(); ++rb) {
      EXPECT_EQ(fast.region_latency_s(ra, rb), full.region_latency_s(ra, rb));
      EXPECT_EQ(fast.region_bandwidth_Bps(ra, rb), full.region_bandwidth_Bps(ra, rb));
    }
}

TEST(RouteTable, FactoredEqualsFullTableForRegionPairWan) {
  const PlatformSpec p = uneven_platform();
  ASSERT_TRUE(RouteModel(p).factored());
  for (const char* model : {"CM02", "LV08", "SMPI"}) {
    SCOPED_TRACE(model);
    expect_same_routes(p, network_model_factors(model));
  }
}

TEST(RouteTable, FactoredEqualsFullTableForPerHostWan) {
  PlatformSpec p = uneven_platform();
  p.wan_capacity = WanCapacity::host;
  ASSERT_TRUE(RouteModel(p).factored());
  for (const char* model : {"CM02", "LV08"}) {
    SCOPED_TRACE(model);
    expect_same_routes(p, network_model_factors(model));
  }
}

TEST(RouteTable, OneRegionIsFactoredToo) {
  const PlatformSpec p = make_platform({5}, 8, a100());
  ASSERT_TRUE(RouteModel(p).factored());
  expect_same_routes(p, {});
}

// Per-pair data is what a table holds: measured pair latencies and XML descriptions keep it (and so agree with the
// forced table trivially; what matters is that they are not factored).
TEST(RouteTable, PerPairPlatformsKeepTheTable) {
  PlatformSpec measured = uneven_platform();
  measured.host_pair_latency_s[{0, 4}] = 0.2;
  EXPECT_FALSE(RouteModel(measured).factored());
  expect_same_routes(measured, network_model_factors("LV08"));

  PlatformSpec xml = make_platform({2, 1}, 2, a100());
  xml.simgrid_xml = "described.xml";
  xml.host_pair_latency_s = {{{0, 1}, 3e-5}, {{0, 2}, 0.05}, {{1, 2}, 0.06}};
  xml.host_pair_bandwidth_Bps = {{{0, 1}, 5e9}, {{0, 2}, 1e9}, {{1, 2}, 2e9}};
  EXPECT_FALSE(RouteModel(xml).factored());
  expect_same_routes(xml, {});
}

}  // namespace
}  // namespace hulk
