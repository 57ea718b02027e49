#include "sim/evaluate/evaluator_scratch_slots.hpp"

#include <atomic>

namespace hulk {

std::uint64_t new_estimator_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace hulk
