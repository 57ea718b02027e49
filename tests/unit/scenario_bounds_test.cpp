// Bounds of scenario quantities (sim/scenario/bounds.hpp, scenarios/README.md "Bounds"): one case per kind at least,
// both sides of the range, non-finite numbers, three absurd values, the same bounds through
// `--set` overrides, the Hulk data importer and code-built platforms.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/core/units.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/scenario/bounds.hpp"
#include "sim/scenario/hulk_import.hpp"
#include "sim/scenario/scenario.hpp"

using namespace hulk;

namespace {

std::string example_path() { return std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-region-gpt.yaml"; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string temp_dir() {
  const std::string dir = ::testing::TempDir() + "/hulk_bounds_tests";
  std::filesystem::create_directories(dir);
  return dir;
}

struct Outcome {
  bool ok = false;
  std::string what, key;
  int line = 0;
};

// Loads the example with `from` replaced by `to` (each must occur once), through the loader of the CLI.
Outcome load_edited(const std::string& from, const std::string& to, const std::vector<Override>& ov = {}) {
  std::string text = read(example_path());
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  // One file per test: ctest runs the tests of this binary in parallel processes.
  const std::string path =
      temp_dir() + "/" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml";
  std::ofstream(path, std::ios::trunc) << text;
  Outcome o;
  try {
    load_scenario_file(path, ov);
    o.ok = true;
  } catch (const InputError& e) {
    o.what = e.what();
    o.key = e.key();
    o.line = e.line();
  }
  return o;
}

Outcome with_override(const std::string& key, const std::string& value) {
  Outcome o;
  try {
    load_scenario_file(example_path(), {{key, value}});
    o.ok = true;
  } catch (const InputError& e) {
    o.what = e.what();
    o.key = e.key();
    o.line = e.line();
  }
  return o;
}

void expect_refused(const Outcome& o, const std::string& key, const std::string& substring) {
  EXPECT_FALSE(o.ok) << key;
  EXPECT_EQ(o.key, key) << o.what;
  EXPECT_NE(o.what.find(substring), std::string::npos) << o.what;
  EXPECT_EQ(o.what.find('\n'), std::string::npos) << "one problem, one line: " << o.what;
}

}  // namespace

TEST(Bounds, TheThreeAbsurdValuesOfIssue13AreRefusedWithTheirKeyAndLine) {
  Outcome o = load_edited("default: {bandwidth: 1Gbps, latency: 80ms}", "default: {bandwidth: 1Gbps, latency: 1e308s}");
  expect_refused(o, "platform.wan.default.latency", "'1e308s' is out of range (expected a latency in 0s .. 10s");
  EXPECT_EQ(o.line, 16);
  o = load_edited("bandwidth: 0.6Gbps", "bandwidth: 1e-300Gbps");
  expect_refused(o, "platform.wan.pairs.0.bandwidth", "expected a bandwidth in 1kbps .. 10Tbps");
  EXPECT_EQ(o.line, 18);
  o = load_edited("global_batch: 64 ", "global_batch: 640000000 ");
  expect_refused(o, "job.global_batch", "640000000 is too large (expected an integer in [1, 10000000]");
  EXPECT_EQ(o.line, 23);
}

TEST(Bounds, LatencyBothEnds) {
  EXPECT_TRUE(load_edited("latency: 75ms}", "latency: 10s}").ok);
  EXPECT_TRUE(load_edited("latency: 75ms}", "latency: 0}").ok);
  expect_refused(load_edited("latency: 75ms}", "latency: 10.5s}"), "platform.wan.pairs.0.latency", "0s .. 10s");
  expect_refused(load_edited("latency: 75ms}", "latency: 1min}"), "platform.wan.pairs.0.latency", "0s .. 10s");
}

TEST(Bounds, BandwidthBothEnds) {
  EXPECT_TRUE(load_edited("bandwidth: 0.6Gbps", "bandwidth: 1kbps").ok);
  EXPECT_TRUE(load_edited("bandwidth: 0.6Gbps", "bandwidth: 10Tbps").ok);
  expect_refused(load_edited("bandwidth: 0.6Gbps", "bandwidth: 999bps"), "platform.wan.pairs.0.bandwidth",
                 "'999bps' is out of range");
  expect_refused(load_edited("bandwidth: 0.6Gbps", "bandwidth: 2TBps"), "platform.wan.pairs.0.bandwidth",
                 "1kbps .. 10Tbps");
}

