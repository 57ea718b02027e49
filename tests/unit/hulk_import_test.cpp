// The Hulk data importer on the real 47-server data set: counts, every quirk reported, routing checked against an
// independent Floyd-Warshall over the measured pairs, and the GPU mapping rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/scenario/hulk_import.hpp"

using namespace hulk;

namespace {

std::string data_dir() { return std::string(HULK_SHARED_DATA) + "/hulk"; }

PlatformSpec imported() {
  HulkImportOptions o;
  o.dir = data_dir();
  return import_hulk(o);
}

int count_containing(const std::vector<std::string>& v, const std::string& needle) {
  return static_cast<int>(
      std::count_if(v.begin(), v.end(), [&](const std::string& s) { return s.find(needle) != std::string::npos; }));
}

// Raw edges read independently of the importer: (u, v) -> every value listed, self-loops excluded.
std::map<std::pair<int, int>, std::vector<double>> raw_edges() {
  std::ifstream in(data_dir() + "/edge.txt");
  std::map<std::pair<int, int>, std::vector<double>> out;
  int u, v;
  double ms;
  while (in >> u >> v >> ms)
    if (u != v) out[{std::min(u, v), std::max(u, v)}].push_back(ms);
  return out;
}

}  // namespace

TEST(HulkImport, HostsRegionsAndNames) {
  const PlatformSpec p = imported();
  ASSERT_EQ(p.hosts.size(), 47u);
  ASSERT_EQ(p.regions.size(), 12u);
  EXPECT_EQ(p.regions, (std::vector<std::string>{"Beijing", "Neimeng", "Nanjing", "Quanzhou", "California", "Tokyo",
                                                 "Berlin", "London", "New Delhi", "Paris", "Rome", "Brasilia"}));
  EXPECT_EQ(p.hosts[0].name, "Beijing-0");
  EXPECT_EQ(p.hosts[5].name, "Neimeng-5");
  EXPECT_EQ(p.hosts[9].name, "Neimeng-9");
  EXPECT_EQ(p.hosts[5].region, p.hosts[9].region);  // "Neimeng " and "Neimeng" merged
  EXPECT_EQ(p.hosts[46].name, "Brasilia-46");
  for (const auto& h : p.hosts) {
    EXPECT_DOUBLE_EQ(h.host_link.bandwidth_Bps, 1.25e9);
    EXPECT_DOUBLE_EQ(h.host_link.latency_s, 50e-6);
  }
  ASSERT_EQ(p.wan.size(), 12u);
  for (std::size_t a = 0; a < 12; ++a)
    for (std::size_t b = 0; b < 12; ++b)
      if (a != b) {
        EXPECT_DOUBLE_EQ(p.wan[a][b].bandwidth_Bps, 1.25e8);
        EXPECT_GT(p.wan[a][b].latency_s, 0);
      }
}

TEST(HulkImport, EveryQuirkIsReported) {
  const PlatformSpec p = imported();
  for (const auto& w : p.warnings) std::cout << "  warning: " << w << "\n";
  EXPECT_EQ(count_containing(p.warnings, "city 'Neimeng ' (4 rows) merged into 'Neimeng'"), 1);
  EXPECT_EQ(count_containing(p.warnings, "node_feature.csv:7:"), 1);  // first "Neimeng " row is file line 7
  EXPECT_EQ(count_containing(p.warnings, "self-loop"), 2);
  EXPECT_EQ(count_containing(p.warnings, "listed twice"), 2);
  EXPECT_EQ(count_containing(p.warnings, "implausible"), 1);
  const auto implausible = std::find_if(p.warnings.begin(), p.warnings.end(), [](const std::string& w) {
    return w.find("implausible") != std::string::npos;
  });
  ASSERT_NE(implausible, p.warnings.end());
  EXPECT_NE(implausible->find("Berlin"), std::string::npos) << *implausible;
  EXPECT_NE(implausible->find("Tokyo"), std::string::npos) << *implausible;
  EXPECT_EQ(count_containing(p.warnings, "no trailing newline"), 1);
  // Duplicates: the warning carries both values and the kept minimum.
  for (const auto& [pair, values] : raw_edges()) {
    if (values.size() < 2) continue;
    const std::string tag = "pair " + std::to_string(pair.first) + "-" + std::to_string(pair.second) + " listed twice";
    EXPECT_EQ(count_containing(p.warnings, tag), 1) << tag;
  }
  const long long measured = static_cast<long long>(raw_edges().size());
  const std::string routed = std::to_string(1081 - measured) + " of 1081 server pairs are not measured";
  EXPECT_EQ(count_containing(p.warnings, routed), 1) << routed;
  // Deterministic: same input, same warnings in the same order.
  EXPECT_EQ(imported().warnings, p.warnings);
}

