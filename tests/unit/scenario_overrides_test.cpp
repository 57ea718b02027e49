// `--set key=value` overrides: applied before validation, shortcuts, list addressing, and errors naming the key.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <utility>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/methods/scenario_loading.hpp"

using namespace hulk;

namespace {
std::string example() { return std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-region-gpt.yaml"; }

std::string error_of_file(const std::string& file, const std::vector<Override>& ov, std::string* key = nullptr) {
  try {
    load_scenario_file(file, ov);
  } catch (const InputError& e) {
    if (key != nullptr) *key = e.key();
    return e.what();
  }
  return "";
}

std::string error_of(const std::vector<Override>& ov, std::string* key = nullptr) {
  return error_of_file(example(), ov, key);
}
}  // namespace

TEST(Overrides, PlainKeysAndShortcuts) {
  const Scenario s = load_scenario_file(
      example(),
      {{"job.iterations", "5"}, {"seed", "42"}, {"network.tcp_window", "4MiB"}});
  EXPECT_EQ(s.only_job().iterations, 5);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_DOUBLE_EQ(s.network.tcp_window_bytes, 4.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(s.platform.wan[0][1].bandwidth_Bps, 0.6e9 / 8);
  // The only region pair is listed in wan.pairs with both values, so the default reaches no pair: overriding it
  // would change nothing (a sweep over it gave the same row again and again) and is refused.
  std::string default_key;
  const std::string unused = error_of({{"wan.default.bandwidth", "10Gbps"}}, &default_key);
  EXPECT_NE(unused.find("is never used"), std::string::npos) << unused;
  EXPECT_NE(unused.find("--set wan.default.bandwidth=10Gbps changes nothing"), std::string::npos) << unused;
  EXPECT_EQ(default_key, "platform.wan.default");
  // ... but overriding the pair itself does.
  const Scenario t = load_scenario_file(example(), {{"wan.pairs.0.bandwidth", "10Gbps"}});
  EXPECT_DOUBLE_EQ(t.platform.wan[0][1].bandwidth_Bps, 1.25e9);
}

TEST(Overrides, MegatronKnobs) {
  const Scenario s = load_scenario_file(example(), {{"job.recompute", "full"},
                                                    {"job.optimizer", "sgd"},
                                                    {"job.pipeline_p2p", "overlapped"},
                                                    {"network.channels_per_peer", "8"}});
  EXPECT_EQ(s.only_job().recompute, "full");
  EXPECT_EQ(s.only_job().optimizer, "sgd");
  EXPECT_EQ(s.only_job().pipeline_p2p, "overlapped");
  EXPECT_EQ(s.network.channels_per_peer, 8);
  // A bad overridden value is refused like one in the file, naming the override.
  std::string key;
  std::string msg = error_of({{"job.recompute", "most"}}, &key);
  EXPECT_EQ(key, "job.recompute");
  EXPECT_NE(msg.find("--set job.recompute=most"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected one of none | selective | full"), std::string::npos) << msg;
  msg = error_of({{"network.channels_per_peer", "0"}}, &key);
  EXPECT_EQ(key, "network.channels_per_peer");
  EXPECT_NE(msg.find("expected an integer in [1, 64], got 0"), std::string::npos) << msg;
}

TEST(Overrides, ListElementsByIndexAndByName) {
  const Scenario a = load_scenario_file(example(), {{"regions.tokyo.hosts", "6"}});
  EXPECT_EQ(a.platform.hosts.size(), 10u);
  EXPECT_EQ(a.platform.hosts.back().name, "tokyo-5");
  const Scenario b = load_scenario_file(example(), {{"platform.regions.0.gpus_per_host", "4"}});
  EXPECT_EQ(b.platform.total_gpus(), 24);
  const Scenario c = load_scenario_file(example(), {{"regions.virginia.gpu", "H100-80GB"}});
  EXPECT_EQ(c.platform.hosts[0].gpu.name, "H100-80GB");
  // A map value is accepted as YAML.
  const Scenario d = load_scenario_file(example(), {{"regions.tokyo.host_link", "{bandwidth: 25Gbps, latency: 10us}"}});
  EXPECT_DOUBLE_EQ(d.platform.hosts[4].host_link.bandwidth_Bps, 25e9 / 8);
}

TEST(Overrides, OverriddenValuesAreValidatedLikeFileValues) {
  std::string key;
  std::string msg = error_of({{"job.parallelism.tp", "3"}}, &key);
  EXPECT_EQ(key, "job.parallelism.tp");
  EXPECT_NE(msg.find("not divisible by tp 3"), std::string::npos) << msg;
  msg = error_of({{"wan.default.bandwidth", "fast"}}, &key);
  EXPECT_EQ(key, "platform.wan.default.bandwidth");
  EXPECT_NE(msg.find("expected a bandwidth"), std::string::npos) << msg;
  msg = error_of({{"job.iteratons", "3"}}, &key);
  EXPECT_EQ(key, "job.iteratons");
  EXPECT_NE(msg.find("did you mean 'iterations'?"), std::string::npos) << msg;
  // A quoted value is a string, in an override as in the file (it was read as the number).
  msg = error_of({{"job.iterations", "'3'"}}, &key);
  EXPECT_EQ(key, "job.iterations");
  EXPECT_NE(msg.find("expected an integer, got the quoted string '3'"), std::string::npos) << msg;
  msg = error_of({{"network", "{model: CM02, crosstraffic: \"true\"}"}}, &key);
  EXPECT_EQ(key, "network.crosstraffic");
  EXPECT_NE(msg.find("expected true or false, got the quoted string 'true'"), std::string::npos) << msg;
}

TEST(Overrides, UnknownPathsNameTheKey) {
  std::string key;
  std::string msg = error_of({{"regions.nowhere.hosts", "1"}}, &key);
  EXPECT_EQ(key, "regions.nowhere.hosts");
  EXPECT_NE(msg.find("no element 'nowhere' in 'platform.regions'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("virginia"), std::string::npos) << msg;
  msg = error_of({{"regions.7.hosts", "1"}}, &key);
  EXPECT_NE(msg.find("no element '7'"), std::string::npos) << msg;
  msg = error_of({{"seed.value", "1"}}, &key);
  EXPECT_EQ(key, "seed.value");
  EXPECT_NE(msg.find("'seed' is a value"), std::string::npos) << msg;
  msg = error_of({{"job..x", "1"}}, &key);
  EXPECT_NE(msg.find("malformed override key"), std::string::npos) << msg;
  msg = error_of({{"job.iterations", "[1, 2"}}, &key);
  EXPECT_NE(msg.find("not valid YAML"), std::string::npos) << msg;
}

TEST(Overrides, AnElementWhoseNameHasDotsIsAddressedByThatName) {
  // A job named `gpt3-6.7b` (the paper's multi-model) must be settable by its name, though the key's dots would
  // split it. Renamed first, then addressed by the new name; the longest name that matches wins.
  const std::string two_jobs = std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-jobs.yaml";
  const Scenario s = load_scenario_file(two_jobs, {{"jobs.0.name", "gpt3-6.7b"},
                                                   {"jobs.1.name", "gpt3-6.7b.v2"},
                                                   {"jobs.gpt3-6.7b.iterations", "3"},
                                                   {"jobs.gpt3-6.7b.v2.iterations", "4"}});
  EXPECT_EQ(s.jobs.at(0).iterations, 3);
  EXPECT_EQ(s.jobs.at(1).iterations, 4);
  std::string key;
  const std::string msg = error_of_file(two_jobs, {{"jobs.0.name", "a.b"}, {"jobs.a.c.iterations", "3"}}, &key);
  EXPECT_NE(msg.find("no element 'a' in 'jobs'"), std::string::npos) << msg;
  EXPECT_EQ(key, "jobs.a.c.iterations");
}

TEST(Overrides, DoNotLeakIntoOtherLoads) {
  load_scenario_file(example(), {{"job.iterations", "9"}});
  EXPECT_EQ(load_scenario_file(example()).only_job().iterations, 2);
}

TEST(Overrides, ErrorsInOverriddenValuesNameTheOverride) {
  try {
    load_scenario_file(example(), {{"regions.tokyo.host_link.bandwidth", "-1Gbps"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "platform.regions.1.host_link.bandwidth");
    EXPECT_EQ(e.line(), 0);  // the file's lines do not hold this value
    EXPECT_NE(std::string(e.what()).find("(value from --set regions.tokyo.host_link.bandwidth=-1Gbps)"),
              std::string::npos)
        << e.what();
  }
  try {
    load_scenario_file(example(), {{"job.parallelism", "{dp: 8, tp: 2, pp: 4}"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.parallelism");
    EXPECT_NE(std::string(e.what()).find("64 ranks"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("value from --set job.parallelism="), std::string::npos) << e.what();
  }
  // An error elsewhere keeps its file line.
  try {
    load_scenario_file(example(), {{"job.iterations", "3"}, {"job.micro_batch", "5"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.global_batch");
    EXPECT_EQ(e.line(), 23);  // "  global_batch: 64" in two-region-gpt.yaml
  }
}

TEST(Overrides, ASecondPlatformSourceNamesTheOverrideThatBroughtIt) {
  try {
    load_scenario_file(example(), {{"platform.simgrid.file", "x.xml"}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "platform");
    EXPECT_NE(std::string(e.what()).find("got regions and simgrid (from --set platform.simgrid.file=x.xml)"),
              std::string::npos)
        << e.what();
  }
}

TEST(Overrides, ADuplicateNameMadeByAnOverrideOfTheEarlierEntryNamesTheOverride) {
  // `--set jobs.0.name=gpt` gives job 0 the name of job 1: the error blamed job 1's line in the file, not the override.
  const std::string two_jobs = std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-jobs.yaml";
  const auto error = [&](const std::vector<Override>& ov) -> std::pair<std::string, int> {
    try {
      load_scenario_file(two_jobs, ov);
    } catch (const InputError& e) {
      return {e.what(), e.line()};
    }
    return {"", -1};
  };
  for (const std::string& key : {"jobs.0.name", "jobs.bert.name"}) {
    const auto [msg, line] = error({{key, "gpt"}});
    EXPECT_NE(msg.find("jobs[0].name: duplicate job name 'gpt' (also jobs[1].name;"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(value from --set " + key + "=gpt)"), std::string::npos) << msg;
    EXPECT_EQ(line, 0) << msg;
  }
  // The later entry overridden: it is the one named, as before.
  EXPECT_NE(error({{"jobs.1.name", "bert"}}).first.find("jobs[1].name: duplicate job name 'bert' (also jobs[0].name;"),
            std::string::npos);
  // Both overridden: the later entry is named, with its override.
  const auto [msg, line] = error({{"jobs.1.name", "x"}, {"jobs.0.name", "x"}});
  EXPECT_NE(msg.find("jobs[1].name: duplicate job name 'x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(value from --set jobs.1.name=x)"), std::string::npos) << msg;
  EXPECT_EQ(line, 0) << msg;
  // Regions likewise: the first region renamed to the second's name.
  const std::string region = error({{"regions.0.name", "oregon"}}).first;
  EXPECT_NE(region.find("platform.regions.0.name: duplicate region name 'oregon' (also platform.regions.1;"),
            std::string::npos) << region;
  EXPECT_NE(region.find("(value from --set regions.0.name=oregon)"), std::string::npos) << region;
}

// The loader names event entries events[i]; an override into one (or of the whole list) is named in the
// error like any other overridden value, without a file line.
TEST(Overrides, ErrorsInOverriddenEventsNameTheOverride) {
  const std::string events = std::string(HULK_SOURCE_DIR) + "/scenarios/examples/events.yaml";
  const auto error = [&](const Override& ov, std::string& key, int& line) {
    try {
      load_scenario_file(events, {ov});
    } catch (const InputError& e) {
      key = e.key();
      line = e.line();
      return std::string(e.what());
    }
    return std::string();
  };
  std::string key;
  int line = -1;
  std::string msg = error({"events.0.bandwidth", "150x"}, key, line);
  EXPECT_EQ(key, "events[0].bandwidth") << msg;
  EXPECT_EQ(line, 0) << msg;
  EXPECT_NE(msg.find("(value from --set events.0.bandwidth=150x)"), std::string::npos) << msg;
  msg = error({"events.4.speed", "0%"}, key, line);
  EXPECT_EQ(key, "events[4].speed") << msg;
  EXPECT_NE(msg.find("(value from --set events.4.speed=0%)"), std::string::npos) << msg;
  msg = error({"events", "[{at: -1s, host: fra-0, speed: 50%}]"}, key, line);
  EXPECT_EQ(key, "events[0].at") << msg;
  EXPECT_EQ(line, 0) << msg;
  EXPECT_NE(msg.find("(value from --set events=[{at: -1s"), std::string::npos) << msg;
  // A latency above its bound (10 s).
  msg = error({"events.1.latency", "20s"}, key, line);
  EXPECT_EQ(key, "events[1].latency") << msg;
  EXPECT_NE(msg.find("--set events.1.latency=20s"), std::string::npos) << msg;
}

TEST(Overrides, AnAliasThatContainsItselfIsAnErrorNotACrash) {
  // `--set 'description=&a [*a]'` nests without end: it once overflowed the stack while the value was copied.
  std::string key;
  EXPECT_NE(error_of({{"description", "&a [*a]"}}, &key).find("nests deeper than"), std::string::npos);
  EXPECT_EQ(key, "description");
  EXPECT_NE(error_of({{"job.model", "&a {preset: *a}"}}).find("nests deeper than"), std::string::npos);
  EXPECT_NE(error_of({{"description", "{[1, 2]: x}"}}).find("map key that is a list or a map"), std::string::npos);
}

TEST(Overrides, AValueYamlCppNeverReadsPastIsRefusedNotLoopedOn) {
  // yaml-cpp 0.7 starts the same empty document for ever at a ',' where one begins (yaml_access.hpp): the first
  // value hung `hulk simulate --set`; the second ends its first document at the dedent, then meets the ','.
  for (const std::string value : {", 3", "# c\n, 3", "--- ,", "&a , 3", "  a: 1\n , b", "  [1]\n,"}) {
    std::string key;
    const std::string msg = error_of({{"description", value}}, &key);
    EXPECT_NE(msg.find("not valid YAML: unexpected ','"), std::string::npos) << value << ": " << msg;
    EXPECT_EQ(key, "description");
  }
}

TEST(Overrides, AValueNestedPastYamlCppsDepthGuardSaysItNestsTooDeep) {
  // 600 levels: yaml-cpp's own guard (near 500) said only "not valid YAML: bad file".
  const std::string deep = std::string(600, '[') + std::string(600, ']');
  std::string key;
  const std::string msg = error_of({{"description", deep}}, &key);
  EXPECT_NE(msg.find("nests deeper than 64 levels"), std::string::npos) << msg.substr(0, 200);
  EXPECT_EQ(msg.find("bad file"), std::string::npos) << msg.substr(0, 200);
  EXPECT_EQ(key, "description");
}

TEST(Overrides, AnAnchorSharedThroughAliasesChangesOnlyWhereTheOverrideSays) {
  // yaml-cpp assigns into the node an anchor and its aliases share: `--set` into tokyo's host_link changed
  // virginia's too, without a word. Into a shared value: refused; the value replaced whole: only
  // the named key gets the new one.
  std::ifstream in(example());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string link = "host_link: {bandwidth: 10Gbps, latency: 50us}";
  const std::size_t first = text.find(link), second = text.find(link, first + 1);
  ASSERT_NE(second, std::string::npos);
  text.replace(second, link.size(), "host_link: *nic");
  text.replace(first, link.size(), "host_link: &nic {bandwidth: 10Gbps, latency: 50us}");
  const std::string path = ::testing::TempDir() + "/aliased-host-link.yaml";
  std::ofstream(path) << text;
  const Scenario plain = load_scenario_file(path);
  ASSERT_EQ(plain.platform.hosts.front().host_link.bandwidth_Bps, plain.platform.hosts.back().host_link.bandwidth_Bps);
  try {
    load_scenario_file(path, {{"regions.tokyo.host_link.bandwidth", "1Gbps"}});
    ADD_FAILURE() << "an override into an aliased map was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("other keys share through aliases"), std::string::npos) << e.what();
  }
  const Scenario whole = load_scenario_file(path, {{"regions.tokyo.host_link", "{bandwidth: 1Gbps, latency: 50us}"}});
  EXPECT_DOUBLE_EQ(whole.platform.hosts.back().host_link.bandwidth_Bps, 1.25e8);   // tokyo
  EXPECT_DOUBLE_EQ(whole.platform.hosts.front().host_link.bandwidth_Bps, 1.25e9);  // virginia keeps its 10 Gbps
}

TEST(Overrides, AnIndexThatIsAnotherJobsNameIsRefused) {
  // Jobs named "1" (index 0) and "0" (index 1): `jobs.0` must not set job "1" without a word.
  std::ifstream in(std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-jobs.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"name: bert ", "name: \"1\" "},
                                 std::pair<std::string, std::string>{"name: gpt\n", "name: \"0\"\n"}}) {
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  const std::string path = ::testing::TempDir() + "/numbered-jobs.yaml";
  std::ofstream(path) << text;
  try {
    load_scenario_file(path, {{"jobs.0.iterations", "2"}});
    ADD_FAILURE() << "an ambiguous element was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is both an index and the name of another element"), std::string::npos)
        << e.what();
  }
  // Names that are not another element's index still address their element.
  EXPECT_EQ(load_scenario_file(example(), {{"regions.1.hosts", "5"}}).platform.hosts.size(), 9u);
}

TEST(Overrides, AnIndexIntoAListTheScenarioLacksNamesTheOverride) {
  // `events.0.at=1s` on a scenario without events: the created map read as "events: expected a list, got a map".
  try {
    load_scenario_file(example(), {{"events.0.at", "1s"}});
    ADD_FAILURE() << "an index into a missing list was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "events.0.at");
    EXPECT_NE(std::string(e.what()).find("'events' is not in the scenario, so it has no element 0"), std::string::npos)
        << e.what();
  }
}
