// The shipped examples for each platform source load, and their jobs fit in memory on any GPU of their platform
// (so `hulk simulate` works on them whatever the placement).
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"
#include "sim/methods/scenario_loading.hpp"

using namespace hulk;

namespace {
std::string example(const std::string& name) { return std::string(HULK_SOURCE_DIR) + "/scenarios/examples/" + name; }

double max_stage_memory(const Scenario& s) {
  const JobCost c = compute_job_cost(s.only_job());
  double m = 0;
  for (const auto& st : c.stages) m = std::max(m, st.peak_memory_bytes);
  return m;
}

double min_gpu_memory(const Scenario& s) {
  double m = 1e300;
  for (const auto& h : s.platform.hosts) m = std::min(m, h.gpu.memory_bytes);
  return m;
}
}  // namespace

TEST(ScenarioSources, ExamplesFitOnEveryGpu) {
  for (const char* name : {"two-region-gpt.yaml", "three-region-pcie.yaml", "simgrid-xml.yaml", "hulk-47.yaml"}) {
    SCOPED_TRACE(name);
    const Scenario s = load_scenario_file(example(name));
    EXPECT_LE(max_stage_memory(s), min_gpu_memory(s));
  }
}

TEST(ScenarioSources, HulkExample) {
  const Scenario s = load_scenario_file(example("hulk-47.yaml"));
  EXPECT_EQ(s.platform.hosts.size(), 47u);
  EXPECT_EQ(s.platform.regions.size(), 12u);
  EXPECT_EQ(s.platform.host_pair_latency_s.size(), 1081u);
  EXPECT_FALSE(s.platform.warnings.empty());
  EXPECT_EQ(s.platform.hosts[12].gpu.name, "RTX3090");  // gpu_map {"8.6": RTX3090}
  EXPECT_DOUBLE_EQ(s.platform.hosts[0].host_link.bandwidth_Bps, 1.25e9);
  EXPECT_DOUBLE_EQ(s.platform.wan[0][1].bandwidth_Bps, 1.25e8);
  // The override path reaches the importer's options.
  const Scenario t = load_scenario_file(example("hulk-47.yaml"), {{"platform.hulk.wan_bandwidth", "100Mbps"}});
  EXPECT_DOUBLE_EQ(t.platform.wan[0][1].bandwidth_Bps, 1.25e7);
}

TEST(ScenarioSources, HulkGpuMapRejectsUnknownGpu) {
  try {
    load_scenario_file(example("hulk-47.yaml"), {{"platform.hulk.gpu_map", "{\"8.6\": RTX4090}"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "platform.hulk.gpu_map.8.6");
    EXPECT_NE(std::string(e.what()).find("unknown GPU 'RTX4090'"), std::string::npos) << e.what();
  }
}

TEST(ScenarioSources, SimgridXmlExample) {
  const Scenario s = load_scenario_file(example("simgrid-xml.yaml"));
  ASSERT_EQ(s.platform.hosts.size(), 4u);
  EXPECT_EQ(s.platform.total_gpus(), 10);  // 2 + 2 + 2 + 4
  EXPECT_FALSE(s.platform.simgrid_xml.empty());
  int a100 = 0;
  for (const auto& h : s.platform.hosts)
    if (h.name == "berlin-1") {
      EXPECT_EQ(h.gpus, 4);
      EXPECT_EQ(h.gpu.name, "A100-40GB");
      ++a100;
    }
  EXPECT_EQ(a100, 1);
}

TEST(ScenarioSources, HulkGpuMapKeysMustBeCapabilities) {
  // A key that is not spelled as a capability ("8.00", " 8.0", "banana") matched no server and was dropped silently.
  for (const char* key : {"8.00", " 8.0", "banana", "8.60"}) {
    try {
      load_scenario_file(example("hulk-47.yaml"), {{"platform.hulk.gpu_map", std::string("{\"") + key + "\": A10}"}});
      ADD_FAILURE() << key;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("is not a compute capability"), std::string::npos) << e.what();
    }
  }
  // A well-formed capability that no server has is a warning.
  const Scenario s = load_scenario_file(example("hulk-47.yaml"), {{"platform.hulk.gpu_map", "{\"9.0\": A10}"}});
  bool warned = false;
  for (const std::string& w : s.platform.warnings) warned = warned || w.find("gpu_map.9.0: no server") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(ScenarioSources, RobustIsRefusedOnSimgridXml) {
  // Its link states scale the route model, which SimGrid's XML routes do not follow: it was ignored without a word.
  try {
    load_scenario_file(example("simgrid-xml.yaml"), {{"robust", "{pair_probability: 1, bandwidth: 1%}"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "robust");
    EXPECT_NE(std::string(e.what()).find("not supported on SimGrid XML"), std::string::npos) << e.what();
  }
}
