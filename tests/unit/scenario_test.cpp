// Scenario schema: the issue's example parses to the expected numbers, defaults apply, and every kind of problem
// throws an InputError naming the key path and line.
#include <gtest/gtest.h>

#include "temp_file.hpp"

#include <filesystem>
#include <fstream>

#include "sim/core/errors.hpp"
#include "sim/methods/scenario_loading.hpp"

using namespace hulk;

namespace {

std::string examples() { return std::string(HULK_SOURCE_DIR) + "/scenarios/examples/"; }

std::string write_temp(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hulk_scenario_tests", name, text);
}

// A small valid scenario; tests change one line of it.
const std::string kBase =
    "name: base\n"                                      // 1
    "platform:\n"                                       // 2
    "  regions:\n"                                      // 3
    "    - name: east\n"                                // 4
    "      hosts: 2\n"                                  // 5
    "      gpus_per_host: 2\n"                          // 6
    "      gpu: A100-40GB\n"                            // 7
    "    - name: west\n"                                // 8
    "      hosts: 2\n"                                  // 9
    "      gpus_per_host: 2\n"                          // 10
    "      gpu: V100-32GB\n"                            // 11
    "  wan:\n"                                          // 12
    "    default: {bandwidth: 1Gbps, latency: 30ms}\n"  // 13
    "job:\n"                                            // 14
    "  model: {preset: gpt3-xl}\n"                      // 15
    "  global_batch: 16\n"                              // 16
    "  micro_batch: 2\n"                                // 17
    "  parallelism: {dp: 2, tp: 2, pp: 2}\n";           // 18

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

struct Failure {
  std::string key;
  int line = -1;
  std::string what;
};

Failure load_error(const std::string& name, const std::string& text, const std::vector<Override>& ov = {}) {
  const std::string path = write_temp(name, text);
  try {
    load_scenario_file(path, ov);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
    return {e.key(), e.line(), e.what()};
  }
  ADD_FAILURE() << name << ": expected an InputError";
  return {};
}

}  // namespace

TEST(Scenario, IssueExampleParsesToTheExpectedNumbers) {
  const Scenario s = load_scenario_file(examples() + "two-region-gpt.yaml");
  EXPECT_EQ(s.name, "two-region-gpt");
  EXPECT_EQ(s.seed, 7u);
  ASSERT_EQ(s.platform.regions, (std::vector<std::string>{"virginia", "tokyo"}));
  ASSERT_EQ(s.platform.hosts.size(), 8u);
  EXPECT_EQ(s.platform.total_gpus(), 16);
  EXPECT_EQ(s.platform.hosts[0].name, "virginia-0");
  EXPECT_EQ(s.platform.hosts[7].name, "tokyo-3");
  EXPECT_EQ(s.platform.hosts[7].region, 1);
  EXPECT_EQ(s.platform.hosts[0].gpu.name, "V100-32GB");
  EXPECT_DOUBLE_EQ(s.platform.hosts[0].gpu.fp16_flops, 125e12);
  const GpuSpec& custom = s.platform.hosts[4].gpu;
  EXPECT_EQ(custom.name, "A100-40GB-custom");
  EXPECT_DOUBLE_EQ(custom.fp16_flops, 312e12);
  EXPECT_DOUBLE_EQ(custom.fp32_flops, 156e12);  // flops / 2 when fp32 is not given
  EXPECT_DOUBLE_EQ(custom.memory_bytes, 40e9);
  for (const auto& h : s.platform.hosts) {
    EXPECT_EQ(h.gpus, 2);
    EXPECT_DOUBLE_EQ(h.host_link.bandwidth_Bps, 1.25e9);
    EXPECT_DOUBLE_EQ(h.host_link.latency_s, 50e-6);
    EXPECT_DOUBLE_EQ(h.intra_link.bandwidth_Bps, 150e9);
    EXPECT_DOUBLE_EQ(h.intra_link.latency_s, 2e-6);
  }
  ASSERT_EQ(s.platform.wan.size(), 2u);
  EXPECT_DOUBLE_EQ(s.platform.wan[0][1].bandwidth_Bps, 0.6e9 / 8);
  EXPECT_DOUBLE_EQ(s.platform.wan[1][0].latency_s, 0.075);
  EXPECT_EQ(s.network.model, "CM02");
  EXPECT_DOUBLE_EQ(s.network.tcp_window_bytes, 0);
  EXPECT_EQ(s.only_job().model.name, "gpt3-xl");
  EXPECT_EQ(s.only_job().model.layers, 24);
  EXPECT_EQ(s.only_job().global_batch, 64);
  EXPECT_EQ(s.only_job().micro_batch, 4);
  EXPECT_EQ(s.only_job().par.dp, 2);
  EXPECT_EQ(s.only_job().par.tp, 2);
  EXPECT_EQ(s.only_job().par.pp, 4);
  EXPECT_EQ(s.only_job().micro_batches(), 8);
  EXPECT_EQ(s.only_job().schedule, "1f1b");
  EXPECT_EQ(s.only_job().collective, "ring");
  EXPECT_EQ(s.only_job().iterations, 2);
  EXPECT_DOUBLE_EQ(s.only_job().utilisation, 0.4);
  EXPECT_EQ(s.placement, "round-robin");
  EXPECT_NO_THROW(validate_job(s));
}

