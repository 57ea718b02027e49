// libFuzzer target: arbitrary bytes as the Hulk data set (node_feature.csv, then edge.txt after a NUL byte) read by
// the importer.
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_common.hpp"
#include "sim/scenario/hulk_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t* split = static_cast<const std::uint8_t*>(std::memchr(data, 0, size));
  const std::size_t nodes = split ? static_cast<std::size_t>(split - data) : size;
  const std::string nodes_path = hulk_fuzz::scratch_file("hulk/node_feature.csv", data, nodes);
  hulk_fuzz::scratch_file("hulk/edge.txt", split ? split + 1 : data + size, split ? size - nodes - 1 : 0);
  hulk::HulkImportOptions options;
  options.dir = nodes_path.substr(0, nodes_path.rfind('/'));
  hulk_fuzz::expect_input_errors_only([&] { hulk::import_hulk(options); });
  return 0;
}
