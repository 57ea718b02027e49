// The loader reports every independent problem of a file at once (one line each, the first line what a
// stop-at-first loader said), and leaves out problems that are consequences of another one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/methods/scenario_loading.hpp"

using namespace hulk;

namespace {

const char* kScenario = R"(name: several
platform:
  regions:
    - name: east
      hosts: 2
      gpus_per_host: 2
      gpu: A100-40GB
      host_link: {bandwidth: 10Gbps, latency: 50us}
    - name: west
      hosts: 2
      gpus_per_host: 2
      gpu: V100-32GB
  wan:
    default: {bandwidth: 1Gbps, latency: 30ms}
network: {model: CM02, tcp_window: 0}
job:
  model: {preset: gpt3-xl}
  global_batch: 16
  micro_batch: 2
  parallelism: {dp: 2, tp: 2, pp: 2}
  iterations: 1
placement: round-robin
)";

std::string write(const std::string& name, const std::string& text) {
  const std::string dir = ::testing::TempDir() + "/hulk_errors_at_once";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

std::string edit(std::string text, const std::vector<std::pair<std::string, std::string>>& edits) {
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return text;
}

std::vector<std::string> lines_of(const std::string& what) {
  std::vector<std::string> out;
  std::istringstream in(what);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The error's lines; ADD_FAILURE if the file loads.
std::vector<std::string> error_lines(const std::string& path, InputError* first = nullptr) {
  try {
    load_scenario_file(path);
  } catch (const InputError& e) {
    if (first != nullptr) *first = e;
    return lines_of(e.what());
  }
  ADD_FAILURE() << "no error";
  return {};
}

}  // namespace

TEST(ErrorsAtOnce, TheBaseLoads) { EXPECT_NO_THROW(load_scenario_file(write("base.yaml", kScenario))); }

TEST(ErrorsAtOnce, UnknownKeysInSeveralSections) {
  const std::string path = write("keys.yaml", edit(kScenario, {{"name: several\n", "name: several\ncolour: blue\n"},
                                                               {"      hosts: 2\n      gpus_per_host: 2\n      gpu: V",
                                                                "      hosts: 2\n      gpu_per_host: 2\n      gpu: V"},
                                                               {"  iterations: 1", "  iteration: 1"},
                                                               {"{model: CM02,", "{modle: CM02,"}}));
  InputError first("", 0, "", "");
  const std::vector<std::string> lines = error_lines(path, &first);
  ASSERT_EQ(lines.size(), 4u) << first.what();
  EXPECT_EQ(lines[0], path + ":2: colour: unknown key 'colour' (expected one of: name, description, seed, platform, "
                             "network, job, jobs, placement, events, robust, plan, prices)");
  EXPECT_NE(lines[1].find(":12: platform.regions.1.gpu_per_host: unknown key 'gpu_per_host' (did you mean "
                          "'gpus_per_host'?)"),
            std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find(":16: network.modle: unknown key 'modle'"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find(":22: job.iteration: unknown key 'iteration' (did you mean 'iterations'?)"),
            std::string::npos)
      << lines[3];
  // The exception itself carries the first problem's place.
  EXPECT_EQ(first.key(), "colour");
  EXPECT_EQ(first.line(), 2);
}

TEST(ErrorsAtOnce, BadValuesInDifferentSectionsAndFields) {
  const std::string path =
      write("values.yaml", edit(kScenario, {{"bandwidth: 10Gbps", "bandwidth: 1e-300Gbps"},
                                            {"latency: 30ms", "latency: 1e308s"},
                                            {"tcp_window: 0", "tcp_window: 5GB"},
                                            {"global_batch: 16", "global_batch: 640000000"},
                                            {"  iterations: 1", "  iterations: 0"},
                                            {"placement: round-robin", "placement: best"}}));
  const std::vector<std::string> lines = error_lines(path);
  ASSERT_EQ(lines.size(), 6u);
  const char* keys[] = {"platform.regions.0.host_link.bandwidth: '1e-300Gbps' is out of range",
                        "platform.wan.default.latency: '1e308s' is out of range",
                        "network.tcp_window: '5GB' is out of range",
                        "placement: unknown placement 'best'",
                        "job.global_batch: 640000000 is too large",
                        "job.iterations: expected an integer >= 1, got 0"};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].rfind(path + ":", 0), 0u) << lines[i];  // every line in the standard format
    EXPECT_NE(lines[i].find(keys[i]), std::string::npos) << lines[i];
  }
}

