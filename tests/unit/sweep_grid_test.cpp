// sweep's grid and CSV (sim/lab/sweep_grid.hpp): point order, empty fields for absent values, resuming after
// the last complete point, a failed append is an error, merging shards.
#include <algorithm>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/lab/sweep_columns.hpp"
#include "sim/lab/sweep_grid.hpp"
#include "sim/lab/sweep_manifest.hpp"

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
  MethodResult used = greedy;
  used.method = "search";
  used.compute_time_share = 0.25;
  used.mfu = 0.125;
  rep.results = {failed, greedy, used};
  EXPECT_EQ(sweep_csv_rows(axes, 0, rep),
            "0,v,round-robin,0,,,,,0.5,,,,\"does not fit, really\"\n"
            "0,v,greedy,1,2,,1,3,0.5,0,,,\n"
            "0,v,search,1,2,,1,3,0.5,0,0.25,0.125,\n");
}

/** Rows "r1\nr2\n" each padded with ",1" to the header's column count (a complete row, as a run writes). */
std::string rows(const std::vector<SweepAxis>& axes, const std::vector<std::string>& starts) {
  const auto fields = [](const std::string& line) {  // commas outside quotes, + 1
    std::size_t n = 1;
    bool quoted = false;
    for (char c : line) quoted = c == '"' ? !quoted : quoted, n += !quoted && c == ',';
    return n;
  };
  const std::size_t columns = fields(sweep_csv_header(axes));
  std::string out;
  for (std::string r : starts) {
    while (fields(r) < columns) r += ",1";
    out += r + "\n";
  }
  return out;
}

TEST(SweepGrid, ResumeKeepsOnlyCompletePoints) {
  const fs::path dir = scratch("resume");
  const auto axes = parse_sweep_axes({"k=1,2"});
  const std::string head = sweep_csv_header(axes);
  const fs::path csv = dir / "sweep.csv";
  std::ofstream(csv) << head << "\n" << rows(axes, {"0,1,a", "0,1,b", "1,2,a"});  // point 1 lacks method b
  EXPECT_EQ(completed_sweep_points(csv.string(), axes, {"a", "b"}), std::set<std::size_t>{0});
  EXPECT_EQ(read(csv), head + "\n" + rows(axes, {"0,1,a", "0,1,b"}));
  // A row cut short (fewer fields than the header) is not a result.
  std::ofstream(csv) << head << "\n" << rows(axes, {"0,1,a", "0,1,b"}) << "1,2,a,1\n" << rows(axes, {"1,2,b"});
  EXPECT_EQ(completed_sweep_points(csv.string(), axes, {"a", "b"}), std::set<std::size_t>{0});
  // A row that says ok with a time that is no time (nan, empty, negative), or whose ok is neither 0 nor 1, is not a
  // result either; a failed row (ok 0, no time) is.
  for (const char* bad : {"1,2,b,1,nan", "1,2,b,1,", "1,2,b,1,-3", "1,2,b,yes,1"}) {
    std::ofstream(csv) << head << "\n" << rows(axes, {"0,1,a", "0,1,b", "1,2,a", bad});
    EXPECT_EQ(completed_sweep_points(csv.string(), axes, {"a", "b"}), std::set<std::size_t>{0}) << bad;
  }
  std::ofstream(csv) << head << "\n" << rows(axes, {"0,1,a", "0,1,b", "1,2,a", "1,2,b,0,"});
  EXPECT_EQ(completed_sweep_points(csv.string(), axes, {"a", "b"}), (std::set<std::size_t>{0, 1}));
  // An empty file gets its header.
  std::ofstream(csv, std::ios::trunc).flush();
  EXPECT_TRUE(completed_sweep_points(csv.string(), axes, {"a", "b"}).empty());
  EXPECT_EQ(read(csv), head + "\n");
  std::ofstream(csv) << "other,header\n";
  EXPECT_THROW(completed_sweep_points(csv.string(), axes, {"a", "b"}), InputError);
  fs::remove_all(dir);
}

