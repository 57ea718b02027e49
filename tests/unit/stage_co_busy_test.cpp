// Stage co-busy shares (sim/evaluate/stage_co_busy.hpp) against the schedules' closed forms.
#include <gtest/gtest.h>

#include <cstdlib>

#include "sim/evaluate/pipeline_critical_path.hpp"
#include "sim/evaluate/stage_co_busy.hpp"

namespace hulk {
namespace {

TEST(StageCoBusy, GpipeStagesShareTheirForwardAndBackwardSlotsByTheirDistance) {
  // GPipe: stage s runs its m forwards in [s, s + m) and its backwards after the last stage's forwards, shifted by
  // one backward per stage: stages k apart share m - k of their m slots of each kind, whatever a backward costs.
  const int p = 5, m = 8;
  for (double backward : {1.0, 2.0}) {
    const std::vector<double> co = stage_co_busy(stage_op_orders("gpipe", p, m), backward);
    ASSERT_EQ(co.size(), static_cast<size_t>(p * p));
    for (int s = 0; s < p; ++s)
      for (int o = 0; o < p; ++o) {
        const double expected = s == o ? 0.0 : static_cast<double>(m - std::abs(s - o)) / m;
        EXPECT_NEAR(co[s * p + o], expected, 1e-12) << s << " " << o << " backward " << backward;
      }
  }
}

TEST(StageCoBusy, OneFOneBStagesAreBusyTogetherInTheSteadyState) {
  // 1F1B: past the warm-up and before the drain (p - 1 ops each) every stage alternates a forward and a backward,
  // all at once: the shares grow towards 1 with the micro-batches. Every stage is busy as long (m forwards, m
  // backwards), so the overlap of a pair is the same share of either's busy time.
  const int p = 4;
  const std::vector<double> few = stage_co_busy(stage_op_orders("1f1b", p, 4), 2.0);
  const std::vector<double> many = stage_co_busy(stage_op_orders("1f1b", p, 64), 2.0);
  for (int s = 0; s < p; ++s)
    for (int o = 0; o < p; ++o) {
      if (s == o) continue;
      EXPECT_NEAR(many[s * p + o], many[o * p + s], 1e-12) << s << " " << o;
      EXPECT_GT(many[s * p + o], few[s * p + o]) << s << " " << o;
      EXPECT_GT(many[s * p + o], 0.9) << s << " " << o;
      EXPECT_LE(many[s * p + o], 1.0) << s << " " << o;
    }
}

TEST(StageCoBusy, EmptyWithOneStageOrModelChunks) {
  EXPECT_TRUE(stage_co_busy(stage_op_orders("1f1b", 1, 4), 2.0).empty());
  EXPECT_TRUE(stage_co_busy(stage_op_orders("1f1b", 4, 8, 2), 2.0).empty());
}

}  // namespace
}  // namespace hulk
