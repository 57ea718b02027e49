#include "sim/evaluate/pipeline_memo.hpp"

#include <pthread.h>

#include <cmath>
#include <cstring>

namespace hulk {
namespace {

/** Bytes an entry holds (its vectors' contents and a rough allowance for the node and vector headers). */
std::size_t entry_bytes(const PipelineMemoKey& key, std::size_t stage_slots) {
  return key.ints.size() * sizeof(int) + (key.times.size() + stage_slots) * sizeof(double) + 128;
}

}  // namespace

PipelineMemo::PipelineMemo(std::size_t generation_bytes) : generation_bytes_(generation_bytes) {}

PipelineMemo& PipelineMemo::process() {
  static PipelineMemo* memo = [] {
    auto* m = new PipelineMemo(std::size_t{32} << 20);  // never destroyed: threads may evaluate at exit
    // The processes fork (SimGrid runs and the GNN in children) while other threads may be evaluating: the child
    // must not start with the mutex held by a thread it does not have.
    pthread_atfork([] { process().mutex().lock(); }, [] { process().mutex().unlock(); },
                   [] { process().mutex().unlock(); });
    return m;
  }();
  return *memo;
}

int PipelineMemo::schedule_id(const std::string& schedule, int stages, int micro_batches) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto [it, fresh] =
      schedules_.try_emplace(std::make_tuple(schedule, stages, micro_batches), static_cast<int>(schedules_.size()));
  return it->second;
}

void PipelineMemo::seal(PipelineMemoKey& key) {
  // FNV-1a's multiply on 64-bit words (the bits of each double, each int), finished by a murmur mix so that the
  // multimap's buckets (the low bits) spread.
  std::uint64_t h = 1469598103934665603ull;
  for (const double t : key.times) {
    std::uint64_t w;
    std::memcpy(&w, &t, sizeof w);
    h = (h ^ w) * 1099511628211ull;
  }
  for (const int v : key.ints) h = (h ^ static_cast<std::uint32_t>(v)) * 1099511628211ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  key.hash = h;
}

const PipelineMemo::Entry* PipelineMemo::lookup(const Generation& generation, const PipelineMemoKey& key) const {
  const auto [first, last] = generation.equal_range(key.hash);
  for (auto it = first; it != last; ++it)
    if (it->second.key.ints == key.ints && it->second.key.times == key.times) return &it->second;
  return nullptr;
}

double PipelineMemo::find(const PipelineMemoKey& key, double* last_end) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Entry* hit = lookup(current_, key);
  if (!hit) {
    hit = lookup(previous_, key);
    if (!hit) return std::nan("");
    // Used again: into the current generation, so it outlives the previous one.
    Entry copy = *hit;
    current_bytes_ += entry_bytes(copy.key, copy.last_end.size());
    hit = &current_.emplace(key.hash, std::move(copy))->second;
  }
  std::memcpy(last_end, hit->last_end.data(), hit->last_end.size() * sizeof(double));
  return hit->span;
}

void PipelineMemo::insert(PipelineMemoKey&& key, double span, const double* last_end, std::size_t stage_slots) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lookup(current_, key)) return;
  if (current_bytes_ >= generation_bytes_) {
    previous_ = std::move(current_);
    current_ = Generation();
    current_bytes_ = 0;
  }
  current_bytes_ += entry_bytes(key, stage_slots);
  Entry entry{std::move(key), span, std::vector<double>(last_end, last_end + stage_slots)};
  const std::uint64_t hash = entry.key.hash;
  current_.emplace(hash, std::move(entry));
}

void PipelineMemo::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  current_.clear();
  previous_.clear();
  current_bytes_ = 0;
}

std::size_t PipelineMemo::entries() {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_.size() + previous_.size();
}

}  // namespace hulk
