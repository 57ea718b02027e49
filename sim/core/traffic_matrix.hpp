#pragma once
/** @file traffic_matrix.hpp
 *  @brief Traffic between host pairs, per parallelism kind (dp, tp, pp), per iteration: what a simulation traced
 *  or what the analytic estimate predicts. Plain data, shared by the evaluator, the GNN features and the
 *  sample format. */
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/huge_page_allocator.hpp"
#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Parallelism kind of a communication, as an index into TrafficMatrix arrays. */
enum class CommKind { dp = 0, tp = 1, pp = 2 };
/** @brief Number of CommKind values. */
constexpr int kCommKinds = 3;

/** @brief "dp" | "tp" | "pp" -> CommKind. @throws InputError (key "kind") for anything else. */
CommKind comm_kind_from_string(const std::string& kind);

/** @brief Traffic between host pairs, per parallelism kind, per iteration (from a simulated reference
 *  placement). Symmetric: entry (a, b) == (b, a) holds the traffic of both directions. Diagonal (same-host
 *  traffic) is kept too. */
struct TrafficMatrix {
  int hosts = 0;
  /** @brief bytes[kind][a * hosts + b]: bytes exchanged between hosts a and b per iteration (both directions). */
  std::array<HugePageVector<double>, kCommKinds> bytes;
  /** @brief busy_s[kind][a * hosts + b]: seconds per iteration during which at least one message of this kind
   *  was in flight between a and b (union of [start_s, end_s] intervals, both directions). */
  std::array<HugePageVector<double>, kCommKinds> busy_s;

  /** @brief An all-zero matrix for `hosts` hosts. */
  static TrafficMatrix zeros(int hosts);
  /** @brief Bytes per iteration between a and b of one kind. */
  double bytes_between(CommKind kind, int a, int b) const {
    return bytes[static_cast<int>(kind)][static_cast<std::size_t>(a) * hosts + b];
  }
  /** @brief Busy seconds per iteration between a and b of one kind. */
  double busy_between(CommKind kind, int a, int b) const {
    return busy_s[static_cast<int>(kind)][static_cast<std::size_t>(a) * hosts + b];
  }
  /** @brief True if any traffic (any kind) flows between a and b. */
  bool any_between(int a, int b) const;
};

/** @brief Aggregates communication events (comm.csv rows) into a TrafficMatrix: bytes summed, busy time as the
 *  union of message intervals, both divided by the number of distinct iterations seen.
 *  @throws InputError if an event names an unknown kind or a host outside the platform. */
TrafficMatrix traffic_from_events(const PlatformSpec& platform, const std::vector<CommEvent>& events);

}  // namespace hulk