TEST(Bounds, GpuComputeAndMemory) {
  const std::string gpu = "{name: A100-40GB-custom, flops: 312Tf, memory: 40GB}";
  // The smallest memory is a valid value; the job then fits no GPU, so its memory check is off here.
  EXPECT_TRUE(load_edited(gpu, "{name: g, flops: 1Gf, fp32: 1Gf, memory: 1MB}", {{"job.check_memory", "false"}}).ok);
  expect_refused(load_edited(gpu, "{name: g, flops: 0.5Gf, memory: 40GB}"), "platform.regions.1.gpu.flops",
                 "expected a compute rate in 1Gf .. 10Pf");
  expect_refused(load_edited(gpu, "{name: g, flops: 20Pf, memory: 40GB}"), "platform.regions.1.gpu.flops",
                 "'20Pf' is out of range");
  expect_refused(load_edited(gpu, "{name: g, flops: 312Tf, fp32: 1e20, memory: 40GB}"),
                 "platform.regions.1.gpu.fp32", "1Gf .. 10Pf");
  expect_refused(load_edited(gpu, "{name: g, flops: 312Tf, memory: 100kB}"), "platform.regions.1.gpu.memory",
                 "expected a memory size in 1MB .. 10TB");
  expect_refused(load_edited(gpu, "{name: g, flops: 312Tf, memory: 11TB}"), "platform.regions.1.gpu.memory",
                 "'11TB' is out of range");
}

TEST(Bounds, TcpWindow) {
  EXPECT_TRUE(load_edited("tcp_window: 0}", "tcp_window: 4MiB}").ok);
  expect_refused(load_edited("tcp_window: 0}", "tcp_window: 100B}"), "network.tcp_window", "1kB .. 1GB");
  expect_refused(load_edited("tcp_window: 0}", "tcp_window: 2GB}"), "network.tcp_window", "1kB .. 1GB");
}

TEST(Bounds, HostsAndGpusPerHost) {
  EXPECT_TRUE(load_edited("gpus_per_host: 2\n      gpu: V100", "gpus_per_host: 64\n      gpu: V100").ok);
  expect_refused(load_edited("gpus_per_host: 2\n      gpu: V100", "gpus_per_host: 65\n      gpu: V100"),
                 "platform.regions.0.gpus_per_host", "expected an integer in [1, 64], got 65");
  expect_refused(load_edited("hosts: 4\n      gpus_per_host: 2\n      gpu: V100",
                             "hosts: 4097\n      gpus_per_host: 2\n      gpu: V100"),
                 "platform.regions.0.hosts", "expected an integer in [1, 4096], got 4097");
}

TEST(Bounds, ModelDimensions) {
  const std::string preset = "model: {preset: gpt3-xl}";
  struct {
    const char* field;
    const char* value;
    const char* message;
  } cases[] = {{"layers", "1001", "1001 is too large (expected an integer in [1, 1000]"},
               {"hidden", "262144", "262144 is too large (expected an integer in [1, 131072]"},
               {"heads", "2048", "2048 is too large (expected an integer in [1, 1024]"},
               {"seq_len", "2000000", "2000000 is too large (expected an integer in [1, 1048576]"},
               {"vocab", "20000000", "20000000 is too large (expected an integer in [1, 10000000]"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.field);
    expect_refused(load_edited(preset, "model: {preset: gpt3-xl, " + std::string(c.field) + ": " + c.value + "}"),
                   std::string("job.model.") + c.field, c.message);
  }
}

TEST(Bounds, BatchIterationsAndMicroBatchesPerPipeline) {
  expect_refused(load_edited("micro_batch: 4", "micro_batch: 200000"), "job.micro_batch",
                 "200000 is too large (expected an integer in [1, 100000]");
  expect_refused(load_edited("iterations: 2", "iterations: 1001"), "job.iterations",
                 "1001 is too large (expected an integer in [1, 1000]");
  // 80,000 sequences / (dp 2 x micro_batch 4) = 10,000 micro-batches: the limit itself is accepted ...
  EXPECT_TRUE(load_edited("global_batch: 64 ", "global_batch: 80000 ").ok);
  // ... one more step is not.
  expect_refused(load_edited("global_batch: 64 ", "global_batch: 80008 "), "job.global_batch",
                 "= 10001 micro-batches per pipeline is too many (expected at most 10000");
  expect_refused(load_edited("dp: 2,", "dp: 2000000,"), "job.parallelism.dp",
                 "2000000 is too large (expected an integer in [1, 1000000]");
}

