// Unit strings -> SI: exact values for every accepted form, and a message naming the expected kind otherwise.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/core/did_you_mean.hpp"
#include "sim/core/units.hpp"

using namespace hulk;

namespace {
std::string error_of(double (*parse)(const std::string&), const std::string& text) {
  try {
    parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Units, BandwidthForms) {
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("10Gbps"), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("0.6Gbps"), 7.5e7);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("100Mbps"), 1.25e7);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("1.25GBps"), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("800kbps"), 1e5);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("1e9"), 1e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps(" 10 Gbps "), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("150GBps"), 150e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("2GiBps"), 2.0 * 1024 * 1024 * 1024);
}

TEST(Units, LatencyForms) {
  EXPECT_DOUBLE_EQ(parse_latency_s("50us"), 50e-6);
  EXPECT_DOUBLE_EQ(parse_latency_s("75ms"), 0.075);
  EXPECT_DOUBLE_EQ(parse_latency_s("0.1s"), 0.1);
  EXPECT_DOUBLE_EQ(parse_latency_s("100ns"), 100e-9);
  EXPECT_DOUBLE_EQ(parse_latency_s("3\u00b5s"), 3e-6);
  EXPECT_DOUBLE_EQ(parse_latency_s("0"), 0.0);
  EXPECT_DOUBLE_EQ(parse_latency_s("2"), 2.0);
}

TEST(Units, BytesForms) {
  EXPECT_DOUBLE_EQ(parse_bytes("40GB"), 40e9);
  EXPECT_DOUBLE_EQ(parse_bytes("16GiB"), 16.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(parse_bytes("512MB"), 512e6);
  EXPECT_DOUBLE_EQ(parse_bytes("1024"), 1024.0);
}

TEST(Units, FlopsForms) {
  EXPECT_DOUBLE_EQ(parse_flops("312Tf"), 312e12);
  EXPECT_DOUBLE_EQ(parse_flops("19.5TFLOPS"), 19.5e12);
  EXPECT_DOUBLE_EQ(parse_flops("125e12"), 125e12);
  EXPECT_DOUBLE_EQ(parse_flops("900Gf"), 900e9);
}

TEST(Units, RejectsNegativeZeroAndGarbage) {
  EXPECT_NE(error_of(parse_bandwidth_Bps, "-1Gbps").find("negative"), std::string::npos);
  EXPECT_NE(error_of(parse_bandwidth_Bps, "0Gbps").find("greater than zero"), std::string::npos);
  EXPECT_NE(error_of(parse_bandwidth_Bps, "0").find("greater than zero"), std::string::npos);
  EXPECT_NE(error_of(parse_latency_s, "-5ms").find("negative"), std::string::npos);
  EXPECT_NE(error_of(parse_bytes, "0GB").find("greater than zero"), std::string::npos);
  EXPECT_NE(error_of(parse_flops, "0Tf").find("greater than zero"), std::string::npos);
  for (const char* junk : {"fast", "", "   ", "nan", "inf", "1e400Gbps", "0x10", "10 parsecs", "Gbps", "1.2.3Gbps"}) {
    const std::string msg = error_of(parse_bandwidth_Bps, junk);
    EXPECT_NE(msg.find("expected a bandwidth"), std::string::npos) << "input '" << junk << "': " << msg;
  }
}

TEST(Units, WrongKindNamesBothKinds) {
  const std::string msg = error_of(parse_bandwidth_Bps, "10ms");
  EXPECT_NE(msg.find("'10ms' is not a bandwidth"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unit of a latency"), std::string::npos) << msg;
  EXPECT_NE(error_of(parse_latency_s, "10Gbps").find("unit of a bandwidth"), std::string::npos);
  EXPECT_NE(error_of(parse_bytes, "5ms").find("expected a size"), std::string::npos);
  EXPECT_NE(error_of(parse_flops, "40GB").find("unit of a size"), std::string::npos);
  // Bits vs bytes are different units of the same kind, both accepted with their own factor.
  EXPECT_DOUBLE_EQ(parse_bandwidth_Bps("8Gbps") * 8, parse_bandwidth_Bps("8GBps"));
}

TEST(DidYouMean, EditDistanceAndSuggestions) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("same", "same"), 0u);
  const std::vector<std::string> keys = {"model", "global_batch", "micro_batch", "parallelism", "schedule"};
  EXPECT_EQ(closest_name("paralelism", keys), "parallelism");
  EXPECT_EQ(closest_name("Schedule", keys), "schedule");
  EXPECT_EQ(closest_name("zzzzzzzz", keys), "");
  EXPECT_EQ(suggestion_suffix("modle", keys), " (did you mean 'model'?)");
  EXPECT_NE(suggestion_suffix("zzzzzzzz", keys).find("expected one of: model"), std::string::npos);
}