TEST(Scenario, OtherRegionExampleParses) {
  const Scenario s = load_scenario_file(examples() + "three-region-pcie.yaml");
  ASSERT_EQ(s.platform.hosts.size(), 5u);
  EXPECT_EQ(s.platform.hosts[0].name, "fra-0");
  EXPECT_EQ(s.platform.hosts[2].name, "london-0");
  EXPECT_EQ(s.platform.total_gpus(), 24);
  EXPECT_DOUBLE_EQ(s.platform.hosts[0].intra_link.bandwidth_Bps, 16e9);
  EXPECT_DOUBLE_EQ(s.platform.hosts[4].intra_link.latency_s, 2e-6);  // default kept, bandwidth overridden
  EXPECT_DOUBLE_EQ(s.platform.hosts[4].intra_link.bandwidth_Bps, 8e9);
  EXPECT_DOUBLE_EQ(s.platform.hosts[2].host_link.bandwidth_Bps, 1.25e9);  // region default
  EXPECT_DOUBLE_EQ(s.platform.wan[0][1].bandwidth_Bps, 5e9 / 8);          // explicit pair
  EXPECT_DOUBLE_EQ(s.platform.wan[1][2].bandwidth_Bps, 2e9 / 8);          // pair without bandwidth: default's
  EXPECT_DOUBLE_EQ(s.platform.wan[2][1].latency_s, 6e-3);
  EXPECT_DOUBLE_EQ(s.platform.wan[0][2].latency_s, 15e-3);  // unlisted pair: default
  EXPECT_EQ(s.placement, "greedy");
  EXPECT_EQ(s.only_job().collective, "hierarchical");
}

TEST(Scenario, Defaults) {
  const Scenario s = load_scenario_file(write_temp("defaults.yaml",
                                              "platform:\n  regions:\n    - {name: r, hosts: 1, gpu: T4}\n"
                                              "job:\n  model: {preset: bert-large}\n  global_batch: 8\n"));
  EXPECT_EQ(s.name, "defaults");  // file stem
  EXPECT_EQ(s.seed, 0u);
  EXPECT_EQ(s.network.model, "CM02");
  EXPECT_DOUBLE_EQ(s.network.tcp_window_bytes, 0);
  EXPECT_EQ(s.only_job().schedule, "1f1b");
  EXPECT_EQ(s.only_job().collective, "ring");
  EXPECT_EQ(s.only_job().iterations, 1);
  EXPECT_DOUBLE_EQ(s.only_job().utilisation, 0.4);
  EXPECT_EQ(s.only_job().precision, "fp16");
  EXPECT_EQ(s.only_job().recompute, "none");
  EXPECT_EQ(s.only_job().optimizer, "adam");
  EXPECT_EQ(s.only_job().pipeline_p2p, "");
  EXPECT_TRUE(s.only_job().pipeline_p2p_blocking());  // 1f1b's default
  EXPECT_EQ(s.network.channels_per_peer, 1);
  EXPECT_EQ(s.only_job().micro_batch, 1);
  EXPECT_EQ(s.only_job().par.ranks(), 1);
  EXPECT_EQ(s.placement, "round-robin");
  ASSERT_EQ(s.platform.hosts.size(), 1u);
  EXPECT_EQ(s.platform.hosts[0].name, "r-0");
  EXPECT_EQ(s.platform.hosts[0].gpus, 1);
  EXPECT_DOUBLE_EQ(s.platform.hosts[0].host_link.bandwidth_Bps, 10e9 / 8);
  EXPECT_DOUBLE_EQ(s.platform.hosts[0].host_link.latency_s, 50e-6);
  EXPECT_DOUBLE_EQ(s.platform.hosts[0].intra_link.bandwidth_Bps, 150e9);
  EXPECT_DOUBLE_EQ(s.platform.hosts[0].intra_link.latency_s, 2e-6);
}