TEST(Bounds, NonFiniteNumbersAreRefusedEverywhere) {
  expect_refused(load_edited("utilisation: 0.4", "utilisation: .nan"), "job.utilisation", "expected a number");
  expect_refused(load_edited("utilisation: 0.4", "utilisation: .inf"), "job.utilisation", "expected a number");
  expect_refused(load_edited("latency: 75ms}", "latency: nan}"), "platform.wan.pairs.0.latency", "not a latency");
  expect_refused(load_edited("bandwidth: 0.6Gbps", "bandwidth: infGbps"), "platform.wan.pairs.0.bandwidth",
                 "not a bandwidth");
  // A finite number whose unit makes it overflow.
  expect_refused(load_edited("bandwidth: 0.6Gbps", "bandwidth: 1e308Tbps"), "platform.wan.pairs.0.bandwidth",
                 "number out of range");
  expect_refused(load_edited("iterations: 2", "iterations: .inf"), "job.iterations", "expected an integer");
  expect_refused(load_edited("gpus_per_host: 2\n      gpu: V100", "gpus_per_host: .nan\n      gpu: V100"),
                 "platform.regions.0.gpus_per_host", "expected an integer");
  EXPECT_THROW(parse_latency_s("1e400s"), std::invalid_argument);
  EXPECT_THROW(parse_flops("1e308Pf"), std::invalid_argument);
  EXPECT_THROW(parse_bytes("inf"), std::invalid_argument);
}

TEST(Bounds, OverridesMeetTheSameBounds) {
  Outcome o = with_override("wan.default.latency", "1e308s");
  expect_refused(o, "platform.wan.default.latency", "0s .. 10s");
  EXPECT_NE(o.what.find("(value from --set wan.default.latency=1e308s)"), std::string::npos) << o.what;
  expect_refused(with_override("wan.pairs.0.bandwidth", "1e-300Gbps"), "platform.wan.pairs.0.bandwidth",
                 "1kbps .. 10Tbps");
  expect_refused(with_override("job.global_batch", "640000000"), "job.global_batch", "is too large");
  expect_refused(with_override("regions.tokyo.gpus_per_host", "128"), "platform.regions.1.gpus_per_host",
                 "[1, 64]");
  EXPECT_TRUE(with_override("wan.pairs.0.latency", "10s").ok);
}

TEST(Bounds, BoundProblemText) {
  EXPECT_EQ(bound_problem(5.0, bounds::kLatency, "5s"), "");
  EXPECT_NE(bound_problem(11.0, bounds::kLatency, "11s").find("'11s' is out of range"), std::string::npos);
  EXPECT_NE(bound_problem(std::nan(""), bounds::kLatency, "nan"), "");
  EXPECT_NE(bound_problem(1e9 / 8 * 1e-301, bounds::kBandwidth, "x"), "");
}

