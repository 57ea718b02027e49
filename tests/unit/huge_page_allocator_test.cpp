// HugePageAllocator: large buffers huge-page aligned, small ones ordinary, contents as any vector's.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "sim/core/huge_page_allocator.hpp"

namespace hulk {
namespace {

constexpr std::size_t kHuge = HugePageAllocator<char>::kHugePageBytes;

TEST(HugePageAllocator, LargeBuffersAreHugePageAlignedAndWritable) {
  HugePageAllocator<std::uint64_t> alloc;
  const std::size_t large = kHuge / sizeof(std::uint64_t) * 3 + 5;  // not a multiple of the page
  std::uint64_t* p = alloc.allocate(large);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % kHuge, 0u);
  for (std::size_t i = 0; i < large; ++i) p[i] = i;  // every element writable, the last one included
  EXPECT_EQ(p[large - 1], large - 1);
  alloc.deallocate(p, large);
  std::uint64_t* q = alloc.allocate(3);  // ordinary memory, released by the matching path
  q[2] = 7;
  EXPECT_EQ(q[2], 7u);
  alloc.deallocate(q, 3);
}

TEST(HugePageAllocator, VectorsBehaveAsWithTheStandardAllocator) {
  for (std::size_t n : {std::size_t{0}, std::size_t{10}, kHuge / sizeof(int) + 1}) {
    std::vector<int, HugePageAllocator<int>> v(n);
    std::iota(v.begin(), v.end(), 0);
    std::vector<int> w(n);
    std::iota(w.begin(), w.end(), 0);
    EXPECT_TRUE(std::equal(v.begin(), v.end(), w.begin(), w.end()));
    v.resize(n + kHuge / sizeof(int));  // grows across the threshold: copied, old buffer released
    EXPECT_TRUE(std::equal(w.begin(), w.end(), v.begin()));
  }
  EXPECT_THROW(HugePageAllocator<std::uint64_t>().allocate(static_cast<std::size_t>(-1) / 4),
               std::bad_array_new_length);
}

}  // namespace
}  // namespace hulk