TEST(SweepGrid, ResumeKeysRowsByPointValuesAndMethods) {
  const fs::path dir = scratch("resume-keys");
  const fs::path csv = dir / "sweep.csv";
  // Rows of the grid 100Mbps,10Gbps; the grid is now 100Mbps,1Gbps,10Gbps: point 1 is 1Gbps, not 10Gbps.
  const auto axes = parse_sweep_axes({"bw=100Mbps,1Gbps,10Gbps"});
  std::ofstream(csv) << sweep_csv_header(axes) << "\n" << rows(axes, {"0,100Mbps,a", "1,10Gbps,a"});
  EXPECT_EQ(completed_sweep_points(csv.string(), axes, {"a"}), std::set<std::size_t>{0});
  EXPECT_EQ(read(csv), sweep_csv_header(axes) + "\n" + rows(axes, {"0,100Mbps,a"}));
  // Other methods: the same number of rows per point, but not the requested methods.
  std::ofstream(csv) << sweep_csv_header(axes) << "\n" << rows(axes, {"0,100Mbps,a", "0,100Mbps,b"});
  EXPECT_TRUE(completed_sweep_points(csv.string(), axes, {"a", "c"}).empty());
  // Flow maps are compared leaf by leaf (k.x, k.y); point 1 has no y (an empty field).
  const auto maps = parse_sweep_axes({"k={x: 1, y: 2},{x: 3}"});
  std::ofstream(csv) << sweep_csv_header(maps) << "\n" << rows(maps, {"0,1,2,a", "1,3,,a", "1,3,2,b"});
  EXPECT_EQ(completed_sweep_points(csv.string(), maps, {"a"}), (std::set<std::size_t>{0, 1}));
  EXPECT_EQ(completed_sweep_points(csv.string(), maps, {"b"}), std::set<std::size_t>{});  // 1,3,2 is no point
  fs::remove_all(dir);
}

TEST(SweepGrid, FlowMapAndListValuesAreOneValue) {
  const auto axes = parse_sweep_axes({"regions.tokyo.host_link={bandwidth: 25Gbps, latency: 10us},{bandwidth: 1Gbps}",
                                      "l=[1, 2],3"});
  ASSERT_EQ(axes[0].values.size(), 2u);
  EXPECT_EQ(axes[0].values[0], "{bandwidth: 25Gbps, latency: 10us}");
  EXPECT_EQ(axes[0].values[1], "{bandwidth: 1Gbps}");
  ASSERT_EQ(axes[1].values.size(), 2u);
  EXPECT_EQ(axes[1].values[0], "[1, 2]");
  EXPECT_THROW(parse_sweep_axes({"k={a: 1"}), InputError);
}

TEST(SweepGrid, MapAndListValuesGetOneColumnPerLeaf) {
  const auto axes = parse_sweep_axes({"regions.x.host_link={bandwidth: 25Gbps, latency: 10us},{bandwidth: 1Gbps}",
                                      "l=[1, 2],3", "n=7"});
  const std::string results =
      ",method,ok,iteration_time_s,speedup_vs_round_robin,speedup_vs_greedy,gap_to_lower_bound,lower_bound_s,"
      "method_wall_s,compute_time_share,mfu,error";
  // A key with plain values keeps its own column (l: 3); each leaf of its map or list values gets one.
  EXPECT_EQ(sweep_csv_header(axes),
            "point,regions.x.host_link.bandwidth,regions.x.host_link.latency,l,l.0,l.1,n" + results);
  CompareReport rep;
  rep.lower_bound_s = 0.5;
  MethodResult greedy;
  greedy.method = "greedy";
  greedy.ok = true;
  greedy.iteration_time_s = 2;
  rep.results = {greedy};
  EXPECT_EQ(sweep_csv_rows(axes, 0, rep), "0,25Gbps,10us,,1,2,7,greedy,1,2,,,,0.5,0,,,\n");
  EXPECT_EQ(sweep_csv_rows(axes, 3, rep), "3,1Gbps,,3,,,7,greedy,1,2,,,,0.5,0,,,\n");
  EXPECT_EQ(sweep_csv_header(axes).find('"'), std::string::npos);
}

TEST(SweepGrid, ResumeRewritesTheEarlierLayout) {
  // A sweep started with one quoted column per key and compute_utilisation resumes in the current layout: its rows
  // keep their numbers, speedup_vs_round_robin is emptied when round-robin is not a method, mfu is empty.
  const fs::path dir = scratch("resume-legacy");
  const fs::path csv = dir / "sweep.csv";
  const auto axes = parse_sweep_axes({"k={x: 1, y: 2},{x: 3}"});
  EXPECT_EQ(legacy_sweep_csv_header(axes),
            "point,k,method,ok,iteration_time_s,speedup_vs_round_robin,speedup_vs_greedy,gap_to_lower_bound,"
            "lower_bound_s,method_wall_s,compute_utilisation,error");
  std::ofstream(csv) << legacy_sweep_csv_header(axes) << "\n"
                     << "0,\"{x: 1, y: 2}\",greedy,1,2.5,3,1,0.5,0.1,0.2,0.25,\n"
                     << "1,\"{x: 1, y: 2}\",greedy,1,2.5,3,1,0.5,0.1,0.2,0.25,\n"  // not point 1's value
                     << "1,\"{x: 3}\",greedy,1,2.5,3,1,0.5,0.1,0.2,0.25\n";       // cut short
  EXPECT_EQ(completed_sweep_points(csv.string(), axes, {"greedy"}), std::set<std::size_t>{0});
  EXPECT_EQ(read(csv), sweep_csv_header(axes) + "\n0,1,2,greedy,1,2.5,,1,0.5,0.1,0.2,0.25,,\n");
  std::ofstream(csv) << legacy_sweep_csv_header(axes) << "\n"
                     << "0,\"{x: 1, y: 2}\",round-robin,1,2.5,1,0.4,0.5,0.1,0.2,0.25,\n";
  EXPECT_EQ(completed_sweep_points(csv.string(), axes, {"round-robin"}), std::set<std::size_t>{0});
  EXPECT_EQ(read(csv), sweep_csv_header(axes) + "\n0,1,2,round-robin,1,2.5,1,0.4,0.5,0.1,0.2,0.25,,\n");
  fs::remove_all(dir);
}

