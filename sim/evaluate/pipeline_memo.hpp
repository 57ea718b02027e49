#pragma once
/** @file pipeline_memo.hpp
 *  @brief A cache of replica-pipeline computations (Evaluator's event simulation of one group of pipelines), keyed
 *  by every input of the computation with link ids renamed in order of first use. Nothing in the key names a
 *  platform, a host or a job, so one cache serves every Evaluator of the process: the placers build many (greedy on
 *  each GPU share of each job order, the gnn's reference, decoder and annealing branches) and their candidates
 *  often hold the same pipelines. A hit returns the bits the computation would give (the same inputs give the same
 *  operations), so sharing changes no result, only the time. */
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace hulk {

/** @brief Every input of one pipeline computation (see the file comment). */
struct PipelineMemoKey {
  /** @brief The computation's settings (pipeline_schedule_id, blocking, channels, ...), then the route weights, then
   *  the route link ids renamed in order of first use. */
  std::vector<int> ints;
  std::vector<double> times;  ///< op times, latencies, transfer times, slacks and headrooms
  std::uint64_t hash = 0;     ///< of ints and times (set by PipelineMemo::seal)
};

/** @brief The cache (see the file comment): thread-safe; bounded by two generations of entries, the older dropped
 *  when the newer reaches its byte budget, so what is looked up often stays. */
class PipelineMemo {
 public:
  /** @brief A cache of at most about 2 x generation_bytes of entries. */
  explicit PipelineMemo(std::size_t generation_bytes);
  /** @brief The cache every Evaluator of the process shares, the GNN plugin's included (it has no copy of this
   *  library, see tools/plugins/gnn_plugin_api.hpp); 32 MB generations; safe across fork. */
  static PipelineMemo& process();

  /** @brief A number naming a pipeline schedule exactly (its name, stages and micro-batches), for the key's ints. */
  int schedule_id(const std::string& schedule, int stages, int micro_batches);
  /** @brief Sets key.hash from the key's ints and times. */
  static void seal(PipelineMemoKey& key);
  /** @brief If the sealed key was stored: its span returned, its per-stage ends copied to last_end (as many as
   *  stored); else NaN. */
  double find(const PipelineMemoKey& key, double* last_end);
  /** @brief Stores the sealed key's result (moved from key; nothing if another thread stored it meanwhile). */
  void insert(PipelineMemoKey&& key, double span, const double* last_end, std::size_t stage_slots);
  /** @brief Drops every entry (schedule ids are kept). */
  void clear();
  /** @brief Entries stored (both generations). */
  std::size_t entries();

  /** @brief The mutex, for fork handlers only (the child must not inherit it locked). */
  std::mutex& mutex() { return mutex_; }

 private:
  struct Entry {
    PipelineMemoKey key;
    double span = 0;
    std::vector<double> last_end;
  };
  /** Buckets by the key's own hash (already mixed). */
  struct Identity {
    std::size_t operator()(std::uint64_t h) const { return static_cast<std::size_t>(h); }
  };
  using Generation = std::unordered_multimap<std::uint64_t, Entry, Identity>;
  const Entry* lookup(const Generation& generation, const PipelineMemoKey& key) const;

  std::mutex mutex_;
  Generation current_, previous_;
  std::size_t current_bytes_ = 0;
  const std::size_t generation_bytes_;
  std::map<std::tuple<std::string, int, int>, int> schedules_;
};

}  // namespace hulk