TEST(HulkImport, LatenciesAreMeasuredMinimaOrShortestPaths) {
  const PlatformSpec p = imported();
  ASSERT_EQ(p.host_pair_latency_s.size(), 1081u);
  const auto raw = raw_edges();
  const int n = 47;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> d(n, std::vector<double>(n, inf));
  for (int i = 0; i < n; ++i) d[i][i] = 0;
  for (const auto& [pair, values] : raw) {
    const double m = *std::min_element(values.begin(), values.end());
    d[pair.first][pair.second] = d[pair.second][pair.first] = m;
  }
  // Floyd-Warshall: the independent oracle for routed pairs.
  auto fw = d;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) fw[i][j] = std::min(fw[i][j], fw[i][k] + fw[k][j]);
  for (const auto& [pair, lat] : p.host_pair_latency_s) {
    ASSERT_LT(pair.first, pair.second);
    const bool is_measured = raw.count(pair) != 0;
    const double expected_ms = is_measured ? d[pair.first][pair.second] : fw[pair.first][pair.second];
    EXPECT_NEAR(lat, expected_ms * 1e-3, 1e-12) << pair.first << "-" << pair.second;
    EXPECT_GT(lat, 0);
  }
}

TEST(HulkImport, GpuMappingRule) {
  const PlatformSpec p = imported();
  const auto expect = [&](int host, int count, const std::string& gpu) {
    EXPECT_EQ(p.hosts[host].gpus, count) << "host " << host;
    EXPECT_EQ(p.hosts[host].gpu.name, gpu) << "host " << host;
  };
  expect(44, 8, "A100-80GB");  // 640 GB, cc 8.0
  expect(1, 8, "A100-40GB");   // 320 GB, cc 8.0
  expect(3, 12, "V100-32GB");  // 384 GB, cc 7.0: 12 x 32 closer to 8 than 24 x 16
  expect(18, 9, "T4");         // 144 GB, cc 7.5
  expect(12, 4, "RTX3090");    // 96 GB, cc 8.6: RTX3090 and A10 tie, the first in gpus.yaml wins
  expect(0, 6, "RTX3090");     // 152 GB: no exact fit, round(152/24) = 6
  expect(15, 3, "P40");        // 64 GB, cc 6.1: round(64/24) = 3
  EXPECT_EQ(count_containing(p.warnings, "server 0 (Beijing, cc 8.6, 152 GB)"), 1);
  EXPECT_EQ(count_containing(p.warnings, "server 12 "), 0);  // exact fits are not warned about
  HulkImportOptions o;
  o.dir = data_dir();
  o.gpu_map["8.6"] = "A40";
  const PlatformSpec q = import_hulk(o);
  EXPECT_EQ(q.hosts[12].gpus, 2);
  EXPECT_EQ(q.hosts[12].gpu.name, "A40");
}

namespace {

// Copies the data set to a temp folder with one file replaced, to test malformed data.
std::string broken_copy(const std::string& name, const std::string& file, const std::string& text) {
  const std::string dir = testing::TempDir() + "/hulk_broken_" + name;
  std::filesystem::create_directories(dir);
  for (const char* f : {"node_feature.csv", "edge.txt"})
    std::filesystem::copy_file(data_dir() + "/" + f, dir + "/" + f, std::filesystem::copy_options::overwrite_existing);
  if (text.empty())
    std::filesystem::remove(dir + "/" + file);
  else
    std::ofstream(dir + "/" + file, std::ios::trunc) << text;
  return dir;
}

InputError import_error(const std::string& dir) {
  HulkImportOptions o;
  o.dir = dir;
  try {
    import_hulk(o);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for " << dir;
  return InputError("", 0, "", "");
}

}  // namespace

TEST(HulkImport, MalformedDataNamesFileAndLine) {
  const std::string nodes = "node,City,Capability,Memory\n0,A,8,320\n1,B,8,320\n2,B,8,abc\n";
  InputError e = import_error(broken_copy("mem", "node_feature.csv", nodes));
  EXPECT_NE(e.file().find("node_feature.csv"), std::string::npos);
  EXPECT_EQ(e.line(), 4);
  EXPECT_NE(std::string(e.what()).find("Memory 'abc' is not a number"), std::string::npos) << e.what();

  e = import_error(broken_copy("edge", "edge.txt", "0 1 10\n0 99 5\n"));
  EXPECT_NE(e.file().find("edge.txt"), std::string::npos);
  EXPECT_EQ(e.line(), 2);
  EXPECT_NE(std::string(e.what()).find("unknown node id 99"), std::string::npos) << e.what();

  e = import_error(broken_copy("nofile", "edge.txt", ""));
  EXPECT_NE(std::string(e.what()).find("edge.txt"), std::string::npos) << e.what();

  // Server 2 has no measurement at all: it cannot be routed.
  const std::string small = "node,City,Capability,Memory\n0,A,8,320\n1,B,8,320\n2,B,8,320\n";
  const std::string dir = broken_copy("disc", "node_feature.csv", small);
  std::ofstream(dir + "/edge.txt", std::ios::trunc) << "0 1 10\n";
  e = import_error(dir);
  EXPECT_NE(std::string(e.what()).find("server 2 (B-2) has no measured latency"), std::string::npos) << e.what();

  e = import_error(testing::TempDir() + "/no_such_hulk_dir");
  EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos);
}

