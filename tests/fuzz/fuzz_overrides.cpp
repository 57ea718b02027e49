// libFuzzer target: arbitrary bytes as `--set` overrides (one KEY=VALUE per line) on the bundled two-job example.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "sim/scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<hulk::Override> overrides;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  while (std::getline(lines, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    overrides.push_back({line.substr(0, eq), line.substr(eq + 1)});
  }
  hulk_fuzz::expect_input_errors_only(
      [&] { hulk::load_scenario(std::string(HULK_SOURCE_DIR) + "/scenarios/examples/two-jobs.yaml", overrides); });
  return 0;
}
