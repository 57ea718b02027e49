// When an estimated gain replaces a reference placement (sim/evaluate/estimate_trust.hpp): on large jobs only by a
// margin, and never by placing more tensor-parallel groups across regions than the reference does.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/estimate_trust.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/place/search_placer.hpp"

namespace hulk {
namespace {

using namespace testing;

/** Rank r on the r-th GPU in host order: every TP group (tp consecutive ranks) on one host. */
Placement packed(const Scenario& s) {
  Placement p;
  for (int h = 0; h < static_cast<int>(s.platform.hosts.size()); ++h)
    for (int g = 0; g < s.platform.hosts[h].gpus; ++g)
      if (static_cast<int>(p.gpu_of_rank.size()) < s.only_job().par.ranks()) p.gpu_of_rank.push_back({h, g});
  return p;
}

/** Two regions of `hosts` hosts of 8 GPUs each, a job of dp x 2 x 4 ranks (TP groups of 2). */
Scenario two_regions(int hosts, int dp) {
  return make_scenario(make_platform({hosts, hosts}, 8, a100()), make_job(dp, 2, 4, 4));
}

TEST(EstimateTrust, CountsTheTpGroupsWhoseGpusLieInSeveralRegions) {
  const Scenario s = two_regions(9, 9);  // 72 ranks: ranks 0-71 fill hosts 0-8 (region 0)
  Placement p = packed(s);
  EXPECT_EQ(tp_groups_across_regions(s, p), 0);
  std::swap(p.gpu_of_rank[0], p.gpu_of_rank[2]);  // two groups exchange a rank, both still in region 0
  EXPECT_EQ(tp_groups_across_regions(s, p), 0);
  p.gpu_of_rank[1] = {9, 0};  // group 0's second rank to a host of region 1
  EXPECT_EQ(tp_groups_across_regions(s, p), 1);
  p.gpu_of_rank[71] = {10, 0};  // and the last group's
  EXPECT_EQ(tp_groups_across_regions(s, p), 2);
}

TEST(EstimateTrust, LargeJobsNeedTheMarginAndNoMoreTpGroupsAcrossRegions) {
  const Scenario s = two_regions(9, 9);
  ASSERT_GT(s.only_job().par.ranks(), kLargeJobRanks);
  const Placement reference = packed(s);
  Placement other = reference;
  std::swap(other.gpu_of_rank[0], other.gpu_of_rank[70]);  // still no group across regions
  Placement split = reference;
  split.gpu_of_rank[1] = {9, 0};
  const double ref_s = 10.0, clearly_faster_s = ref_s / (1.0 + 2 * kLargeJobMargin);
  EXPECT_TRUE(trusted_replacement(s, other, clearly_faster_s, reference, ref_s));
  EXPECT_FALSE(trusted_replacement(s, other, ref_s / (1.0 + kLargeJobMargin / 2), reference, ref_s));
  EXPECT_FALSE(trusted_replacement(s, split, clearly_faster_s, reference, ref_s)) << "a TP group moved over the WAN";
  EXPECT_TRUE(trusted_replacement(s, split, clearly_faster_s, split, ref_s)) << "the reference spans as many";
  EXPECT_FALSE(trusted_replacement(s, reference, ref_s, reference, ref_s)) << "not faster";
}

TEST(EstimateTrust, SmallJobsOnlyNeedToBeFaster) {
  const Scenario s = two_regions(2, 2);  // 16 ranks
  ASSERT_LE(s.only_job().par.ranks(), kLargeJobRanks);
  const Placement reference = packed(s);
  Placement split = reference;
  split.gpu_of_rank[1] = {2, 0};
  ASSERT_EQ(tp_groups_across_regions(s, split), 1);
  EXPECT_TRUE(trusted_replacement(s, split, 9.99, reference, 10.0));
  EXPECT_FALSE(trusted_replacement(s, split, 10.0, reference, 10.0));
}


TEST(EstimateTrust, AnnealingWithALimitProposesNoMoreTpGroupsAcrossRegions) {
  // Two regions of one A100 host and one T4 host (1 GPU each) joined by a fast WAN; a TP group of 2 starts on
  // region 0's two hosts. Its fastest GPUs are the two A100s, one per region: the unlimited annealing takes them,
  // with the limit 0 the group stays in one region (an A100 and a T4), and neither is slower than its start.
  Scenario s = make_scenario(make_platform({2, 2}, 1, a100(), {1.25e9, 50e-6}, {12.5e9, 1e-4}), make_job(1, 2, 1, 8));
  s.platform.hosts[1].gpu = s.platform.hosts[3].gpu = t4();
  s.only_job().model.hidden = 4096;  // compute outweighs the TP all-reduces over the WAN
  s.only_job().model.heads = 32;
  const Placement start = packed(s);
  ASSERT_EQ(tp_groups_across_regions(s, start), 0);
  SearchOptions o;
  o.max_evaluations = 200;
  o.start = start;
  const Evaluator ev(s);
  const Placement free_run = SearchPlacer(o).place(s);
  EXPECT_EQ(tp_groups_across_regions(s, free_run), 1) << "the unlimited run should take the two A100s";
  EXPECT_LT(ev.iteration_time_s(free_run), ev.iteration_time_s(start));
  o.max_tp_groups_across_regions = 0;
  const Placement limited = SearchPlacer(o).place(s);
  EXPECT_EQ(tp_groups_across_regions(s, limited), 0);
  EXPECT_LE(ev.iteration_time_s(limited), ev.iteration_time_s(start));
}

}  // namespace
}  // namespace hulk
