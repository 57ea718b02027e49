// comm.csv and trace.json written by the simulator from its spilled, sorted runs (SimOptions::trace_dir)
// have exactly the bytes rendered from the in-memory result of the same simulation. The recorder's buffer is made
// tiny, so both files come from many runs merged back together; each simulation runs in its own child process.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/core/subprocess.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/report/outputs.hpp"
#include "sim_fixtures.hpp"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

hulk::Placement in_order(const hulk::Scenario& s, int per_host) {
  hulk::Placement p;
  for (int r = 0; r < s.only_job().par.ranks(); ++r) p.gpu_of_rank.push_back({r / per_host, r % per_host});
  return p;
}

void expect_same_bytes(const hulk::Scenario& s, const hulk::Placement& placement) {
  const nlohmann::json in_memory = hulk::run_in_child([&] {
    const hulk::SimResult r = hulk::simulate(s, placement);
    return nlohmann::json{{"csv", hulk::comm_csv(s, r)},
                          {"trace", hulk::chrome_trace(s, r).dump() + "\n"},
                          {"messages", r.messages}};
  });
  const fs::path dir = fs::temp_directory_path() / ("hulk_streamed_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const nlohmann::json streamed = hulk::run_in_child([&] {
    hulk::SimOptions o;
    o.trace_dir = dir.string();
    o.trace_buffer_records = 5;  // dozens of sorted runs on disk
    const hulk::SimResult r = hulk::simulate(s, placement, o);
    return nlohmann::json{{"events_in_memory", r.events.size()}, {"spans_in_memory", r.spans.size()}};
  });
  EXPECT_EQ(streamed["events_in_memory"], 0);
  EXPECT_EQ(streamed["spans_in_memory"], 0);
  const std::string csv = read(dir / "comm.csv"), trace = read(dir / "trace.json");
  EXPECT_GT(in_memory["messages"].get<long long>(), 50);  // enough rows for many spilled runs
  EXPECT_EQ(csv, in_memory["csv"].get<std::string>());
  EXPECT_EQ(trace, in_memory["trace"].get<std::string>());
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 2);  // comm.csv and trace.json; no spill or temporary file left
  fs::remove_all(dir);
}

}  // namespace

TEST(StreamedOutputs, ThreeDimensionalJobAcrossRegions) {
  hulk::Scenario s = hulk_test::scenario(hulk_test::grid_platform(2, 2, 4, 12.5e9, 5e-6, 1.25e9, 20e-3),
                                         hulk_test::small_job(/*dp*/ 2, /*tp*/ 2, /*pp*/ 2, 4, 4));
  s.only_job().iterations = 2;
  expect_same_bytes(s, in_order(s, 2));
}

TEST(StreamedOutputs, PerMessageTensorParallelGpipe) {
  hulk::Scenario s = hulk_test::scenario(hulk_test::grid_platform(1, 4, 2, 12.5e9, 5e-6, 1.25e9, 20e-3),
                                         hulk_test::small_job(/*dp*/ 2, /*tp*/ 2, /*pp*/ 2, 3, 3));
  s.only_job().schedule = "gpipe";
  hulk::Placement p;  // rank r on host r mod 4: TP groups across hosts, every ring step a SimGrid message
  for (int r = 0; r < s.only_job().par.ranks(); ++r) p.gpu_of_rank.push_back({r % 4, r / 4});
  expect_same_bytes(s, p);
}