TEST(SweepGrid, FailedAppendIsAnError) {
  const fs::path dir = scratch("append");
  // A folder where the file should be: opening it for append fails, as a full disk would fail the write.
  fs::create_directories(dir / "sweep.csv");
  EXPECT_THROW(append_sweep_rows((dir / "sweep.csv").string(), "0,1\n"), OutputError);  // not the input's fault: exit 1
  append_sweep_rows((dir / "ok.csv").string(), "0,1\n");
  EXPECT_EQ(read(dir / "ok.csv"), "0,1\n");
  fs::remove_all(dir);
}

TEST(SweepGrid, AKeyTwiceOrAnEmptyValueIsRefused) {
  EXPECT_THROW(parse_sweep_axes({"bw=1,2", "bw=3"}), InputError);  // the CSV had the column twice, the last won
  EXPECT_THROW(parse_sweep_axes({"bw=1,,2"}), InputError);         // the empty item was dropped
  EXPECT_EQ(parse_sweep_axes({"bw=1,2", "lat=3"}).size(), 2u);
  // A value twice in one key would compute the point twice.
  for (const std::string set : {"bw=1,2,1", "bw=1, 1"}) {
    try {
      parse_sweep_axes({set});
      ADD_FAILURE() << set << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("value '"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("of key 'bw' is given twice"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(parse_sweep_axes({"bw={a: 1, b: 2},{a: 1, b: 3}"})[0].values.size(), 2u);  // distinct flow maps
}

/** Writes shard `index` of `count` of a sweep over bw=a,b,c with greedy, its rows `rows` (point indices, in order),
 *  and its manifest. */
void write_shard(const fs::path& dir, int index, int count, const std::vector<int>& rows, const std::string& tail = "") {
  SweepManifest m;
  m.scenario_hash = "1";
  m.grid = parse_sweep_axes({"bw=a,b,c"});
  m.methods = {"greedy"};
  m.version = "v";
  const std::string csv = (dir / ("sweep.shard-" + std::to_string(index) + "-of-" + std::to_string(count) + ".csv")).string();
  std::ofstream out(csv);
  out << sweep_csv_header(m.grid) << "\n";
  const char* value[] = {"a", "b", "c"};
  for (int p : rows) out << p << "," << value[p % 3] << ",greedy,1,2.5,,,,,,,,\n";
  out << tail;
  out.close();
  write_sweep_manifest(sweep_manifest_path(csv), m);
}

/** The error merge_sweep_shards gives on `dir` ("" if it merged). */
std::string merge_error(const fs::path& dir, bool allow_missing = false) {
  try {
    merge_sweep_shards(dir.string(), allow_missing);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SweepGrid, MergeOrdersRowsByPoint) {
  const fs::path dir = scratch("merge");
  write_shard(dir, 0, 2, {0, 2});
  write_shard(dir, 1, 2, {1});
  const SweepMerge m = merge_sweep_shards(dir.string());
  EXPECT_EQ(m.shards, 2u);
  EXPECT_EQ(m.points, 3u);
  const std::string header = sweep_csv_header(parse_sweep_axes({"bw=a,b,c"}));
  EXPECT_EQ(read(dir / "sweep.csv"),
            header + "\n0,a,greedy,1,2.5,,,,,,,,\n1,b,greedy,1,2.5,,,,,,,,\n2,c,greedy,1,2.5,,,,,,,,\n");
  std::ofstream(dir / "sweep.shard-1-of-2.csv") << "other,m\n1,a\n";
  EXPECT_THROW(merge_sweep_shards(dir.string()), InputError);
  fs::remove_all(dir);
}

TEST(SweepGrid, MergeNamesMissingShards) {
  const fs::path dir = scratch("merge-missing");
  write_shard(dir, 0, 3, {0});
  EXPECT_NE(merge_error(dir).find("sweep.shard-1-of-3.csv, sweep.shard-2-of-3.csv"), std::string::npos)
      << merge_error(dir);
  EXPECT_FALSE(fs::exists(dir / "sweep.csv"));
  const SweepMerge m = merge_sweep_shards(dir.string(), true);
  EXPECT_EQ(m.missing, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(read(dir / "sweep.csv"), sweep_csv_header(parse_sweep_axes({"bw=a,b,c"})) + "\n0,a,greedy,1,2.5,,,,,,,,\n");
  fs::remove_all(dir);
}

TEST(SweepGrid, MergeRefusesAShardWithoutItsManifest) {
  // Copying back only the CSVs of two sweeps over different grids would merge another grid's row as point 1's.
  // Without its manifest a shard's inputs cannot be checked: refused, naming the manifest.
  const fs::path dir = scratch("merge-no-manifest");
  write_shard(dir, 0, 2, {0, 2});
  write_shard(dir, 1, 2, {1});
  fs::remove(sweep_manifest_path((dir / "sweep.shard-1-of-2.csv").string()));
  EXPECT_NE(merge_error(dir).find("sweep.shard-1-of-2.csv: no manifest beside this shard"), std::string::npos)
      << merge_error(dir);
  EXPECT_FALSE(fs::exists(dir / "sweep.csv"));
  fs::remove_all(dir);
}

TEST(SweepGrid, MergeRefusesIncompleteTruncatedDuplicatedOrStrayRows) {
  const fs::path dir = scratch("merge-checks");
  const auto error_of = [&dir](bool allow_missing = false) { return merge_error(dir, allow_missing); };
  write_shard(dir, 0, 2, {0, 2});
  write_shard(dir, 1, 2, {1});
  EXPECT_EQ(error_of(), "");
  EXPECT_EQ(merge_sweep_shards(dir.string()).grid_points, 3u);
  write_shard(dir, 0, 2, {0});  // interrupted before point 2
  EXPECT_NE(error_of().find("incomplete: point 2, method greedy is missing"), std::string::npos) << error_of();
  EXPECT_EQ(error_of(true), "");  // --allow-missing takes what there is
  write_shard(dir, 0, 2, {0, 2}, "2,c,gre");  // a row cut short
  EXPECT_NE(error_of().find("sweep.shard-0-of-2.csv:4: has 3 fields, the header 13"), std::string::npos) << error_of();
  write_shard(dir, 0, 2, {0, 2, 2});
  EXPECT_NE(error_of().find("point 2, method greedy appears twice"), std::string::npos) << error_of();
  write_shard(dir, 0, 2, {0, 1, 2});
  EXPECT_NE(error_of().find("1 is not a point of shard 0 of 2"), std::string::npos) << error_of();
  write_shard(dir, 0, 2, {0}, "2,c,greedy,1,-2.5,,,,,,,,\n");  // a hand-edited time
  EXPECT_NE(error_of().find("sweep.shard-0-of-2.csv:3: iteration_time_s: '-2.5' with ok '1' is not a result"),
            std::string::npos)
      << error_of();
  fs::remove_all(dir);
}

TEST(SweepGrid, ManifestDifferenceNamesWhatChanged) {
  SweepManifest a;
  a.scenario_hash = "1";
  a.grid = parse_sweep_axes({"bw=100Mbps,10Gbps"});
  a.methods = {"greedy"};
  a.version = "v";
  SweepManifest b = a;
  EXPECT_EQ(sweep_manifest_difference(a, b), "");
  b.grid = parse_sweep_axes({"bw=100Mbps,1Gbps,10Gbps"});
  EXPECT_EQ(sweep_manifest_difference(a, b), "the values of bw (was 100Mbps,10Gbps, now 100Mbps,1Gbps,10Gbps)");
  b = a;
  b.methods = {"greedy", "search"};
  EXPECT_EQ(sweep_manifest_difference(a, b), "--methods (was greedy, now greedy,search)");
  b = a;
  b.budget = 7;
  EXPECT_EQ(sweep_manifest_difference(a, b), "--budget (was 0, now 7)");
  b = a;
  b.scenario_hash = "2";
  EXPECT_EQ(sweep_manifest_difference(a, b), "the scenario file's content");
  // Round trip through the file.
  const fs::path dir = scratch("manifest");
  write_sweep_manifest((dir / "m.json").string(), a);
  EXPECT_EQ(sweep_manifest_difference(read_sweep_manifest((dir / "m.json").string()), a), "");
  EXPECT_EQ(sweep_manifest_path("d/sweep.shard-0-of-2.csv"), "d/sweep.shard-0-of-2.manifest.json");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hulk
