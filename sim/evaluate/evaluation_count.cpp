#include "sim/evaluate/evaluation_count.hpp"

#include <atomic>

namespace hulk {
namespace {

std::atomic<long long> counter{0};
thread_local long long this_thread_counter = 0;

}  // namespace

long long evaluator_calls() { return counter.load(std::memory_order_relaxed); }

long long evaluator_calls_of_this_thread() { return this_thread_counter; }

void count_evaluator_call() {
  counter.fetch_add(1, std::memory_order_relaxed);
  ++this_thread_counter;
}

void uncount_evaluator_calls(long long n) { counter.fetch_sub(n, std::memory_order_relaxed); }

}  // namespace hulk
