// describe_simgrid_xml(): XML host order, regions from netzones, route latency and bottleneck bandwidth.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/engine/simgrid_xml.hpp"

namespace {

std::string write_temp(const std::string& text) {
  char tmpl[] = "/tmp/hulk_xml_XXXXXX";
  int fd = mkstemp(tmpl);
  EXPECT_GE(fd, 0);
  close(fd);
  std::string path = std::string(tmpl) + ".xml";
  std::rename(tmpl, path.c_str());
  std::ofstream(path) << text;
  return path;
}

// Host names are chosen so that XML order (z, a, m) differs from name order (a, m, z).
const char* kTwoZones = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <zone id="east" routing="Full">
      <host id="z_east1" speed="1Gf"/>
      <host id="a_east2" speed="1Gf"/>
      <link id="e_l1" bandwidth="10GBps" latency="10us"/>
      <link id="e_l2" bandwidth="5GBps" latency="20us"/>
      <route src="z_east1" dst="a_east2"><link_ctn id="e_l1"/><link_ctn id="e_l2"/></route>
    </zone>
    <zone id="west" routing="Full">
      <host id="m_west" speed="1Gf"/>
      <link id="w_self" bandwidth="50GBps" latency="3us"/>
      <route src="m_west" dst="m_west"><link_ctn id="w_self"/></route>
    </zone>
    <link id="wan" bandwidth="1GBps" latency="50ms"/>
    <zoneRoute src="east" dst="west" gw_src="z_east1" gw_dst="m_west"><link_ctn id="wan"/></zoneRoute>
  </zone>
</platform>
)";

// One host alone in a Full zone without any route: SimGrid crashes on its route to itself.
const char* kLoneHost = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <host id="h0" speed="1Gf"/>
  </zone>
</platform>
)";

hulk::SimgridXmlOptions options_for(const std::string& path) {
  hulk::SimgridXmlOptions o;
  o.file = path;
  o.has_default = true;
  o.default_gpus.count = 2;
  o.default_gpus.gpu.name = "X";
  o.default_gpus.gpu.fp16_flops = 1e14;
  return o;
}

}  // namespace

TEST(SimgridXml, HostsInXmlOrderRegionsAndRoutes) {
  const std::string path = write_temp(kTwoZones);
  hulk::SimgridXmlOptions o = options_for(path);
  o.per_host["m_west"].count = 4;
  hulk::PlatformSpec p = hulk::describe_simgrid_xml(o);
  ASSERT_EQ(p.hosts.size(), 3u);
  EXPECT_EQ(p.hosts[0].name, "z_east1");
  EXPECT_EQ(p.hosts[1].name, "a_east2");
  EXPECT_EQ(p.hosts[2].name, "m_west");
  ASSERT_EQ(p.regions.size(), 2u);
  EXPECT_EQ(p.regions[0], "east");
  EXPECT_EQ(p.regions[1], "west");
  EXPECT_EQ(p.hosts[0].region, 0);
  EXPECT_EQ(p.hosts[2].region, 1);
  EXPECT_EQ(p.hosts[0].gpus, 2);
  EXPECT_EQ(p.hosts[2].gpus, 4);
  EXPECT_EQ(p.simgrid_xml, path);
  // z_east1 -> a_east2: e_l1 + e_l2.
  EXPECT_NEAR(p.host_pair_latency_s.at({0, 1}), 30e-6, 1e-12);
  EXPECT_NEAR(p.host_pair_bandwidth_Bps.at({0, 1}), 5e9, 1);
  // z_east1 -> m_west: the WAN only (z_east1 is the gateway).
  EXPECT_NEAR(p.host_pair_latency_s.at({0, 2}), 50e-3, 1e-12);
  EXPECT_NEAR(p.host_pair_bandwidth_Bps.at({0, 2}), 1e9, 1);
  // a_east2 -> m_west: back to the gateway, then the WAN.
  EXPECT_NEAR(p.host_pair_latency_s.at({1, 2}), 50e-3 + 30e-6, 1e-12);
  EXPECT_NEAR(p.host_pair_bandwidth_Bps.at({1, 2}), 1e9, 1);
  EXPECT_NEAR(p.wan[0][1].latency_s, 50e-3 + 30e-6, 1e-12);
  EXPECT_NEAR(p.wan[1][0].bandwidth_Bps, 1e9, 1);
  std::remove(path.c_str());
}

TEST(SimgridXml, OnlyListedHostsWithoutDefault) {
  const std::string path = write_temp(kTwoZones);
  hulk::SimgridXmlOptions o = options_for(path);
  o.has_default = false;
  o.per_host["m_west"].count = 1;
  o.per_host["a_east2"].count = 1;
  hulk::PlatformSpec p = hulk::describe_simgrid_xml(o);
  ASSERT_EQ(p.hosts.size(), 2u);
  EXPECT_EQ(p.hosts[0].name, "a_east2");
  EXPECT_EQ(p.hosts[1].name, "m_west");
  EXPECT_NEAR(p.host_pair_latency_s.at({0, 1}), 50e-3 + 30e-6, 1e-12);
  std::remove(path.c_str());
}

TEST(SimgridXml, UnknownHostIsInputError) {
  const std::string path = write_temp(kTwoZones);
  hulk::SimgridXmlOptions o = options_for(path);
  o.per_host["nope"].count = 1;
  try {
    hulk::describe_simgrid_xml(o);
    FAIL() << "expected InputError";
  } catch (const hulk::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), path);
  }
  std::remove(path.c_str());
}

