// Data-set I/O: exact round trip, versioning, missing/corrupt files. Torch-free.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gnn/dataset.hpp"
#include "gnn/format_version.hpp"
#include "gnn_test_helpers.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk::gnn {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("hulk_gnn_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d.string();
}

TEST(Dataset, RoundTripIsExact) {
  const std::string dir = fresh_dir("rt");
  std::vector<Sample> data = testing::tiny_dataset(3, 5);
  data[1].traffic = TrafficMatrix::zeros(static_cast<int>(data[1].scenario.platform.hosts.size()));
  data[1].traffic->bytes[0][1] = data[1].traffic->bytes[0][data[1].traffic->hosts] = 1.5e9;
  data[1].times_s = {{"round-robin", 1.25}, {"search", 0.75}};
  write_manifest(dir, Manifest{kDatasetFormatVersion, 3, 5, "test"});
  for (const Sample& s : data) write_sample(dir, s);
  const std::vector<Sample> back = load_dataset(dir);
  ASSERT_EQ(back.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(scenario_to_json(back[i].scenario).dump(), scenario_to_json(data[i].scenario).dump());
    EXPECT_EQ(back[i].label.gpu_of_rank, data[i].label.gpu_of_rank);
    EXPECT_EQ(back[i].traffic.has_value(), data[i].traffic.has_value());
    EXPECT_EQ(back[i].times_s, data[i].times_s);
  }
  EXPECT_EQ(back[1].traffic->bytes[0], data[1].traffic->bytes[0]);
  EXPECT_EQ(read_manifest(dir).seed, 5u);
  EXPECT_TRUE(sample_exists(dir, 2));
  EXPECT_FALSE(sample_exists(dir, 3));
  fs::remove_all(dir);
}

TEST(Dataset, VersionMissingAndCorruptAreInputErrors) {
  const std::string dir = fresh_dir("bad");
  EXPECT_THROW(read_manifest(dir), InputError);  // no manifest
  write_manifest(dir, Manifest{kDatasetFormatVersion, 2, 1, "test"});
  const std::vector<Sample> data = testing::tiny_dataset(1, 9);
  write_sample(dir, data[0]);
  try {
    load_dataset(dir);  // sample 1 missing
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("000001.json"), std::string::npos) << e.what();
  }
  { std::ofstream(sample_path(dir, 1)) << "{not json"; }
  EXPECT_THROW(load_dataset(dir), InputError);
  { std::ofstream(fs::path(dir) / "manifest.json") << R"({"format_version": 99, "count": 2, "seed": 1, "generator": ""})"; }
  try {
    read_manifest(dir);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("99"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

TEST(Dataset, ALabelThatIsNoPlacementOrATimeThatIsNoneIsRefusedNamingIt) {
  // Without the checks, train takes labels with unknown hosts or a GPU twice, and gnn-eval prints "geomean -nanx"
  // from a time of -1. Each is refused naming the sample's file and key.
  const std::string dir = fresh_dir("bad-sample");
  write_manifest(dir, Manifest{kDatasetFormatVersion, 1, 1, "test"});
  const auto error_of = [&](const Sample& s) {
    write_sample(dir, s);
    try {
      load_dataset(dir);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const Sample good = testing::tiny_dataset(1, 3)[0];
  ASSERT_GE(good.label.gpu_of_rank.size(), 2u);
  EXPECT_EQ(error_of(good), "");
  Sample twice = good;
  twice.label.gpu_of_rank[1] = twice.label.gpu_of_rank[0];
  EXPECT_NE(error_of(twice).find("label: is not a valid placement of the sample's scenario"), std::string::npos)
      << error_of(twice);
  Sample unknown_host = good;
  unknown_host.label.gpu_of_rank[0].host = 999;
  EXPECT_NE(error_of(unknown_host).find("000000.json"), std::string::npos) << error_of(unknown_host);
  for (const double t : {-1.0, 0.0}) {
    Sample bad_time = good;
    bad_time.times_s = {{"greedy", t}};
    EXPECT_NE(error_of(bad_time).find("times_s.greedy: expected a positive number of seconds"), std::string::npos)
        << error_of(bad_time);
  }
  fs::remove_all(dir);
}

TEST(Dataset, SampleSeedsAreDistinctAndStable) {
  EXPECT_EQ(sample_seed(1, 0), sample_seed(1, 0));
  EXPECT_NE(sample_seed(1, 0), sample_seed(1, 1));
  EXPECT_NE(sample_seed(1, 0), sample_seed(2, 0));
}

}  // namespace
}  // namespace hulk::gnn