TEST(Scenario, ExplicitModelAndPresetOverrides) {
  const std::string explicit_model = replace(kBase, "model: {preset: gpt3-xl}",
                                             "model: {layers: 4, hidden: 512, heads: 8, seq_len: 128, vocab: 1000}");
  const Scenario a = load_scenario_file(write_temp("explicit.yaml", explicit_model));
  EXPECT_EQ(a.only_job().model.layers, 4);
  EXPECT_EQ(a.only_job().model.hidden, 512);
  EXPECT_EQ(a.only_job().model.name, "custom");
  const Scenario b = load_scenario_file(
      write_temp("preset_over.yaml", replace(kBase, "{preset: gpt3-xl}", "{preset: gpt3-xl, layers: 12}")));
  EXPECT_EQ(b.only_job().model.layers, 12);
  EXPECT_EQ(b.only_job().model.hidden, 2048);
  const Failure f = load_error("partial.yaml", replace(kBase, "{preset: gpt3-xl}", "{layers: 4, hidden: 512}"));
  EXPECT_EQ(f.key, "job.model.heads");
  EXPECT_EQ(f.line, 15);
}

TEST(Scenario, PlacementFileResolvesAgainstTheScenarioFolder) {
  const std::string place = write_temp("place.json", "{}");
  const Scenario s = load_scenario_file(write_temp("with_file.yaml", kBase + "placement: file:place.json\n"));
  const std::string expected = std::filesystem::path(place).lexically_normal().string();
  EXPECT_EQ(s.placement, "file:" + expected);
  EXPECT_TRUE(std::filesystem::path(s.placement.substr(5)).is_absolute());
  const Failure f = load_error("missing_place.yaml", kBase + "placement: file:nowhere.json\n");
  EXPECT_EQ(f.key, "placement");
  EXPECT_EQ(f.line, 19);
  EXPECT_NE(f.what.find("not found"), std::string::npos);
}

// Each case: one change to kBase, the key path and line the error must name, and a substring of the message.
struct BadCase {
  const char* label;
  const char* from;
  const char* to;
  const char* key;
  int line;
  const char* substring;
};

TEST(Scenario, BadInputsNameKeyLineAndExpectation) {
  const BadCase cases[] = {
      {"unknown key", "parallelism:", "paralelism:", "job.paralelism", 18, "did you mean 'parallelism'?"},
      {"unknown top key", "job:", "jbo:", "jbo", 14, "did you mean 'job'?"},
      {"wrong unit", "bandwidth: 1Gbps", "bandwidth: 10ms", "platform.wan.default.bandwidth", 13, "unit of a latency"},
      {"negative bw", "bandwidth: 1Gbps", "bandwidth: -1Gbps", "platform.wan.default.bandwidth", 13, "negative"},
      {"zero bw", "bandwidth: 1Gbps", "bandwidth: 0Gbps", "platform.wan.default.bandwidth", 13, "greater than zero"},
      {"unknown gpu", "gpu: A100-40GB", "gpu: A100-40G", "platform.regions.0.gpu", 7, "did you mean 'A100-40GB'?"},
      {"unknown preset", "preset: gpt3-xl", "preset: gpt3-xxl", "job.model.preset", 15, "did you mean 'gpt3-xl'?"},
      {"wrong type", "hosts: 2\n      gpus_per_host: 2\n      gpu: A100",
       "hosts: two\n      gpus_per_host: 2\n      gpu: A100", "platform.regions.0.hosts", 5, "expected an integer"},
      {"list for int", "global_batch: 16", "global_batch: [16]", "job.global_batch", 16, "got a list"},
      {"too many ranks", "dp: 2, tp: 2, pp: 2", "dp: 2, tp: 2, pp: 4", "job.parallelism", 18,
       "16 ranks, but the platform has 8 GPUs"},
      {"batch", "micro_batch: 2", "micro_batch: 3", "job.global_batch", 16,
       "not divisible by dp x micro_batch = 2 x 3 = 6"},
      {"heads tp", "tp: 2, pp", "tp: 3, pp", "job.parallelism.tp", 18, "heads 16 are not divisible by tp 3"},
      {"layers pp", "{preset: gpt3-xl}", "{preset: gpt3-xl, layers: 1}", "job.parallelism.pp", 18,
       "larger than the model's 1 layers"},
      {"hidden heads", "{preset: gpt3-xl}", "{preset: gpt3-xl, heads: 6}", "job.model.heads", 15,
       "not divisible by heads 6"},
      {"duplicate region", "name: west", "name: east", "platform.regions.1.name", 8, "duplicate region name 'east'"},
      {"zero hosts", "hosts: 2\n      gpus_per_host: 2\n      gpu: V100",
       "hosts: 0\n      gpus_per_host: 2\n      gpu: V100", "platform.regions.1.hosts", 9,
       "expected an integer in [1, 4096], got 0"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.label);
    const Failure f = load_error("bad.yaml", replace(kBase, c.from, c.to));
    EXPECT_EQ(f.key, c.key);
    EXPECT_EQ(f.line, c.line);
    EXPECT_NE(f.what.find(c.substring), std::string::npos) << f.what;
  }
}