TEST(SimgridXml, MalformedXmlIsInputErrorNamingTheFile) {
  const std::string path = write_temp(
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      "<platform version=\"4.1\">\n  <zone id=\"w\" routing=\"Full\">\n"
      "    <host id=\"h\" speed=\"1Gf\"/>\n    <route src=\"h\" dst=\"nowhere\"/>\n  </zone>\n</platform>\n");
  try {
    hulk::describe_simgrid_xml(options_for(path));
    FAIL() << "expected InputError";
  } catch (const hulk::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), path);
  }
  const std::string broken = write_temp("<platform version=\"4.1\"><zone id=\"w\" routing=\"Full\">");
  try {
    hulk::describe_simgrid_xml(options_for(broken));
    FAIL() << "expected InputError";
  } catch (const hulk::InputError& e) {
    EXPECT_EQ(e.line(), 1) << e.what();  // SimGrid reports the line; we keep it
  }
  std::remove(path.c_str());
  std::remove(broken.c_str());
}

TEST(SimgridXml, MissingFileIsInputError) {
  EXPECT_THROW(hulk::describe_simgrid_xml(options_for("/nonexistent/platform.xml")), hulk::InputError);
}

TEST(SimgridXml, HostsReachThemselvesOverTheirOwnRouteOrTheLoopback) {
  // m_west's route to itself is its own link: its GPUs exchange messages there (the evaluator's intra-host link),
  // with a warning; the east hosts have no such route, SimGrid's loopback (intra_host) carries theirs.
  const std::string path = write_temp(kTwoZones);
  hulk::SimgridXmlOptions o = options_for(path);
  o.intra_host = {150e9, 2e-6};
  const hulk::PlatformSpec p = hulk::describe_simgrid_xml(o);
  EXPECT_DOUBLE_EQ(p.hosts[2].intra_link.bandwidth_Bps, 50e9);
  EXPECT_DOUBLE_EQ(p.hosts[2].intra_link.latency_s, 3e-6);
  EXPECT_DOUBLE_EQ(p.hosts[0].intra_link.bandwidth_Bps, 150e9);
  bool warned = false;
  for (const std::string& w : p.warnings) warned = warned || w.find("m_west") != std::string::npos;
  EXPECT_TRUE(warned);
  std::remove(path.c_str());
}

TEST(SimgridXml, ALoneHostWithoutRoutesNeedsOneGpuOrARouteToItself) {
  const std::string path = write_temp(kLoneHost);
  hulk::SimgridXmlOptions o = options_for(path);
  o.default_gpus.count = 1;
  EXPECT_EQ(hulk::describe_simgrid_xml(o).hosts.size(), 1u);  // one GPU sends nothing to itself
  o.default_gpus.count = 2;
  try {
    hulk::describe_simgrid_xml(o);
    FAIL() << "expected InputError";
  } catch (const hulk::InputError& e) {
    EXPECT_EQ(e.key(), "platform.simgrid.file");
    EXPECT_NE(std::string(e.what()).find("route from host 'h0' to itself"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

TEST(SimgridXml, ATorusClusterNeedsOneGpuPerNode) {
  // A torus cluster gives a node no route to itself and no loopback: SimGrid aborts on a message between two GPUs
  // of one node ("no connecting path"), found when loading rather than in the middle of a simulation.
  const std::string path = write_temp(R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="t" topology="TORUS" topo_parameters="2,2,2" prefix="t" radical="0-7" suffix="" speed="1Gf"
           bw="25Gbps" lat="1us"/>
</platform>
)");
  hulk::SimgridXmlOptions o = options_for(path);
  o.default_gpus.count = 1;
  EXPECT_EQ(hulk::describe_simgrid_xml(o).hosts.size(), 8u);
  o.default_gpus.count = 2;
  try {
    hulk::describe_simgrid_xml(o);
    FAIL() << "expected InputError";
  } catch (const hulk::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a route from each host with several GPUs to itself"),
              std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

TEST(SimgridXml, AVivaldiZoneLoadsFromPeersAndNamesPlainHostsAsTheFault) {
  // SimGrid 3.32 routes a Vivaldi zone through its peers' links; plain <host> elements there fail inside SimGrid
  // with a bare "unordered_map::at", which the error now explains.
  const char* zone = R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Vivaldi">
    %s
  </zone>
</platform>
)";
  const auto with = [&](const char* body) {
    char text[1024];
    std::snprintf(text, sizeof text, zone, body);
    return write_temp(text);
  };
  const std::string peers = with(R"(<peer id="a" speed="1Tf" bw_in="1Gbps" bw_out="1Gbps" coordinates="0 0 0"/>
    <peer id="b" speed="1Tf" bw_in="1Gbps" bw_out="1Gbps" coordinates="10 10 0"/>)");
  hulk::SimgridXmlOptions o = options_for(peers);
  o.default_gpus.count = 1;
  EXPECT_EQ(hulk::describe_simgrid_xml(o).hosts.size(), 2u);
  const std::string hosts = with(R"(<host id="a" speed="1Tf" coordinates="0 0 0"/>
    <host id="b" speed="1Tf" coordinates="10 10 0"/>)");
  o = options_for(hosts);
  o.default_gpus.count = 1;
  try {
    hulk::describe_simgrid_xml(o);
    FAIL() << "expected InputError";
  } catch (const hulk::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("Vivaldi zone"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("<peer>"), std::string::npos) << e.what();
  }
  std::remove(peers.c_str());
  std::remove(hosts.c_str());
}
