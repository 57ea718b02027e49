// The per-stage DP fallback's sharing of links among stages (sim/evaluate/stage_sharing.hpp) against processor
// sharing and max-min fairness in closed form.
#include <gtest/gtest.h>

#include "sim/evaluate/stage_sharing.hpp"

namespace hulk {
namespace {

/** Adds a stage using `links` (one flow each unless flows given), starting at start, alone for alone s. */
void add_stage(StageBundles& b, std::vector<int> links, double start, double alone, double fixed = 0,
               std::vector<double> flows = {}) {
  for (size_t k = 0; k < links.size(); ++k) {
    b.link.push_back(links[k]);
    b.flows.push_back(flows.empty() ? 1.0 : flows[k]);
  }
  b.first.push_back(static_cast<int>(b.link.size()));
  b.rate_cap.push_back(1e30);
  b.start.push_back(start);
  b.alone.push_back(alone);
  b.fixed.push_back(fixed);
}

TEST(StageSharing, TwoStagesOnOneLinkShareItAndTheFirstToFinishFreesIt) {
  // Processor sharing: 1 s and 3 s of work from t = 0 on one link: both at half pace until 2 s, then the second
  // alone: 2 s and 4 s.
  StageBundles b;
  b.capacity = {10.0};
  add_stage(b, {0}, 0.0, 1.0);
  add_stage(b, {0}, 0.0, 3.0);
  StageSharingScratch x;
  std::vector<double> out;
  shared_stage_times(b, x, out);
  EXPECT_NEAR(out[0], 2.0, 1e-9);
  EXPECT_NEAR(out[1], 4.0, 1e-9);
}

TEST(StageSharing, LaterStartAndDisjointLinks) {
  // Stage 1 starts at 0.5 s on the link stage 0 uses (1 s alone): stage 0 does 0.5 s alone, then both at half pace;
  // stage 0 ends at 1.5 s, stage 1 did 0.5 of its 1 s then ends alone at 2 s (1.5 s after its start). Stage 2 on
  // another link keeps its time.
  StageBundles b;
  b.capacity = {10.0, 10.0};
  add_stage(b, {0}, 0.0, 1.0);
  add_stage(b, {0}, 0.5, 1.0);
  add_stage(b, {1}, 0.0, 1.0);
  StageSharingScratch x;
  std::vector<double> out;
  shared_stage_times(b, x, out);
  EXPECT_NEAR(out[0], 1.5, 1e-9);
  EXPECT_NEAR(out[1], 1.5, 1e-9);
  EXPECT_DOUBLE_EQ(out[2], 1.0);
}

TEST(StageSharing, MaxMinRatesGiveTheUnusedShareToTheOtherStage) {
  // Stage 0 is held to 1 B/s per flow by link 0; on link 1 (capacity 10) it leaves 9 to stage 1, whose flows
  // (2 of them) get 4.5 each: alone 5 each.
  StageBundles b;
  b.capacity = {1.0, 10.0};
  add_stage(b, {0, 1}, 0.0, 1.0);
  add_stage(b, {1}, 0.0, 1.0, 0.0, {2.0});
  StageSharingScratch x;
  std::vector<double> rate;
  max_min_stage_rates(b, {1, 1}, x, rate);
  EXPECT_NEAR(rate[0], 1.0, 1e-12);
  EXPECT_NEAR(rate[1], 4.5, 1e-12);
  // Stage 1's all-reduce (alone 1 s) runs at 4.5 / 5 of its pace while stage 0 runs (all of it): 1 / 0.9 s.
  std::vector<double> out;
  b.alone[0] = 10.0;
  shared_stage_times(b, x, out);
  EXPECT_NEAR(out[1], 1.0 / 0.9, 1e-9);
  EXPECT_DOUBLE_EQ(out[0], 10.0);
}

TEST(StageSharing, TheFixedPartDoesNotStretch) {
  // Two equal stages on one link, each 1 s alone of which 0.4 s latency: the 0.6 s of transfer take twice as long
  // while both run, 0.4 + 1.2 = 1.6 s each.
  StageBundles b;
  b.capacity = {10.0};
  add_stage(b, {0}, 0.0, 1.0, 0.4);
  add_stage(b, {0}, 0.0, 1.0, 0.4);
  StageSharingScratch x;
  std::vector<double> out;
  shared_stage_times(b, x, out);
  EXPECT_NEAR(out[0], 1.6, 1e-9);
  EXPECT_NEAR(out[1], 1.6, 1e-9);
}

}  // namespace
}  // namespace hulk
