// Collective benchmarks (a collective alone, as nccl-tests runs it) against closed forms: ring all-reduce and
// all-gather, NCCL's double binary tree between nodes, and busbw -> the NIC's bandwidth for large sizes.
// One simulation per test (SimGrid's engine runs once per process; ctest starts one process per test).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/engine/collective_bench_run.hpp"
#include "sim/engine/collectives.hpp"
#include "sim/scenario/collective_bench_file.hpp"
#include "sim_fixtures.hpp"

using namespace hulk_test;

namespace {
constexpr double kNicBps = 12.5e9;  // 100 Gbit/s
constexpr double kNicLat = 5e-6;

hulk::CollectiveBenchSpec bench(int nodes, int gpus, const std::string& op, const std::string& algorithm,
                                double bytes) {
  hulk::CollectiveBenchSpec s;
  s.name = "test";
  s.platform = grid_platform(1, nodes, gpus, kNicBps, kNicLat, kNicBps, 0.0);
  for (hulk::HostSpec& h : s.platform.hosts) h.intra_link = {1e13, 1e-9};  // NVLink far faster than the NIC
  s.op = op;
  s.algorithm = algorithm;
  s.bytes = bytes;
  s.nodes = nodes;
  s.gpus_per_node = gpus;
  return s;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

const char* kTcpBench = R"(name: tcp
platform:
  regions:
    - {name: dc, hosts: 2, gpus_per_host: 8, gpu: V100-32GB, host_link: {bandwidth: 32Gbps, latency: 10us, transport: tcp}}
collective: {op: all_reduce, bytes: 1GiB, nodes: 2, gpus_per_node: 1}
)";
}  // namespace

TEST(CollectiveBench, RingAllReduceIsTheClosedForm) {
  // One GPU per node: every ring hop crosses two NICs (latency a = 2 x 5 us) at B.
  const int n = 4;
  const double S = 64e6, a = 2 * kNicLat;
  const hulk::CollectiveBenchResult r = hulk::simulate_collective(bench(n, 1, "all_reduce", "ring", S));
  const double expected = 2 * (n - 1) * (a + S / (n * kNicBps));
  EXPECT_NEAR(r.time_s / expected, 1.0, 0.01) << r.time_s << " vs " << expected;
  EXPECT_EQ(r.messages, 2 * (n - 1) * n);
  EXPECT_NEAR(r.algbw_Bps, S / r.time_s, 1e-6 * r.algbw_Bps);
  EXPECT_NEAR(r.busbw_Bps, r.algbw_Bps * 2.0 * (n - 1) / n, 1e-6 * r.busbw_Bps);
}

TEST(CollectiveBench, RingBusBandwidthTendsToTheNicThroughEightGpusPerNode) {
  // 2 nodes x 8 GPUs, one ring through both nodes: each NIC carries one flow per direction; for 4 GiB the
  // latency terms vanish and busbw is the NIC's bandwidth.
  const hulk::CollectiveBenchResult r = hulk::simulate_collective(bench(2, 8, "all_reduce", "ring", 4.0 * (1 << 30)));
  EXPECT_NEAR(r.busbw_Bps / kNicBps, 1.0, 0.005) << r.busbw_Bps;
}

TEST(CollectiveBench, TreeBetweenTwoNodesSendsHalfTheRingsBytesThroughEachNic) {
  // NCCL's double binary tree over 2 nodes: each NIC direction carries S (half up in one tree, half down in the
  // other), the ring 2(n-1)/n S: busbw -> 2(n-1)/n x B, here 1.875 B, within the pipeline's fill (a chunk per hop).
  const double S = 4.0 * (1 << 30);
  const int n = 16;
  const hulk::CollectiveBenchResult r = hulk::simulate_collective(bench(2, 8, "all_reduce", "tree", S));
  EXPECT_NEAR(r.time_s / (S / kNicBps), 1.0, 0.01) << r.time_s;
  EXPECT_NEAR(r.busbw_Bps / (2.0 * (n - 1) / n * kNicBps), 1.0, 0.01);
  EXPECT_NEAR(r.bytes.intra_region, 2 * S, 1.0);  // S each way between the two nodes
}

