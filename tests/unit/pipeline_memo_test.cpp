// The pipeline cache itself (sim/evaluate/pipeline_memo.hpp): exact keys, bounded size, hot entries kept.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/evaluate/pipeline_memo.hpp"

namespace hulk {
namespace {

PipelineMemoKey key_of(double t, int i) {
  PipelineMemoKey key;
  key.ints = {i, 2, 3};
  key.times = {t, 0.5, 0.25};
  PipelineMemo::seal(key);
  return key;
}

TEST(PipelineMemo, AHitReturnsWhatWasStoredAndOnlyForEqualKeys) {
  PipelineMemo memo(1 << 20);
  const std::vector<double> ends = {1.0, 2.0, 3.0};
  memo.insert(key_of(1.0, 1), 3.5, ends.data(), ends.size());
  std::vector<double> out(3, 0.0);
  EXPECT_EQ(memo.find(key_of(1.0, 1), out.data()), 3.5);
  EXPECT_EQ(out, ends);
  EXPECT_TRUE(std::isnan(memo.find(key_of(1.0, 2), out.data())));
  EXPECT_TRUE(std::isnan(memo.find(key_of(1.5, 1), out.data())));
  // Two keys whose hashes collide: the contents decide.
  PipelineMemoKey other = key_of(9.0, 9);
  other.hash = key_of(1.0, 1).hash;
  EXPECT_TRUE(std::isnan(memo.find(other, out.data())));
}

TEST(PipelineMemo, StaysWithinItsBudgetAndKeepsWhatIsUsed) {
  PipelineMemo memo(4096);  // a few dozen entries per generation
  const double end = 0.0;
  memo.insert(key_of(0.0, 0), 1.0, &end, 1);
  double out = 0;
  for (int i = 1; i <= 2000; ++i) {
    memo.insert(key_of(static_cast<double>(i), i), 1.0 + i, &end, 1);
    ASSERT_EQ(memo.find(key_of(0.0, 0), &out), 1.0) << "the entry used at every step was dropped at " << i;
  }
  EXPECT_LT(memo.entries(), 200u);
  EXPECT_TRUE(std::isnan(memo.find(key_of(1.0, 1), &out)));  // not used since: gone
  EXPECT_EQ(memo.find(key_of(2000.0, 2000), &out), 2001.0);
  memo.clear();
  EXPECT_EQ(memo.entries(), 0u);
}

TEST(PipelineMemo, ScheduleIdsNameNameStagesAndMicroBatches) {
  PipelineMemo memo(1 << 20);
  const int a = memo.schedule_id("1f1b", 4, 8);
  EXPECT_EQ(memo.schedule_id("1f1b", 4, 8), a);
  EXPECT_NE(memo.schedule_id("gpipe", 4, 8), a);
  EXPECT_NE(memo.schedule_id("1f1b", 4, 16), a);
  EXPECT_NE(memo.schedule_id("1f1b", 8, 8), a);
}

}  // namespace
}  // namespace hulk
