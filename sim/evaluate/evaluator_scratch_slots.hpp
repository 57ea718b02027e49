#pragma once
/** @file evaluator_scratch_slots.hpp
 *  @brief Per-thread working memory of the estimators (Evaluator, JobsEvaluator) for their calls that take no
 *  scratch: each thread keeps the scratch of the last few estimators it served, so one estimator serves several
 *  threads at once and an estimator object holds no scratch of its own. A scratch holds no result between
 *  estimates (evaluator_scratch.hpp), so which slot serves a call never changes an answer; the slots only save the
 *  allocations a fresh scratch would cost. Used from .cpp files only: each instantiation's slots live in the
 *  program that defines them. */
#include <array>
#include <cstdint>

namespace hulk {

/** @brief A fresh estimator id (never 0, never given twice in a process): the key of its per-thread scratch. */
std::uint64_t new_estimator_id();

/** @brief The calling thread's scratch of type T for estimator `owner`. A thread keeps N scratches, the least
 *  recently used one given to a new owner (reset to T{} first, so an owner never sees another's buffers). The
 *  reference is valid until this thread asks for N other owners' scratches of type T; an estimate asks for its own
 *  once, before it starts, and calls no other estimator's scratch-less calls of the same type while it runs. */
template <class T, int N = 8>
T& thread_scratch_of(std::uint64_t owner) {
  struct Slot {
    std::uint64_t owner = 0;
    std::uint64_t used = 0;
    T scratch;
  };
  thread_local std::array<Slot, N> slots;
  thread_local std::uint64_t clock = 0;
  Slot* oldest = &slots[0];
  for (Slot& s : slots) {
    if (s.owner == owner) {
      s.used = ++clock;
      return s.scratch;
    }
    if (s.used < oldest->used) oldest = &s;
  }
  oldest->owner = owner;
  oldest->used = ++clock;
  oldest->scratch = T{};
  return oldest->scratch;
}

}  // namespace hulk