TEST(CollectiveBench, TreeOverSevenNodesCarriesTwiceTheBufferThroughAnInnerNode) {
  // 7 single-GPU nodes: node 1 is inner in tree 0 (children 3 and 4, parent 0) and a leaf of tree 1; its NIC's
  // downlink takes S/2 from each child (reduce), S/2 from its parent in tree 0's broadcast and S/2 in tree 1's: 2S,
  // against the ring's 2(n-1)/n S. Over many nodes the tree is no faster than the ring, within its fill.
  const double S = 1.0 * (1 << 30);
  const hulk::CollectiveBenchResult r = hulk::simulate_collective(bench(7, 1, "all_reduce", "tree", S));
  EXPECT_GT(r.time_s, 2.0 * 6 / 7 * S / kNicBps);
  EXPECT_LT(r.time_s, 1.1 * 2 * S / kNicBps) << r.time_s;
}

TEST(CollectiveBench, AllGatherIsHalfARing) {
  const int n = 4;
  const double S = 64e6, a = 2 * kNicLat;
  const hulk::CollectiveBenchResult r = hulk::simulate_collective(bench(n, 1, "all_gather", "ring", S));
  const double expected = (n - 1) * (a + S / (n * kNicBps));
  EXPECT_NEAR(r.time_s / expected, 1.0, 0.01) << r.time_s << " vs " << expected;
  EXPECT_NEAR(r.busbw_Bps, r.algbw_Bps * (n - 1) / n, 1e-6 * r.busbw_Bps);
}

TEST(CollectiveBench, TransportFractionScalesTheNicAndCanBeCalibrated) {
  // 32 Gbit/s over tcp: the catalog's fraction, or the one fidelity's calibration sets, on the NIC.
  const std::string path = write_file("bench_tcp.yaml", kTcpBench);
  const hulk::CollectiveBenchSpec spec = hulk::load_collective_bench(path, {{"tcp", 0.5}});
  EXPECT_DOUBLE_EQ(spec.platform.hosts[0].host_link.bandwidth_Bps, 0.5 * 4e9);
  const hulk::CollectiveBenchResult r = hulk::simulate_collective(spec);
  EXPECT_NEAR(r.busbw_Bps / (0.5 * 4e9), 1.0, 0.005) << r.busbw_Bps;  // 2 ranks: busbw = algbw = the link
}

TEST(CollectiveBenchFile, RefusesBadValuesWithFileLineAndKey) {
  auto refusal = [](const std::string& name, const std::string& text) {
    const std::string path = write_file(name, text);
    try {
      hulk::load_collective_bench(path);
    } catch (const hulk::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // Each case: the file name, the text it replaces in kTcpBench and by what, and what the error must contain.
  struct BadCase {
    std::string file, replaced, by, expected;
  };
  const std::vector<BadCase> cases = {
      {"b1.yaml", "nodes: 2", "nodes: 3", "b1.yaml:5: collective.nodes: 3 nodes, but the platform has 2 hosts"},
      {"b2.yaml", "op: all_reduce", "op: all_gather, algorithm: tree",
       "b2.yaml:5: collective.algorithm: tree runs all_reduce only"},
      {"b3.yaml", "gpus_per_node: 1", "gpus_per_node: 9",
       "collective.gpus_per_node: 9 GPUs per node, but host 'dc-0' has 8"},
      {"b4.yaml", "bytes: 1GiB", "bytes: lots", "b4.yaml:5: collective.bytes"},
      {"b5.yaml", "op: all_reduce", "op: all_to_all", "collective.op"},
  };
  for (const BadCase& c : cases) {
    std::string bad = kTcpBench;
    bad.replace(bad.find(c.replaced), c.replaced.size(), c.by);
    const std::string message = refusal(c.file, bad);
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
  }
  EXPECT_FALSE(hulk::is_collective_bench_file(::testing::TempDir() + "no-such-file.yaml"));
  EXPECT_TRUE(hulk::is_collective_bench_file(write_file("b6.yaml", kTcpBench)));
}
