// The WAN capacity key at the boundaries: `platform.wan.capacity` (regions), `platform.hulk.wan_capacity` (Hulk
// data, also through an override), and the sample JSON format (written, read back, absent = pair, bad = error).
// Bad YAML values are in tests/data/bad (bad-wan-capacity.yaml, bad-hulk-wan-capacity.yaml).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk {
namespace {

// A scenario file written to /tmp, removed when the object goes.
class TempScenario {
 public:
  explicit TempScenario(const std::string& text) {
    char tmpl[] = "/tmp/hulk_wan_capacity_XXXXXX";
    const int fd = mkstemp(tmpl);
    close(fd);
    path_ = std::string(tmpl) + ".yaml";
    std::rename(tmpl, path_.c_str());
    std::ofstream(path_) << text;
  }
  ~TempScenario() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string regions_yaml(const std::string& wan_extra) {
  return "name: cap\n"
         "platform:\n"
         "  regions:\n"
         "    - {name: east, hosts: 2, gpu: A100-40GB}\n"
         "    - {name: west, hosts: 2, gpu: A100-40GB}\n"
         "  wan:\n"
         "    default: {bandwidth: 1Gbps, latency: 30ms}\n" +
         wan_extra +
         "job:\n"
         "  model: {layers: 4, hidden: 1024, heads: 16, seq_len: 512, vocab: 32000}\n"
         "  global_batch: 4\n"
         "  micro_batch: 1\n"
         "  parallelism: {dp: 2, tp: 1, pp: 2}\n"
         "placement: round-robin\n";
}

std::string hulk_yaml(const std::string& hulk_extra) {
  return "name: cap\n"
         "platform:\n"
         "  hulk: {dir: " + std::string(HULK_SHARED_DATA) + "/hulk" + hulk_extra + "}\n" +
         "job:\n"
         "  model: {preset: bert-large}\n"
         "  global_batch: 16\n";
}

TEST(WanCapacityScenario, RegionsKeyAndDefault) {
  EXPECT_EQ(load_scenario(TempScenario(regions_yaml("")).path()).platform.wan_capacity, WanCapacity::pair);
  EXPECT_EQ(load_scenario(TempScenario(regions_yaml("    capacity: host\n")).path()).platform.wan_capacity,
            WanCapacity::host);
  EXPECT_EQ(load_scenario(TempScenario(regions_yaml("    capacity: pair\n")).path()).platform.wan_capacity,
            WanCapacity::pair);
  // Through an override, as `hulk sweep --set wan.capacity=host,pair` passes it.
  EXPECT_EQ(load_scenario(TempScenario(regions_yaml("")).path(), {{"platform.wan.capacity", "host"}})
                .platform.wan_capacity,
            WanCapacity::host);
}

TEST(WanCapacityScenario, BadRegionsValueNamesFileLineKeyAndChoices) {
  const TempScenario f(regions_yaml("    capacity: Host\n"));
  try {
    load_scenario(f.path());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), f.path());
    EXPECT_EQ(e.line(), 8);
    EXPECT_EQ(e.key(), "platform.wan.capacity");
    const std::string what = e.what();
    EXPECT_NE(what.find("'Host' is not allowed: expected pair or host"), std::string::npos) << what;
  }
}

TEST(WanCapacityScenario, HulkKeyAndDefault) {
  EXPECT_EQ(load_scenario(TempScenario(hulk_yaml("")).path()).platform.wan_capacity, WanCapacity::pair);
  const Scenario s = load_scenario(TempScenario(hulk_yaml(", wan_capacity: host")).path());
  EXPECT_EQ(s.platform.wan_capacity, WanCapacity::host);
  EXPECT_EQ(s.platform.hosts.size(), 47u);
  EXPECT_THROW(load_scenario(TempScenario(hulk_yaml(", wan_capacity: [host]")).path()), InputError);
}

TEST(WanCapacityScenario, JsonRoundTripAndOldFiles) {
  Scenario s = sample_scenario(3);
  for (WanCapacity cap : {WanCapacity::pair, WanCapacity::host}) {
    s.platform.wan_capacity = cap;
    const nlohmann::json j = scenario_to_json(s);
    EXPECT_EQ(j["platform"]["wan_capacity"], cap == WanCapacity::host ? "host" : "pair");
    const Scenario back = scenario_from_json(nlohmann::json::parse(j.dump()), "x.json");
    EXPECT_EQ(back.platform.wan_capacity, cap);
  }
  // Files written before the field existed: pair.
  nlohmann::json old = scenario_to_json(s);
  old["platform"].erase("wan_capacity");
  EXPECT_EQ(scenario_from_json(old, "old.json").platform.wan_capacity, WanCapacity::pair);
  nlohmann::json bad = scenario_to_json(s);
  bad["platform"]["wan_capacity"] = "both";
  try {
    scenario_from_json(bad, "bad.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "bad.json");
    EXPECT_EQ(e.key(), "platform.wan_capacity");
  }
}

}  // namespace
}  // namespace hulk
