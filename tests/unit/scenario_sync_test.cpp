// The job's `sync:` map (DiLoCo): values read, defaults, and every bad value one line naming the file, the
// line and the key.
#include <gtest/gtest.h>

#include "temp_file.hpp"

#include <filesystem>
#include <fstream>

#include "sim/core/errors.hpp"
#include "sim/scenario/scenario.hpp"

using namespace hulk;

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  return hulk_test::write_temp_file("hulk_scenario_sync_tests", name, text);
}

/** Two regions of two single-GPU hosts, a dp 4 job whose line 13 is `sync: SYNC`. */
std::string with_sync(const std::string& sync) {
  return "name: sync\n"                                                     // 1
         "platform:\n"                                                      // 2
         "  regions:\n"                                                     // 3
         "    - {name: east, hosts: 2, gpus_per_host: 1, gpu: A100-80GB}\n"  // 4
         "    - {name: west, hosts: 2, gpus_per_host: 1, gpu: A100-80GB}\n"  // 5
         "  wan:\n"                                                         // 6
         "    default: {bandwidth: 1Gbps, latency: 30ms}\n"                 // 7
         "job:\n"                                                           // 8
         "  model: {preset: bert-large}\n"                                  // 9
         "  global_batch: 8\n"                                              // 10
         "  micro_batch: 2\n"                                               // 11
         "  parallelism: {dp: 4}\n"                                         // 12
         "  sync: " + sync + "\n";                                          // 13
}

std::string error_of(const std::string& name, const std::string& text) {
  try {
    load_scenario(write_temp(name, text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& sync, const std::string& key, const std::string& text) {
  const std::string e = error_of("bad.yaml", with_sync(sync));
  EXPECT_NE(e.find("bad.yaml:13: " + key + ": "), std::string::npos) << sync << " -> " << e;
  EXPECT_NE(e.find(text), std::string::npos) << sync << " -> " << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

}  // namespace

TEST(ScenarioSync, ReadsDilocoAndDefaultsToStep) {
  const Scenario step = load_scenario(write_temp("step.yaml", with_sync("{algorithm: step}")));
  EXPECT_FALSE(step.only_job().sync.diloco());
  const Scenario s = load_scenario(write_temp(
      "d.yaml", with_sync("{algorithm: diloco, inner_steps: 50, islands: host, compression: topk:0.1, overlap: outer}")));
  EXPECT_TRUE(s.only_job().sync.diloco());
  EXPECT_EQ(s.only_job().sync.inner_steps, 50);
  EXPECT_EQ(s.only_job().sync.islands, "host");
  EXPECT_EQ(s.only_job().sync.compression, "topk");
  EXPECT_DOUBLE_EQ(s.only_job().sync.topk_ratio, 0.1);
  EXPECT_DOUBLE_EQ(s.only_job().sync.bytes_per_value(), 0.8);
  EXPECT_EQ(s.only_job().sync.overlap, "outer");
  const Scenario groups = load_scenario(
      write_temp("g.yaml", with_sync("{algorithm: diloco, islands: [[east-0, east-1], [west-0, west-1]]}")));
  EXPECT_EQ(groups.only_job().sync.islands, "groups");
  ASSERT_EQ(groups.only_job().sync.island_groups.size(), 2u);
  EXPECT_EQ(groups.only_job().sync.island_groups[1][0], "west-0");
  EXPECT_EQ(groups.only_job().sync.compression, "none");
  EXPECT_DOUBLE_EQ(groups.only_job().sync.bytes_per_value(), 4.0);
}

TEST(ScenarioSync, BadValuesAreOneLineNamingTheKey) {
  expect_error("{algorithm: localsgd}", "job.sync.algorithm", "expected one of step | diloco");
  expect_error("{algorithm: diloco, inner_steps: 0}", "job.sync.inner_steps", "");
  expect_error("{algorithm: diloco, compression: fp8}", "job.sync.compression", "topk:RATIO");
  expect_error("{algorithm: diloco, compression: 'topk:1.5'}", "job.sync.compression", "1e-6 <= RATIO <= 1");
  expect_error("{algorithm: diloco, compression: 'topk:1e-300'}", "job.sync.compression", "1e-6 <= RATIO <= 1");
  // stod's hex: '0x1p-3' would read as 0.125; a ratio is a plain decimal as every other number.
  expect_error("{algorithm: diloco, compression: 'topk:0x1p-3'}", "job.sync.compression", "1e-6 <= RATIO <= 1");
  expect_error("{algorithm: diloco, islands: continent}", "job.sync.islands", "region | host");
  expect_error("{algorithm: diloco, islands: [[east-0]]}", "job.sync.islands", "at least two host groups");
  expect_error("{algorithm: diloco, overlap: inner}", "job.sync.overlap", "none | outer");
  expect_error("{inner_steps: 10}", "job.sync.inner_steps", "only means something with algorithm: diloco");
  expect_error("{algorithm: diloco, inner_step: 10}", "job.sync.inner_step", "did you mean 'inner_steps'");
  expect_error("{algorithm: diloco, islands: [[east-0, nowhere], [west-0]]}", "job.sync", "unknown host 'nowhere'");
  expect_error("{algorithm: diloco, islands: [[east-0, west-0], [west-0]]}", "job.sync", "in two islands");
}

TEST(ScenarioSync, DilocoNeedsDataParallelism) {
  std::string text = with_sync("{algorithm: diloco}");
  text.replace(text.find("{dp: 4}"), 7, "{dp: 1}");
  text.replace(text.find("global_batch: 8"), 15, "global_batch: 2");
  const std::string e = error_of("dp1.yaml", text);
  EXPECT_NE(e.find("job.sync"), std::string::npos) << e;
  EXPECT_NE(e.find("parallelism.dp >= 2"), std::string::npos) << e;
}