TEST(Bounds, PlatformsBuiltInCodeOrFromDataAreChecked) {
  PlatformSpec p;
  p.regions = {"a", "b"};
  HostSpec h;
  h.name = "a-0";
  h.gpus = 8;
  h.gpu.fp16_flops = 312e12;
  h.gpu.fp32_flops = 19.5e12;
  h.gpu.memory_bytes = 40e9;
  h.host_link = {1.25e9, 50e-6};
  h.intra_link = {150e9, 2e-6};
  p.hosts = {h};
  p.wan.assign(2, std::vector<LinkSpec>(2, LinkSpec{1.25e8, 0.08}));
  EXPECT_TRUE(platform_bound_problems(p).empty());
  p.hosts[0].gpus = 65;
  p.hosts[0].gpu.memory_bytes = 1e15;
  p.wan[0][1].latency_s = p.wan[1][0].latency_s = 1e308;
  p.host_pair_latency_s[{0, 0}] = std::nan("");
  const std::vector<std::string> problems = platform_bound_problems(p);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_NE(problems[0].find("host a-0: 65 GPUs (expected at most 64 per host)"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("host a-0 GPU memory"), std::string::npos) << problems[1];
  EXPECT_NE(problems[2].find("WAN a-b latency"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("latency a-0 - a-0"), std::string::npos) << problems[3];
}

namespace {
// A two-server Hulk data folder (capability 8.0 = A100) with the given memory of server 1 and latency.
std::string hulk_dir(const std::string& name, const std::string& memory_gb, const std::string& latency_ms) {
  const std::string dir = temp_dir() + "/" + name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/node_feature.csv", std::ios::trunc)
      << "node,City,Capability,Memory\n0,Paris,8.0,320\n1,Tokyo,8.0," << memory_gb << "\n";
  std::ofstream(dir + "/edge.txt", std::ios::trunc) << "0 1 " << latency_ms << "\n";
  return dir;
}
}  // namespace

TEST(Bounds, HulkDataMeetsTheBounds) {
  HulkImportOptions o;
  o.dir = hulk_dir("ok", "320", "120");
  EXPECT_NO_THROW(import_hulk(o));
  o.dir = hulk_dir("slow", "320", "20000");
  try {
    import_hulk(o);
    ADD_FAILURE() << "20 s latency accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("edge.txt:1: latency '20000 ms' is out of range"), std::string::npos)
        << e.what();
  }
  o.dir = hulk_dir("huge", "1000000", "120");
  try {
    import_hulk(o);
    ADD_FAILURE() << "a server with 12,500 GPUs accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("node_feature.csv:3: Memory 1e+06 GB means"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("expected at most 64 GPUs per server"), std::string::npos) << e.what();
  }
  for (const char* memory : {"1e21", "1e300"}) {  // past long long: std::llround's answer is unspecified
    o.dir = hulk_dir(std::string("vast") + memory, memory, "120");
    try {
      import_hulk(o);
      ADD_FAILURE() << memory << " GB accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("more than 1e15 x"), std::string::npos) << e.what();
    }
  }
  o.dir = hulk_dir("ok2", "320", "120");
  o.wan_bandwidth_Bps = 1e-300;
  try {
    import_hulk(o);
    ADD_FAILURE() << "1e-300 B/s accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "platform.hulk.wan_bandwidth");
  }
}

TEST(Bounds, CodeBuiltScenariosAreValidatedToo) {
  Scenario s = load_scenario_file(example_path());
  EXPECT_NO_THROW(validate_job(s));
  s.only_job().model.layers = 5000;
  try {
    validate_job(s);
    ADD_FAILURE() << "5000 layers accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.model.layers");
  }
}

TEST(Bounds, SimgridXmlPlatformsAreCheckedAtTheirScenarioKey) {
  // The describer (the engine's in the CLI) is replaced by one returning a route latency of 1e308 s: the loader
  // refuses the platform at platform.simgrid.file, naming the XML file and the host pair.
  const std::string scenario = std::string(HULK_SOURCE_DIR) + "/scenarios/examples/simgrid-xml.yaml";
  const XmlPlatformDescriber describe = [](const SimgridXmlOptions& o) {
    PlatformSpec p;
    p.regions = {"zone"};
    for (int i = 0; i < 4; ++i) {
      HostSpec h;
      h.name = "h" + std::to_string(i);
      h.gpus = 2;
      h.gpu = o.default_gpus.gpu;
      h.host_link = {1.25e9, 1e-5};
      h.intra_link = o.intra_host;
      p.hosts.push_back(h);
    }
    p.wan.assign(1, std::vector<LinkSpec>(1));
    p.simgrid_xml = o.file;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        p.host_pair_latency_s[{a, b}] = 1e-3;
        p.host_pair_bandwidth_Bps[{a, b}] = 1.25e9;
      }
    return p;
  };
  EXPECT_NO_THROW(load_scenario(scenario, {}, describe));
  const XmlPlatformDescriber absurd = [&](const SimgridXmlOptions& o) {
    PlatformSpec p = describe(o);
    p.host_pair_latency_s[{0, 1}] = 1e308;
    return p;
  };
  try {
    load_scenario(scenario, {}, absurd);
    ADD_FAILURE() << "a 1e308 s route accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "platform.simgrid.file");
    const std::string what = e.what();
    EXPECT_NE(what.find("small-cluster.xml: latency h0 - h1: '1e+308 s' is out of range"), std::string::npos) << what;
  }
}
