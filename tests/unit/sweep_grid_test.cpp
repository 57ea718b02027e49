// sweep's grid and CSV (sim/methods/sweep_grid.hpp): point order, empty fields for absent values, resuming after
// the last complete point, a failed append is an error, merging shards.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/methods/sweep_grid.hpp"

namespace hulk {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hulk-sweep-grid-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(SweepGrid, PointsVaryTheLastAxisFastest) {
  const auto axes = parse_sweep_axes({"a=1,2", "b=x,y,z"});
  ASSERT_EQ(sweep_point_count(axes), 6u);
  EXPECT_EQ(sweep_point_label(axes, 0), "a=1 b=x");
  EXPECT_EQ(sweep_point_label(axes, 4), "a=2 b=y");
  const auto ov = sweep_point_overrides(axes, 5);
  ASSERT_EQ(ov.size(), 2u);
  EXPECT_EQ(ov[0].key, "a");
  EXPECT_EQ(ov[1].value, "z");
  EXPECT_THROW(parse_sweep_axes({}), InputError);
  EXPECT_THROW(parse_sweep_axes({"a"}), InputError);
  EXPECT_THROW(parse_sweep_axes({"a=,"}), InputError);
}

TEST(SweepGrid, AbsentValuesAreEmptyFieldsNeverZero) {
  const auto axes = parse_sweep_axes({"k=v"});
  CompareReport rep;
  rep.lower_bound_s = 0.5;
  MethodResult failed;
  failed.method = "round-robin";
  failed.error = "does not fit, really";
  MethodResult greedy;
  greedy.method = "greedy";
  greedy.ok = true;
  greedy.iteration_time_s = 2;
  greedy.speedup_vs_greedy = 1.0;
  greedy.gap_to_lower_bound = 3.0;
  rep.results = {failed, greedy};
  EXPECT_EQ(sweep_csv_rows(axes, 0, rep),
            "0,v,round-robin,0,,,,,0.5,,\"does not fit, really\"\n"
            "0,v,greedy,1,2,,1,3,0.5,0,\n");
}

TEST(SweepGrid, ResumeKeepsOnlyCompletePoints) {
  const fs::path dir = scratch("resume");
  const auto axes = parse_sweep_axes({"k=1,2"});
  const std::string head = sweep_csv_header(axes);
  const fs::path csv = dir / "sweep.csv";
  std::ofstream(csv) << head << "\n0,1,a,1\n0,1,b,1\n1,2,a,1\n";  // point 1 lacks method b
  EXPECT_EQ(completed_sweep_points(csv.string(), head, 2), std::set<std::size_t>{0});
  EXPECT_EQ(read(csv), head + "\n0,1,a,1\n0,1,b,1\n");
  std::ofstream(csv) << "other,header\n";
  EXPECT_THROW(completed_sweep_points(csv.string(), head, 2), InputError);
  fs::remove_all(dir);
}

TEST(SweepGrid, FailedAppendIsAnError) {
  const fs::path dir = scratch("append");
  // A folder where the file should be: opening it for append fails, as a full disk would fail the write.
  fs::create_directories(dir / "sweep.csv");
  EXPECT_THROW(append_sweep_rows((dir / "sweep.csv").string(), "0,1\n"), InputError);
  append_sweep_rows((dir / "ok.csv").string(), "0,1\n");
  EXPECT_EQ(read(dir / "ok.csv"), "0,1\n");
  fs::remove_all(dir);
}

TEST(SweepGrid, MergeOrdersRowsByPoint) {
  const fs::path dir = scratch("merge");
  std::ofstream(dir / "sweep.shard-0-of-2.csv") << "h\n0,a\n2,a\n";
  std::ofstream(dir / "sweep.shard-1-of-2.csv") << "h\n1,a\n";
  const SweepMerge m = merge_sweep_shards(dir.string());
  EXPECT_EQ(m.shards, 2u);
  EXPECT_EQ(m.points, 3u);
  EXPECT_EQ(read(dir / "sweep.csv"), "h\n0,a\n1,a\n2,a\n");
  std::ofstream(dir / "sweep.shard-1-of-2.csv") << "other\n1,a\n";
  EXPECT_THROW(merge_sweep_shards(dir.string()), InputError);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hulk