TEST(ErrorsAtOnce, TheFirstLineIsTheSingleErrorOfBefore) {
  // One problem: one line, exactly as before the collector.
  const std::string one = write("one.yaml", edit(kScenario, {{"gpu: V100-32GB", "gpu: V100-32G"}}));
  const std::vector<std::string> single = error_lines(one);
  ASSERT_EQ(single.size(), 1u);
  // The same problem plus a later one: the first line is unchanged.
  const std::string two =
      write("two.yaml", edit(kScenario, {{"gpu: V100-32GB", "gpu: V100-32G"}, {"  iterations: 1", "  iterations: x"}}));
  const std::vector<std::string> both = error_lines(two);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].substr(both[0].find(':')), single[0].substr(single[0].find(':')));
}

TEST(ErrorsAtOnce, DependentProblemsAreNotReported) {
  // A bad region: the WAN (whose pairs name regions) and the job (checked against the platform) are not checked,
  // so the 2 x 2 x 8 = 32 ranks on 8 GPUs are not reported; a bad value elsewhere in the job still is.
  const std::string path = write("dependent.yaml", edit(kScenario, {{"gpu: A100-40GB", "gpu: nope"},
                                                                    {"pp: 2}", "pp: 8}"},
                                                                    {"  iterations: 1", "  iterations: -3"}}));
  const std::vector<std::string> lines = error_lines(path);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("platform.regions.0.gpu: unknown GPU 'nope'"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("job.iterations: expected an integer >= 1, got -3"), std::string::npos) << lines[1];
  // Several problems of one job that combine values: only the first (tp 3 breaks heads % tp and the rank count).
  const std::string combined = write("combined.yaml", edit(kScenario, {{"tp: 2", "tp: 3"}}));
  const std::vector<std::string> one = error_lines(combined);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_NE(one[0].find("job.parallelism.tp: heads 16 are not divisible by tp 3"), std::string::npos) << one[0];
}

TEST(ErrorsAtOnce, SeveralBadRegionsAndPairs) {
  const std::string path = write(
      "regions.yaml", edit(kScenario, {{"hosts: 2\n      gpus_per_host: 2\n      gpu: A",
                                        "hosts: 0\n      gpus_per_host: 2\n      gpu: A"},
                                       {"gpus_per_host: 2\n      gpu: V", "gpus_per_host: 99\n      gpu: V"}}));
  const std::vector<std::string> lines = error_lines(path);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("platform.regions.0.hosts: expected an integer in [1, 4096], got 0"), std::string::npos);
  EXPECT_NE(lines[1].find("platform.regions.1.gpus_per_host: expected an integer in [1, 64], got 99"),
            std::string::npos);
  // Three regions, two bad pairs: both reported.
  const std::string three = edit(kScenario, {{"  wan:\n", "    - name: north\n      hosts: 1\n      gpu: T4\n  wan:\n"}});
  const std::string pairs = write(
      "pairs.yaml", edit(three, {{"    default: {bandwidth: 1Gbps, latency: 30ms}\n",
                                  "    default: {bandwidth: 1Gbps, latency: 30ms}\n    pairs:\n"
                                  "      - {between: [east, west], bandwidth: 0bps}\n"
                                  "      - {between: [east, north], latency: 11s}\n"}}));
  const std::vector<std::string> pl = error_lines(pairs);
  ASSERT_EQ(pl.size(), 2u);
  EXPECT_NE(pl[0].find("platform.wan.pairs.0.bandwidth"), std::string::npos) << pl[0];
  EXPECT_NE(pl[1].find("platform.wan.pairs.1.latency: '11s' is out of range"), std::string::npos) << pl[1];
  // A bad default and a bad pair that gives both its fields: both reported; a pair that takes a field from the
  // bad default is not checked (its problem would be the default's).
  const std::string default_and_pair = write(
      "default-pair.yaml", edit(three, {{"    default: {bandwidth: 1Gbps, latency: 30ms}\n",
                                         "    default: {bandwidth: 1Gbps, latency: 1e308s}\n    pairs:\n"
                                         "      - {between: [east, west], bandwidth: 1e-300Gbps, latency: 1ms}\n"
                                         "      - {between: [east, north], bandwidth: 0bps}\n"}}));
  const std::vector<std::string> dp = error_lines(default_and_pair);
  ASSERT_EQ(dp.size(), 2u);
  EXPECT_NE(dp[0].find("platform.wan.default.latency: '1e308s' is out of range"), std::string::npos) << dp[0];
  EXPECT_NE(dp[1].find("platform.wan.pairs.0.bandwidth: '1e-300Gbps' is out of range"), std::string::npos) << dp[1];
  const std::string with_default = write(
      "default.yaml", edit(three, {{"latency: 30ms}", "latency: 30s}"}, {"hosts: 1\n", "hosts: 0\n"}}));
  const std::vector<std::string> dl = error_lines(with_default);
  ASSERT_EQ(dl.size(), 2u);
  EXPECT_NE(dl[0].find("platform.regions.2.hosts"), std::string::npos) << dl[0];
  EXPECT_NE(dl[1].find("platform.wan.default.latency: '30s' is out of range"), std::string::npos) << dl[1];
}