TEST(HulkImport, ControlCharactersHexAndIslandsAreRefused) {
  // Without the checks, a NUL ends a latency early ("1\09" read as 1 ms), an escape character goes into host names
  // and outputs, "0x10" reads as 16 ms, and two islands of servers fail on a 1.8e305 s latency.
  const std::string nodes = "node,City,Capability,Memory\n0,A,8,320\n1,B,8,320\n2,C,8,320\n3,D,8,320\n";
  std::string dir = broken_copy("nul", "node_feature.csv", nodes);
  std::ofstream(dir + "/edge.txt", std::ios::trunc | std::ios::binary) << std::string("0 1 1\0009\n", 9);
  InputError e = import_error(dir);
  EXPECT_EQ(e.line(), 1);
  EXPECT_NE(std::string(e.what()).find("a control character at column 6"), std::string::npos) << e.what();

  e = import_error(broken_copy("esc", "node_feature.csv", "node,City,Capability,Memory\n0,A\033B,8,320\n"));
  EXPECT_NE(std::string(e.what()).find("a control character at column 4"), std::string::npos) << e.what();

  dir = broken_copy("hex", "node_feature.csv", nodes);
  std::ofstream(dir + "/edge.txt", std::ios::trunc) << "0 1 0x10\n";
  e = import_error(dir);
  EXPECT_NE(std::string(e.what()).find("latency '0x10' is not a number"), std::string::npos) << e.what();

  dir = broken_copy("islands", "node_feature.csv", nodes);
  std::ofstream(dir + "/edge.txt", std::ios::trunc) << "0 1 10\n2 3 10\n";
  e = import_error(dir);
  EXPECT_NE(std::string(e.what()).find("servers A-0 and C-2 are not connected by measured pairs"), std::string::npos)
      << e.what();
}

TEST(HulkImport, AByteOrderMarkImportsAsWithout) {
  // Spreadsheet programs save CSV with a UTF-8 byte-order mark: node_feature.csv was refused at its header (without
  // showing what was read). Both files with a BOM import exactly as the originals.
  const std::string dir = testing::TempDir() + "/hulk_bom";
  std::filesystem::create_directories(dir);
  for (const char* f : {"node_feature.csv", "edge.txt"}) {
    std::ifstream in(data_dir() + "/" + f, std::ios::binary);
    std::ofstream(dir + "/" + f, std::ios::trunc | std::ios::binary) << "\xEF\xBB\xBF" << in.rdbuf();
  }
  HulkImportOptions o;
  o.dir = dir;
  const PlatformSpec bom = import_hulk(o), plain = imported();
  EXPECT_EQ(bom.regions, plain.regions);
  ASSERT_EQ(bom.hosts.size(), plain.hosts.size());
  for (std::size_t i = 0; i < bom.hosts.size(); ++i) {
    EXPECT_EQ(bom.hosts[i].name, plain.hosts[i].name);
    EXPECT_EQ(bom.hosts[i].region, plain.hosts[i].region);
    EXPECT_EQ(bom.hosts[i].gpus, plain.hosts[i].gpus);
    EXPECT_EQ(bom.hosts[i].gpu.name, plain.hosts[i].gpu.name);
  }
  EXPECT_EQ(bom.host_pair_latency_s, plain.host_pair_latency_s);
  EXPECT_EQ(bom.warnings.size(), plain.warnings.size());

  // A header that is still wrong shows what was read.
  const InputError e = import_error(broken_copy("header", "node_feature.csv", "id,City,Capability,Memory\n0,A,8,80\n"));
  EXPECT_NE(std::string(e.what()).find("got 'id,City,Capability,Memory'"), std::string::npos) << e.what();
}
