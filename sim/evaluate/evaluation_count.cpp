#include "sim/evaluate/evaluation_count.hpp"

namespace hulk {
namespace {

std::atomic<long long> own_counter{0};
std::atomic<std::atomic<long long>*> counter{&own_counter};

}  // namespace

long long evaluator_calls() { return counter.load(std::memory_order_relaxed)->load(std::memory_order_relaxed); }

void count_evaluator_call() { counter.load(std::memory_order_relaxed)->fetch_add(1, std::memory_order_relaxed); }

std::atomic<long long>& evaluation_counter() { return *counter.load(); }

void share_evaluation_counter(std::atomic<long long>& shared) { counter.store(&shared); }

}  // namespace hulk