TEST(Scenario, BadJobSettings) {
  const struct {
    const char* extra;
    const char* key;
    int line;
    const char* substring;
  } cases[] = {
      {"  schedule: zigzag\n", "job.schedule", 19, "expected one of 1f1b | gpipe"},
      {"  collective: allgather\n", "job.collective", 19, "expected one of ring | hierarchical | tree"},
      {"  precision: fp4\n", "job.precision", 19, "expected one of fp16 | bf16 | fp32 | fp8"},
      {"  precision: fp8\n", "job.precision", 19, "GPU 'A100-40GB' (host east-0) has no fp8 peak"},
      {"  utilisation: 1.5\n", "job.utilisation", 19, "expected a fraction of peak flop/s in [0.001, 1]"},
      {"  utilisation: 0\n", "job.utilisation", 19, "[0.001, 1]"},
      {"  utilisation: 1e-300\n", "job.utilisation", 19, "[0.001, 1]"},
      {"  utilisation: 1.0000001\n", "job.utilisation", 19, "utilisation 1.0000001 is out of range"},
      {"  iterations: 0\n", "job.iterations", 19, "expected an integer >= 1, got 0"},
      {"  check_memory: maybe\n", "job.check_memory", 19, "expected true or false"},
      {"  recompute: partial\n", "job.recompute", 19, "'partial' is not allowed: expected one of none | selective | full"},
      {"  recompute: [full]\n", "job.recompute", 19, "got a list"},
      {"  optimizer: adamw\n", "job.optimizer", 19, "'adamw' is not allowed: expected one of adam | sgd"},
      {"  pipeline_p2p: async\n", "job.pipeline_p2p", 19,
       "'async' is not allowed: expected one of blocking | overlapped"},
      {"network:\n  channels_per_peer: 0\n", "network.channels_per_peer", 20, "expected an integer in [1, 64], got 0"},
      {"network:\n  channels_per_peer: -2\n", "network.channels_per_peer", 20,
       "expected an integer in [1, 64], got -2"},
      {"network:\n  channels_per_peer: 65\n", "network.channels_per_peer", 20,
       "expected an integer in [1, 64], got 65"},
      {"network:\n  channels_per_peer: 1.5\n", "network.channels_per_peer", 20, "expected an integer, got '1.5'"},
      {"network:\n  channels_per_pear: 2\n", "network.channels_per_pear", 20, "did you mean 'channels_per_peer'?"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.extra);
    const Failure f = load_error("badjob.yaml", kBase + c.extra);
    EXPECT_EQ(f.key, c.key);
    EXPECT_EQ(f.line, c.line);
    EXPECT_NE(f.what.find(c.substring), std::string::npos) << f.what;
  }
}

