// RegionBlocks (sim/evaluate/region_blocks.hpp): members grouped region by region in order of first appearance,
// group order inside each region, balanced when every region holds as many. Checked against the definition written
// out directly (a scan per region) on random groups over many regions, balanced and not.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/region_blocks.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_platform;

/** The definition: regions in order of first appearance; for each, its members in group order. */
RegionBlocks by_definition(const RouteModel& net, const std::vector<int>& hosts) {
  std::vector<int> regions;
  for (int h : hosts)
    if (std::find(regions.begin(), regions.end(), net.region_of(h)) == regions.end())
      regions.push_back(net.region_of(h));
  RegionBlocks rb;
  rb.regions = static_cast<int>(regions.size());
  bool equal = true;
  for (size_t b = 0; b < regions.size(); ++b) {
    int size = 0;
    for (size_t i = 0; i < hosts.size(); ++i)
      if (net.region_of(hosts[i]) == regions[b]) {
        rb.order.push_back(static_cast<int>(i));
        ++size;
      }
    if (b == 0) rb.per_region = size;
    equal = equal && size == rb.per_region;
  }
  if (!equal) rb.per_region = 0;
  return rb;
}

TEST(RegionBlocks, GroupsAsTheDefinitionOnRandomGroups) {
  const PlatformSpec p = make_platform(std::vector<int>(40, 3), 1, a100());  // 40 regions of 3 hosts
  const RouteModel net(p);
  std::mt19937_64 rng(3);
  RegionBlocks rb;  // reused across groups, as the evaluator does
  int balanced = 0;
  for (int draw = 0; draw < 300; ++draw) {
    std::vector<int> hosts;
    if (draw % 3 == 0) {  // balanced: k members in each of R regions, shuffled
      const int R = 1 + static_cast<int>(rng() % 40), k = 1 + static_cast<int>(rng() % 3);
      for (int r = 0; r < R; ++r)
        for (int j = 0; j < k; ++j) hosts.push_back(3 * r + j);
      std::shuffle(hosts.begin(), hosts.end(), rng);
    } else {
      const int n = 1 + static_cast<int>(rng() % 90);
      for (int i = 0; i < n; ++i) hosts.push_back(static_cast<int>(rng() % 120));
    }
    rb.group(net, hosts.data(), static_cast<int>(hosts.size()));
    const RegionBlocks want = by_definition(net, hosts);
    EXPECT_EQ(rb.order, want.order) << draw;
    EXPECT_EQ(rb.regions, want.regions) << draw;
    EXPECT_EQ(rb.per_region, want.per_region) << draw;
    balanced += rb.balanced();
  }
  EXPECT_GE(balanced, 100);  // every third draw is balanced by construction
}

}  // namespace
}  // namespace hulk
