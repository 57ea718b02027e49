// The engine builds exactly the route model: for every ordered host pair, SimGrid's route crosses the model's
// links (same names, in order), with the model's latency and bottleneck. One platform per test (one engine per
// process).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/engine_startup.hpp"
#include "sim/engine/sg_platform.hpp"
#include "sim/engine/simgrid_xml.hpp"
#include "sim/topology/route_model.hpp"
#include "sim_fixtures.hpp"

namespace hulk {
namespace {

namespace sg4 = simgrid::s4u;

// SimGrid's name of a model link: split-duplex halves get _UP / _DOWN.
std::string sg_name(const RouteModel& model, int id) {
  const ModelLink& l = model.link(id);
  const std::string suffix = l.duplex == Duplex::up ? "_UP" : l.duplex == Duplex::down ? "_DOWN" : "";
  return model.link_name(id) + suffix;
}

void expect_engine_matches_model(const PlatformSpec& platform) {
  const auto engine = start_engine(NetworkSpec{});
  const SgPlatform sg = sg_build_platform(platform, hulk_test::small_job(1, 1, 1, 1, 1));
  const RouteModel model(platform);
  for (int a = 0; a < model.hosts(); ++a)
    for (int b = 0; b < model.hosts(); ++b) {
      SCOPED_TRACE("route " + std::to_string(a) + " -> " + std::to_string(b));
      std::vector<sg4::Link*> links;
      double latency_s = 0;
      sg.hosts[a]->route_to(sg.hosts[b], links, &latency_s);
      const Route& r = model.route(a, b);
      ASSERT_EQ(static_cast<int>(links.size()), r.n_path);
      double bottleneck = std::numeric_limits<double>::infinity();
      for (int i = 0; i < r.n_path; ++i) {
        EXPECT_EQ(links[i]->get_name(), sg_name(model, r.path[i]));
        EXPECT_EQ(links[i]->get_bandwidth(), model.link(r.path[i]).bandwidth_Bps);
        EXPECT_EQ(links[i]->get_latency(), model.link(r.path[i]).latency_s);
        bottleneck = std::min(bottleneck, links[i]->get_bandwidth());
      }
      // SimGrid sums link latencies in route order, the model NIC + NIC (+ WAN): equal up to rounding.
      EXPECT_NEAR(latency_s, r.latency_s, 1e-12 * r.latency_s);
      EXPECT_EQ(bottleneck, r.bandwidth_Bps);
    }
}

TEST(RouteModelEngine, RegionsPlatform) {
  PlatformSpec p = hulk_test::grid_platform(3, 2, 4, 1.25e9, 5e-5, 1.25e8, 0.02);
  p.hosts[3].host_link = {2.5e9, 1e-4};
  p.wan[0][2] = p.wan[2][0] = {6e7, 0.08};
  expect_engine_matches_model(p);
}

TEST(RouteModelEngine, PairLatencyPlatform) {
  PlatformSpec p = hulk_test::grid_platform(2, 2, 2, 1.25e9, 5e-5, 1.25e8, 0.02);
  p.host_pair_latency_s[{0, 3}] = 0.15;
  p.host_pair_latency_s[{1, 2}] = 0.07;
  p.host_pair_latency_s[{0, 1}] = 1e-3;
  expect_engine_matches_model(p);
}

TEST(RouteModelEngine, HostWanCapacityPlatform) {
  PlatformSpec p = hulk_test::grid_platform(2, 3, 2, 1.25e10, 5e-5, 1.25e8, 0.02);
  p.wan_capacity = WanCapacity::host;
  p.host_pair_latency_s[{0, 4}] = 0.15;
  expect_engine_matches_model(p);
}

// Symmetric routes (as the describer assumes): a -> b and b -> a cross the same links.
const char* kXml = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <host id="a" speed="1Gf"/>
    <host id="b" speed="1Gf"/>
    <host id="c" speed="1Gf"/>
    <link id="ab" bandwidth="10GBps" latency="10us"/>
    <link id="bc" bandwidth="1GBps" latency="40ms"/>
    <link id="c_slow" bandwidth="0.5GBps" latency="5ms"/>
    <route src="a" dst="b"><link_ctn id="ab"/></route>
    <route src="b" dst="c"><link_ctn id="bc"/><link_ctn id="c_slow"/></route>
    <route src="a" dst="c"><link_ctn id="ab"/><link_ctn id="bc"/><link_ctn id="c_slow"/></route>
  </zone>
</platform>
)";

// An XML platform: the engine loads the file and the model describes it; both agree on latency and bottleneck.
TEST(RouteModelEngine, XmlPlatform) {
  char tmpl[] = "/tmp/hulk_route_xml_XXXXXX";
  const int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  const std::string path = std::string(tmpl) + ".xml";
  std::rename(tmpl, path.c_str());
  std::ofstream(path) << kXml;
  SimgridXmlOptions o;
  o.file = path;
  o.has_default = true;
  o.default_gpus.count = 2;
  o.default_gpus.gpu = hulk_test::infinite_gpu();
  const PlatformSpec platform = describe_simgrid_xml(o);  // in a child process: no engine here yet
  ASSERT_EQ(platform.hosts.size(), 3u);
  const auto engine = start_engine(NetworkSpec{});
  const SgPlatform sg = sg_build_platform(platform, hulk_test::small_job(1, 1, 1, 1, 1));
  const RouteModel model(platform);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      if (a == b) continue;  // inside a host the XML has no route; the model uses the intra-host links
      SCOPED_TRACE("route " + std::to_string(a) + " -> " + std::to_string(b));
      std::vector<sg4::Link*> links;
      double latency_s = 0;
      sg.hosts[a]->route_to(sg.hosts[b], links, &latency_s);
      double bottleneck = std::numeric_limits<double>::infinity();
      for (const sg4::Link* l : links) bottleneck = std::min(bottleneck, l->get_bandwidth());
      EXPECT_DOUBLE_EQ(latency_s, model.route(a, b).latency_s);
      EXPECT_DOUBLE_EQ(bottleneck, model.route(a, b).bandwidth_Bps);
    }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace hulk