TEST(Scenario, MegatronKnobsAreRead) {
  const Scenario s = load_scenario_file(write_temp(
      "knobs.yaml", kBase + "  schedule: gpipe\n  recompute: selective\n  optimizer: sgd\n  pipeline_p2p: blocking\n"
                            "network:\n  channels_per_peer: 4\n"));
  EXPECT_EQ(s.only_job().recompute, "selective");
  EXPECT_EQ(s.only_job().optimizer, "sgd");
  EXPECT_EQ(s.only_job().pipeline_p2p, "blocking");
  EXPECT_TRUE(s.only_job().pipeline_p2p_blocking());  // explicit, against gpipe's default
  EXPECT_EQ(s.network.channels_per_peer, 4);
  const Scenario t = load_scenario_file(write_temp(
      "knobs2.yaml", kBase + "  recompute: full\n  pipeline_p2p: overlapped\nnetwork:\n  channels_per_peer: 64\n"));
  EXPECT_EQ(t.only_job().recompute, "full");
  EXPECT_EQ(t.only_job().optimizer, "adam");
  EXPECT_EQ(t.only_job().pipeline_p2p, "overlapped");
  EXPECT_FALSE(t.only_job().pipeline_p2p_blocking());
  EXPECT_EQ(t.network.channels_per_peer, 64);
  // gpipe without the key: its reference implementation's mode, overlapped.
  const Scenario u = load_scenario_file(write_temp("knobs3.yaml", kBase + "  schedule: gpipe\n"));
  EXPECT_FALSE(u.only_job().pipeline_p2p_blocking());
}

TEST(Scenario, KnobsOfCodeBuiltScenariosAreChecked) {
  Scenario s = load_scenario_file(write_temp("knobs4.yaml", kBase));
  s.only_job().recompute = "sometimes";
  EXPECT_THROW(validate_job(s), InputError);
  s = load_scenario_file(write_temp("knobs4.yaml", kBase));
  s.only_job().optimizer = "lamb";
  EXPECT_THROW(validate_job(s), InputError);
  s = load_scenario_file(write_temp("knobs4.yaml", kBase));
  s.only_job().pipeline_p2p = "eager";
  EXPECT_THROW(validate_job(s), InputError);
  s = load_scenario_file(write_temp("knobs4.yaml", kBase));
  s.network.channels_per_peer = 0;
  try {
    validate_job(s);
    ADD_FAILURE() << "channels_per_peer 0 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "network.channels_per_peer");
  }
  s.network.channels_per_peer = 1;
  EXPECT_NO_THROW(validate_job(s));
}

TEST(Scenario, WanPairProblems) {
  const std::string with_pairs = kBase + "";
  const auto pair = [](const std::string& p) {
    return replace(kBase, "    default: {bandwidth: 1Gbps, latency: 30ms}\n",
                   "    default: {bandwidth: 1Gbps, latency: 30ms}\n    pairs:\n" + p);
  };
  Failure f = load_error("pair1.yaml", pair("      - {between: [east, north], bandwidth: 1Gbps, latency: 1ms}\n"));
  EXPECT_EQ(f.key, "platform.wan.pairs.0.between");
  EXPECT_EQ(f.line, 15);
  EXPECT_NE(f.what.find("unknown region 'north'"), std::string::npos) << f.what;
  f = load_error("pair2.yaml", pair("      - {between: [east, west], latency: 1ms}\n"
                                    "      - {between: [west, east], latency: 2ms}\n"));
  EXPECT_EQ(f.key, "platform.wan.pairs.1");
  EXPECT_NE(f.what.find("duplicate WAN pair east-west"), std::string::npos) << f.what;
  f = load_error("pair3.yaml", pair("      - {between: [east, east], latency: 1ms}\n"));
  EXPECT_NE(f.what.find("two different regions"), std::string::npos) << f.what;
  f = load_error("nowan.yaml", replace(kBase, "  wan:\n    default: {bandwidth: 1Gbps, latency: 30ms}\n", ""));
  EXPECT_EQ(f.key, "platform");
  EXPECT_NE(f.what.find("no WAN link for regions east-west"), std::string::npos) << f.what;
}

TEST(Scenario, MalformedYamlAndMissingFile) {
  const Failure f = load_error("malformed.yaml", "name: x\njob:\n  model: {preset: gpt3-xl\n  global_batch: 4\n");
  EXPECT_GT(f.line, 0);
  EXPECT_NE(f.what.find("malformed YAML"), std::string::npos) << f.what;
  try {
    load_scenario_file("/nonexistent/dir/none.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/none.yaml"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos);
  }
  const Failure empty = load_error("empty.yaml", "");
  EXPECT_NE(empty.what.find("expected a scenario map"), std::string::npos) << empty.what;
}

