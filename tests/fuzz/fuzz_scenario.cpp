// libFuzzer target: arbitrary bytes as a scenario file. The loader must answer every input with a Scenario or an
// InputError (one line); anything else (another exception, a crash, a sanitizer report, a hang) is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "fuzz_common.hpp"
#include "sim/scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = hulk_fuzz::scratch_file("scenario.yaml", data, size);
  hulk_fuzz::expect_input_errors_only([&] { hulk::load_scenario(path); });
  return 0;
}
