#pragma once
/** @file huge_page_allocator.hpp
 *  @brief An allocator for large tables that are filled once and read at random (the route table: 64 MB at 1,024
 *  hosts): it asks the kernel for transparent huge pages (madvise MADV_HUGEPAGE) on buffers of 2 MiB or more.
 *  Debian's kernels default THP to `madvise`, so without the advice each 4 KiB page of such a table faults in on its
 *  own when it is first written (16,384 faults for 64 MB, most of building the route table on a virtual machine);
 *  with it, 32. Smaller buffers, and kernels without THP, get ordinary memory; contents are never affected. */
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace hulk {

/** @brief std::allocator-compatible; buffers of >= kHugePageBytes are huge-page aligned and advised. */
template <class T>
struct HugePageAllocator {
  using value_type = T;
  /** @brief Size of a transparent huge page on x86-64 (and the smallest buffer worth advising). */
  static constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT: converting, as std::allocator

  /** @brief n objects' worth of memory; huge-page advised when large. */
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageBytes) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* p = std::aligned_alloc(kHugePageBytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
    ::madvise(p, rounded, MADV_HUGEPAGE);  // advice only: a kernel that refuses it still gives ordinary pages
    return static_cast<T*>(p);
  }
  /** @brief Releases what allocate(n) returned. */
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePageBytes)
      ::operator delete(p);
    else
      std::free(p);
  }
};

/** @brief A vector on HugePageAllocator: for host-pair tables (hosts^2 entries). */
template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

template <class T, class U>
bool operator==(const HugePageAllocator<T>&, const HugePageAllocator<U>&) noexcept { return true; }
template <class T, class U>
bool operator!=(const HugePageAllocator<T>&, const HugePageAllocator<U>&) noexcept { return false; }

}  // namespace hulk
