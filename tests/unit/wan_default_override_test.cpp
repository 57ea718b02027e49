// An override of `platform.wan.default` that no region pair uses is refused: otherwise a Slurm sweep varying
// `wan.default.bandwidth` on a scenario whose every pair sets its own gives every row the same.
#include <gtest/gtest.h>

#include <string>

#include "sim/core/errors.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "temp_file.hpp"

using namespace hulk;

namespace {

/** Three regions a, b, c with a WAN default and the given `pairs:` entries, written to `name`. */
std::string three_regions(const std::string& name, const std::string& pairs) {
  const std::string text =
      "name: wan-default\n"
      "platform:\n"
      "  regions:\n"
      "    - {name: a, hosts: 1, gpus_per_host: 1, gpu: A100-80GB}\n"
      "    - {name: b, hosts: 1, gpus_per_host: 1, gpu: A100-80GB}\n"
      "    - {name: c, hosts: 1, gpus_per_host: 1, gpu: A100-80GB}\n"
      "  wan:\n"
      "    default: {bandwidth: 1Gbps, latency: 30ms}\n"
      "    pairs:\n" +
      pairs +
      "job:\n"
      "  model: {preset: bert-large}\n"
      "  global_batch: 3\n"
      "  micro_batch: 1\n"
      "  parallelism: {dp: 3}\n";
  return hulk_test::write_temp_file("hulk_wan_default_tests", name, text);
}

/** The error of loading `file` with --set wan.default.bandwidth=2Gbps, "" if it loads. */
std::string default_override_error(const std::string& file) {
  try {
    load_scenario_file(file, {{"wan.default.bandwidth", "2Gbps"}});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(WanDefault, AnOverrideNoPairUsesIsRefusedOneThatSomePairUsesIsNot) {
  const std::string every = three_regions("every.yaml",
                                          "      - {between: [a, b], bandwidth: 2Gbps, latency: 10ms}\n"
                                          "      - {between: [a, c], bandwidth: 2Gbps, latency: 10ms}\n"
                                          "      - {between: [b, c], bandwidth: 2Gbps, latency: 10ms}\n");
  const std::string msg = default_override_error(every);
  EXPECT_NE(msg.find("every.yaml:8: platform.wan.default: is never used"), std::string::npos) << msg;
  EXPECT_NO_THROW(load_scenario_file(every));  // without the override: a default written for nothing is harmless
  // A pair left out takes the default; so does a pair that leaves out its latency.
  EXPECT_EQ(default_override_error(three_regions("left-out.yaml",
                                                 "      - {between: [a, b], bandwidth: 2Gbps, latency: 10ms}\n"
                                                 "      - {between: [a, c], bandwidth: 2Gbps, latency: 10ms}\n")),
            "");
  EXPECT_EQ(default_override_error(three_regions("no-latency.yaml",
                                                 "      - {between: [a, b], bandwidth: 2Gbps, latency: 10ms}\n"
                                                 "      - {between: [a, c], bandwidth: 2Gbps, latency: 10ms}\n"
                                                 "      - {between: [b, c], latency: 10ms}\n")),
            "");
}

}  // namespace
