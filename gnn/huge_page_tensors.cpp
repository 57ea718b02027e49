#include "gnn/huge_page_tensors.hpp"

#include <c10/core/CPUAllocator.h>

#include <cstdlib>
#include <new>

#include "sim/core/huge_page_allocator.hpp"

namespace hulk::gnn {
namespace {

/** Torch's own alignment for CPU tensors (c10/core/alignment.h), kept for the small ones. */
constexpr std::size_t kTensorAlignment = 64;

void free_tensor(void* p) { std::free(p); }  // both paths below allocate with the C allocator

class HugePageTensorAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t bytes) const override {
    void* p = nullptr;
    if (bytes >= HugePageAllocator<char>::kHugePageBytes) {
      p = HugePageAllocator<char>().allocate(bytes);  // aligned_alloc + MADV_HUGEPAGE, released by free()
    } else if (bytes > 0 && ::posix_memalign(&p, kTensorAlignment, bytes) != 0) {
      throw std::bad_alloc();
    }
    return {p, p, &free_tensor, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &free_tensor; }
};

}  // namespace

void use_huge_page_tensors() {
  static HugePageTensorAllocator allocator;  // lives until exit, as torch keeps the pointer
  static const bool installed = [] {
    // Priority above the default allocator's (0), so torch's own registration never replaces it.
    c10::SetCPUAllocator(&allocator, /*priority=*/1);
    return true;
  }();
  (void)installed;
}

}  // namespace hulk::gnn
