// Exact JSON round trips of scenarios, placements and traffic; errors name the key.
#include <gtest/gtest.h>

#include "sim/core/errors.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/features/scenario_sampler.hpp"

namespace hulk {
namespace {

TEST(ScenarioJson, RoundTripIsExact) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    Scenario s = sample_scenario(seed);
    s.platform.host_pair_latency_s[{0, 1}] = 0.0123456789;
    s.platform.warnings = {"w1"};
    const nlohmann::json j = scenario_to_json(s);
    const Scenario back = scenario_from_json(nlohmann::json::parse(j.dump()), "x.json");
    EXPECT_EQ(scenario_to_json(back).dump(), j.dump());
    ASSERT_EQ(back.platform.hosts.size(), s.platform.hosts.size());
    EXPECT_EQ(back.platform.hosts.back().host_link.bandwidth_Bps, s.platform.hosts.back().host_link.bandwidth_Bps);
    EXPECT_EQ(back.platform.wan[0][1].latency_s, s.platform.wan[0][1].latency_s);
    EXPECT_EQ(back.only_job().utilisation, s.only_job().utilisation);
    EXPECT_EQ(back.platform.host_pair_latency_s.at({0, 1}), 0.0123456789);
    EXPECT_EQ(back.seed, s.seed);
  }
}

TEST(ScenarioJson, MegatronKnobsRoundTripAndDefaultWhenAbsent) {
  Scenario s = sample_scenario(3);
  s.only_job().recompute = "full";
  s.only_job().optimizer = "sgd";
  s.only_job().pipeline_p2p = "overlapped";
  s.network.channels_per_peer = 4;
  nlohmann::json j = scenario_to_json(s);
  EXPECT_EQ(j["job"]["recompute"], "full");
  EXPECT_EQ(j["network"]["channels_per_peer"], 4);
  const Scenario back = scenario_from_json(nlohmann::json::parse(j.dump()), "x.json");
  EXPECT_EQ(back.only_job().recompute, "full");
  EXPECT_EQ(back.only_job().optimizer, "sgd");
  EXPECT_EQ(back.only_job().pipeline_p2p, "overlapped");
  EXPECT_EQ(back.network.channels_per_peer, 4);
  // A file written before the knobs existed reads as the defaults.
  for (const char* key : {"recompute", "optimizer", "pipeline_p2p"}) j["job"].erase(key);
  j["network"].erase("channels_per_peer");
  const Scenario old = scenario_from_json(j, "old.json");
  EXPECT_EQ(old.only_job().recompute, "none");
  EXPECT_EQ(old.only_job().optimizer, "adam");
  EXPECT_EQ(old.only_job().pipeline_p2p, "");
  EXPECT_EQ(old.network.channels_per_peer, 1);
  // Values the YAML loader would refuse are refused here too, naming the key.
  const auto key_of_error = [](const nlohmann::json& doc) -> std::string {
    try {
      scenario_from_json(doc, "bad.json");
    } catch (const InputError& e) {
      return e.key();
    }
    return "";
  };
  nlohmann::json k = scenario_to_json(s);
  k["job"]["recompute"] = "partial";
  EXPECT_EQ(key_of_error(k), "job.recompute");
  k = scenario_to_json(s);
  k["job"]["optimizer"] = 3;
  EXPECT_EQ(key_of_error(k), "job.optimizer");
  k = scenario_to_json(s);
  k["job"]["pipeline_p2p"] = "eager";
  EXPECT_EQ(key_of_error(k), "job.pipeline_p2p");
  k = scenario_to_json(s);
  k["network"]["channels_per_peer"] = 0;
  EXPECT_EQ(key_of_error(k), "network.channels_per_peer");
}

TEST(ScenarioJson, MissingKeyNamesPath) {
  nlohmann::json j = scenario_to_json(sample_scenario(1));
  j["job"]["parallelism"].erase("tp");
  try {
    scenario_from_json(j, "bad.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "bad.json");
    EXPECT_EQ(e.key(), "job.parallelism.tp");
  }
  nlohmann::json k = scenario_to_json(sample_scenario(1));
  k["platform"]["hosts"][0]["region"] = 99;
  EXPECT_THROW(scenario_from_json(k, "bad.json"), InputError);
  k = scenario_to_json(sample_scenario(1));
  k["platform"]["hosts"][0]["gpu"]["memory_bytes"] = "lots";
  EXPECT_THROW(scenario_from_json(k, "bad.json"), InputError);
}

TEST(ScenarioJson, PlacementAndTrafficRoundTrip) {
  Placement p;
  p.gpu_of_rank = {{0, 1}, {2, 0}, {1, 3}};
  const Placement q = placement_slots_from_json(placement_slots_to_json(p), "f", "label");
  ASSERT_EQ(q.gpu_of_rank.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(q.gpu_of_rank[i], p.gpu_of_rank[i]);
  EXPECT_THROW(placement_slots_from_json(nlohmann::json::parse("[[1]]"), "f", "label"), InputError);

  TrafficMatrix t = TrafficMatrix::zeros(4);
  t.bytes[2][1 * 4 + 3] = t.bytes[2][3 * 4 + 1] = 123.5;
  t.busy_s[0][0 * 4 + 0] = 0.25;
  const TrafficMatrix u = traffic_from_json(nlohmann::json::parse(traffic_to_json(t).dump()), "f", "traffic");
  EXPECT_EQ(u.hosts, 4);
  for (int k = 0; k < kCommKinds; ++k) {
    EXPECT_EQ(u.bytes[k], t.bytes[k]);
    EXPECT_EQ(u.busy_s[k], t.busy_s[k]);
  }
  nlohmann::json bad = traffic_to_json(t);
  bad["pairs"][0]["a"] = 17;
  EXPECT_THROW(traffic_from_json(bad, "f", "traffic"), InputError);
}

}  // namespace
}  // namespace hulk
