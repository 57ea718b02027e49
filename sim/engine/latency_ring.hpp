#pragma once
/** @file latency_ring.hpp
 *  @brief Ring all-reduces whose ring-step messages carry no bytes, computed without SimGrid messages.
 *
 *  Why: the iteration tail's gradient-norm all-reduce sums one fp32 value over the model-parallel group (tp x pp
 *  members, e.g. 64): its 2(n-1) ring steps carry 4 / n bytes each, which SimGrid's transfers round to 0 bytes
 *  (start_put) as soon as n > 8. At 16,384 GPUs these steps are more than half of the messages SimGrid simulates.
 *  A transfer of 0 bytes takes no bandwidth: whatever else crosses its links, it takes its route's latency only
 *  (a cross-host transfer leaves at once and the receiver adds the route latency; an intra-host one ends after
 *  the latency SimGrid's intra-host links keep), and it slows no other flow. So such a ring is a pure function of
 *  its members' entry times, with the same rules as the per-message ring (collectives.cpp): ring_hop_timeline().
 *  The members meet, the last to arrive computes every member's timeline and records the same messages, bytes
 *  and events as the per-message path, and every member sleeps until its own end.
 *
 *  Exact only when the routes' latencies are fixed and no transfer can be held back: hulk-built platforms under
 *  CM02 (latency at the receiver), without scenario events (link downs, latency changes) and without a stop at a
 *  host failure (see latency_rings_apply). SimOptions::tail_closed_form = false keeps the per-message path. */
#include <vector>

#include "sim/engine/sg_endpoint.hpp"
#include "sim/engine/sg_platform.hpp"

namespace hulk {

/** @brief True if a ring all-reduce of `bytes` over `members` members sends messages SimGrid rounds to 0 bytes. */
bool zero_byte_ring(double bytes, int members);

/** @brief Meeting points of one job's rings of empty messages (one group per data-parallel index). */
class LatencyRings {
 public:
  /** @param groups the number of distinct member sets (meeting points), @param sg the platform (route latencies),
   *  @param channels NetworkSpec::channels_per_peer. */
  LatencyRings(int groups, const SgPlatform& sg, int channels);
  ~LatencyRings();
  LatencyRings(const LatencyRings&) = delete;
  LatencyRings& operator=(const LatencyRings&) = delete;
  /** @brief True if the ring of `group` has transfers of fixed durations: every hop's route has a positive
   *  bandwidth, and a hop inside a host crosses links (SimGrid keeps their latency). Decided on the group's first
   *  call (its members are the same at every call) and kept. */
  bool covers(const MessageFabric& fabric, int group, const std::vector<int>& members);
  /** @brief The calling member's part of a ring all-reduce of `bytes` (zero_byte_ring) over `members` (simulation
   *  ranks in ring order, every member calling with the same arguments and `group`): waits for the other members,
   *  then until its own end. Accounts into the receivers' ledgers what Endpoint::complete does: messages, bytes per
   *  link class and (if the fabric records them) events. */
  void allreduce(Endpoint& ep, int group, const std::vector<int>& members, double bytes, const CommTag& tag,
                 std::vector<RankLedger>& ledgers);
  /** @brief Ring all-reduces computed so far (each counted once, not per member). */
  long long collectives() const { return collectives_; }
  /** @brief Their ring-step messages (counted in SimResult::messages like any other, never given to SimGrid). */
  long long messages() const { return messages_; }

 private:
  struct Meeting;
  /** Every member's timeline from its entry time in m.time_s (left with the exit times). */
  void play(Meeting& m, const MessageFabric& fabric, const std::vector<int>& members, double bytes,
            const CommTag& tag, std::vector<RankLedger>& ledgers);

  const SgPlatform* sg_;
  int channels_ = 1;
  std::vector<signed char> covered_;  ///< per group: -1 not decided yet, else covers()
  std::vector<Meeting> meetings_;
  long long collectives_ = 0;
  long long messages_ = 0;
};

/** @brief Whether rings of empty messages may take the closed form in this run (see the file comment): a platform
 *  built by hulk with latency at the receiver, no link ever down, no scheduled latency change, no stop. */
bool latency_rings_apply(const SgPlatform& sg, bool has_events, bool stops);

}  // namespace hulk
