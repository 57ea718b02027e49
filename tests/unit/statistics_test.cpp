// The one median, quantile and rank correlation every report prints (sim/core/statistics.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/statistics.hpp"

namespace hulk {
namespace {

TEST(Statistics, TheMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues) {
  // The upper middle value (184.9%) and the mean of the two (92.5%) differ for these four gaps: gen-data and
  // gnn-eval both print median(), so they agree.
  EXPECT_DOUBLE_EQ(median({2.258, 0.0, 1.849, 0.0016}), 0.5 * (0.0016 + 1.849));
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Statistics, QuantilesInterpolateBetweenTheNearestRanks) {
  const std::vector<double> v = {10, 0, 30, 20};  // sorted 0, 10, 20, 30
  EXPECT_DOUBLE_EQ(quantile(v, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(quantile(v, 1.0), 30.0);
  EXPECT_DOUBLE_EQ(quantile(v, 0.5), 15.0);
  EXPECT_DOUBLE_EQ(quantile(v, 0.9), 27.0);  // rank 2.7: 20 + 0.7 x 10, not simply the largest
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
}

TEST(Statistics, KendallTauCountsConcordantPairs) {
  EXPECT_DOUBLE_EQ(kendall_tau({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(kendall_tau({1, 2, 3, 4}, {40, 30, 20, 10}), -1.0);
  // One swapped pair of six: (5 - 1) / 6.
  EXPECT_DOUBLE_EQ(kendall_tau({1, 2, 3, 4}, {1, 3, 2, 4}), 4.0 / 6.0);
  // tau-b with a tie in the second list: 2 concordant, 0 discordant, 1 tied pair -> 2 / sqrt(3 x 2).
  EXPECT_NEAR(kendall_tau({1, 2, 3}, {1, 2, 2}), 2.0 / std::sqrt(6.0), 1e-12);
  EXPECT_TRUE(std::isnan(kendall_tau({1}, {1})));
  EXPECT_TRUE(std::isnan(kendall_tau({1, 2}, {5, 5})));
}

}  // namespace
}  // namespace hulk