TEST(Scenario, PlatformSourcesAreExclusive) {
  Failure f = load_error("nosrc.yaml", replace(kBase, "  regions:", "  regionz:"));
  EXPECT_EQ(f.key, "platform.regionz");
  EXPECT_NE(f.what.find("did you mean 'regions'?"), std::string::npos);
  f = load_error("hulkmissing.yaml",
                 "platform:\n  hulk: {dir: no/such/dir}\njob:\n  model: {preset: gpt3-xl}\n  global_batch: 1\n");
  EXPECT_EQ(f.key, "platform.hulk.dir");
  EXPECT_EQ(f.line, 2);
  EXPECT_NE(f.what.find("not found"), std::string::npos);
  f = load_error(
      "xmlmissing.yaml",
      "platform:\n  simgrid:\n    file: none.xml\n    gpus: {default: {gpu: T4}}\njob:\n  model: {preset: gpt3-xl}\n"
      "  global_batch: 1\n");
  EXPECT_EQ(f.key, "platform.simgrid.file");
  EXPECT_EQ(f.line, 3);
}

TEST(Scenario, ValidateJobOnCodeBuiltScenario) {
  Scenario s = load_scenario_file(examples() + "two-region-gpt.yaml");
  s.only_job().par.dp = 4;  // 32 ranks on 16 GPUs
  try {
    validate_job(s);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "job.parallelism");
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("two-region-gpt.yaml"), std::string::npos);
  }
  s.only_job().par.dp = 2;
  s.only_job().schedule = "interleaved";
  EXPECT_THROW(validate_job(s), InputError);
}

TEST(Scenario, DuplicateKeysAndAbsurdSizes) {
  Failure f = load_error("dupkey.yaml", kBase + "job:\n  global_batch: 4\n");
  EXPECT_EQ(f.key, "job");
  EXPECT_EQ(f.line, 19);
  EXPECT_NE(f.what.find("duplicate key 'job' (first at line 14)"), std::string::npos) << f.what;
  f = load_error("huge.yaml", replace(kBase, "hosts: 2\n      gpus_per_host: 2\n      gpu: V100",
                                      "hosts: 4096\n      gpus_per_host: 8\n      gpu: V100-32GB\n"
                                      "    - {name: r2, hosts: 4096, gpu: V100-32GB}\n"
                                      "    - {name: r3, hosts: 4096, gpu: V100-32GB}\n"
                                      "    - name: r4\n      hosts: 4096\n      gpu: V100"));
  EXPECT_EQ(f.key, "platform.regions.4.hosts");
  EXPECT_NE(f.what.find("servers (expected at most 16384 in all"), std::string::npos) << f.what;
  // One region's zone keeps every route between its hosts: a region is bounded on its own.
  f = load_error("region.yaml", replace(kBase, "hosts: 2\n      gpus_per_host: 2\n      gpu: V100",
                                        "hosts: 4097\n      gpus_per_host: 2\n      gpu: V100"));
  EXPECT_EQ(f.key, "platform.regions.1.hosts");
  // Regions after the one that crosses the bound are not each reported again: one problem, one line.
  f = load_error("many.yaml", replace(kBase, "    - name: west\n      hosts: 2\n",
                                     "    - name: west\n      hosts: 4096\n      gpu: V100-32GB\n"
                                     "    - {name: r2, hosts: 4096, gpu: V100-32GB}\n"
                                     "    - {name: r3, hosts: 4096, gpu: V100-32GB}\n"
                                     "    - {name: r4, hosts: 4096, gpu: V100-32GB}\n    - name: north\n"
                                     "      hosts: 9\n      gpu: V100-32GB\n    - name: south\n      hosts: 9\n"));
  EXPECT_EQ(f.key, "platform.regions.4.hosts");
  EXPECT_EQ(f.what.find("more)"), std::string::npos) << f.what;
  f = load_error("prefix.yaml", replace(kBase, "    - name: west\n", "    - name: west\n      host_prefix: east\n"));
  EXPECT_EQ(f.key, "platform.regions.1.host_prefix");
  EXPECT_NE(f.what.find("host name 'east-0' is generated twice"), std::string::npos) << f.what;
}
