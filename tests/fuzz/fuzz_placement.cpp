// libFuzzer target: arbitrary bytes as a placement file for a fixed two-job and a fixed one-job scenario.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_common.hpp"
#include "sim/report/placement_json.hpp"

namespace {

hulk::Scenario platform_of(bool several) {
  hulk::Scenario s;
  s.name = "fuzz";
  s.file = "fuzz.yaml";
  s.platform.regions = {"east", "west"};
  for (int i = 0; i < 3; ++i) {
    hulk::HostSpec h;
    h.name = "h" + std::to_string(i);
    h.region = i % 2;
    h.gpus = 2;
    h.gpu.memory_bytes = 80e9;
    s.platform.hosts.push_back(h);
  }
  s.only_job().name = "a";
  s.only_job().par = {2, 1, 1};
  if (several) {
    hulk::JobSpec b = s.only_job();
    b.name = "b";
    b.par = {1, 1, 2};
    s.jobs = {s.only_job(), b};
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const hulk::Scenario one = platform_of(false), two = platform_of(true);
  const nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr, false);
  if (doc.is_discarded()) return 0;  // not JSON: load_placement_file's own error, not this target's concern
  for (const hulk::Scenario* s : {&one, &two})
    hulk_fuzz::expect_input_errors_only([&] { hulk::placement_from_json(*s, doc, "fuzz.json"); });
  return 0;
}
