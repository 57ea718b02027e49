// One SimGrid zone per region (sg_build_platform's region_zones): SimGrid must compose, for every ordered host
// pair, exactly the model's links in the model's order; the split must be taken where the routes decompose (else a
// test comparing the two builds would compare the single zone with itself) and refused where they do not (per-pair
// latency links, per-host WAN links); and a whole simulation must give the same result.json and comm.csv, byte for
// byte, with and without it (each run in its own child process: one engine per process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/subprocess.hpp"
#include "sim/engine/engine_startup.hpp"
#include "sim/engine/sg_platform.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/report/outputs.hpp"
#include "sim/topology/route_model.hpp"
#include "sim_fixtures.hpp"

namespace hulk {
namespace {

namespace sg4 = simgrid::s4u;

std::string sg_name(const RouteModel& model, int id) {
  const ModelLink& l = model.link(id);
  const std::string suffix = l.duplex == Duplex::up ? "_UP" : l.duplex == Duplex::down ? "_DOWN" : "";
  return model.link_name(id) + suffix;
}

NetworkSpec cm02() {
  NetworkSpec n;
  n.model = "CM02";
  return n;
}

// Builds the platform with region_zones asked for; returns how many zones SimGrid has under the root, after checking
// that every route crosses the model's links in order.
std::size_t expect_routes_match(const PlatformSpec& platform) {
  const auto engine = start_engine(cm02());
  const SgPlatform sg = sg_build_platform(platform, hulk_test::small_job(1, 1, 1, 1, 1), true, {}, true);
  const RouteModel model(platform);
  for (int a = 0; a < model.hosts(); ++a)
    for (int b = 0; b < model.hosts(); ++b) {
      SCOPED_TRACE("route " + std::to_string(a) + " -> " + std::to_string(b));
      std::vector<sg4::Link*> links;
      double latency_s = 0;
      sg.hosts[a]->route_to(sg.hosts[b], links, &latency_s);
      const Route& r = model.route(a, b);
      EXPECT_EQ(sg.latency_s(a, b), a == b ? 0.0 : r.latency_s);
      EXPECT_EQ(static_cast<int>(links.size()), r.n_path);
      for (int i = 0; i < r.n_path && i < static_cast<int>(links.size()); ++i)
        EXPECT_EQ(links[i]->get_name(), sg_name(model, r.path[i]));
    }
  return engine->get_netzone_root()->get_children().size();
}

TEST(RegionZones, SplitRoutesCrossTheModelsLinks) {
  PlatformSpec p = hulk_test::grid_platform(3, 3, 2, 1.25e9, 5e-5, 1.25e8, 0.02);
  p.hosts[4].host_link = {2.5e9, 1e-4};
  p.wan[0][2] = p.wan[2][0] = {6e7, 0.08};
  EXPECT_EQ(expect_routes_match(p), 3u);
}

TEST(RegionZones, EmptyRegionGetsNoZone) {
  PlatformSpec p = hulk_test::grid_platform(3, 2, 2, 1.25e9, 5e-5, 1.25e8, 0.02);
  p.hosts.erase(p.hosts.begin() + 2, p.hosts.begin() + 4);  // region 1 without hosts
  EXPECT_EQ(expect_routes_match(p), 2u);
}

TEST(RegionZones, PairLatenciesKeepOneZone) {
  PlatformSpec p = hulk_test::grid_platform(2, 2, 2, 1.25e9, 5e-5, 1.25e8, 0.02);
  p.host_pair_latency_s[{0, 3}] = 0.15;
  EXPECT_EQ(expect_routes_match(p), 0u);
}

TEST(RegionZones, HostWanCapacityKeepsOneZone) {
  PlatformSpec p = hulk_test::grid_platform(2, 3, 2, 1.25e10, 5e-5, 1.25e8, 0.02);
  p.wan_capacity = WanCapacity::host;
  EXPECT_EQ(expect_routes_match(p), 0u);
}

TEST(RegionZones, OneRegionKeepsOneZone) {
  EXPECT_EQ(expect_routes_match(hulk_test::grid_platform(1, 4, 2, 1.25e9, 5e-5, 1.25e8, 0.02)), 0u);
}

// Round-robin over three regions: tensor-parallel rings, pipeline and data-parallel traffic all cross the WAN and
// contend on NICs and WAN links, so the solver sees every kind of route.
TEST(RegionZones, SimulationIsByteIdentical) {
  PlatformSpec p = hulk_test::grid_platform(3, 2, 4, 12.5e9, 5e-6, 1.25e9, 20e-3);
  p.wan[0][2] = p.wan[2][0] = {6e8, 0.05};
  Scenario s = hulk_test::scenario(p, hulk_test::small_job(/*dp*/ 4, /*tp*/ 2, /*pp*/ 3, 6, 4));
  s.network = cm02();
  s.only_job().collective = "hierarchical";
  Placement placement;
  const int hosts = static_cast<int>(p.hosts.size());
  for (int r = 0; r < s.only_job().par.ranks(); ++r) placement.gpu_of_rank.push_back({r % hosts, r / hosts});
  const auto run = [&](bool zones) {
    return run_in_child([&] {
      SimOptions o;
      o.region_zones = zones;
      const SimResult r = simulate(s, placement, o);
      return nlohmann::json{{"result", result_to_json(s, r).dump()}, {"comm_csv", comm_csv(s, r)}};
    });
  };
  const nlohmann::json one_zone = run(false), zones = run(true);
  EXPECT_EQ(zones["result"], one_zone["result"]);
  EXPECT_EQ(zones["comm_csv"], one_zone["comm_csv"]);
  EXPECT_GT(zones["comm_csv"].get<std::string>().size(), 1000u);
}

}  // namespace
}  // namespace hulk
