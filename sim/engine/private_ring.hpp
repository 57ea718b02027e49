#pragma once
/** @file private_ring.hpp
 *  @brief Tensor-parallel ring all-reduces on a link private to the group, computed without SimGrid messages.
 *
 *  Why: tensor-parallel ring steps inside a host are nearly all of a large run's messages (issue 10), and SimGrid's
 *  cost grows with the number of concurrent communications. When a TP group sits on one host and nothing can make
 *  that host's intra-host link a bottleneck (see private_ring_groups), every ring step is a transfer at the GPU
 *  port's rate whatever else happens, so the per-message ring (collectives.cpp) is a pure function of the members'
 *  entry times: ring_step_timeline() computes it step by step with exactly the per-message path's rules (in-order
 *  connection with `channels` slots, receives posted RING_RECV_WINDOW ahead, a transfer starts when both its send and
 *  its receive are posted). At run time the members meet (PrivateRings::allreduce), the last to arrive computes the
 *  timeline, records the same messages, bytes and events as the per-message path, and every member sleeps until its
 *  own exit time. SimGrid then sees a handful of sleeps per collective instead of 2n(n-1) communications.
 *  SimOptions::tp_closed_form = false keeps the per-message path everywhere. */
#include <functional>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/workload/plan.hpp"

namespace simgrid {
namespace s4u {
class Actor;
}
}  // namespace simgrid

namespace hulk {

class Endpoint;
struct CommTag;
struct RankLedger;

/** @brief One transfer of a ring timeline: member positions (in ring order) and its simulated times. */
struct RingStepTransfer {
  int step = 0;
  int from = 0, to = 0;  ///< positions in the ring
  double post_s = 0;     ///< when the sender posted it (its send() call returned the channel)
  double end_s = 0;      ///< when it arrived (intra-host: latency included in the transfer)
};

/** @brief Exit time of every member of a ring of `steps` steps whose transfers each take `transfer_s` on a link
 *  nothing else slows down, given each member's entry time (pure; same rules as ring_steps in collectives.cpp).
 *  @param on_transfer called for every transfer, in step order then ring order (may be empty). */
std::vector<double> ring_step_timeline(const std::vector<double>& entry_s, int steps, double transfer_s, int channels,
                                       const std::function<void(const RingStepTransfer&)>& on_transfer);

/** @brief The intra-host route of a private ring: latency and the per-flow rate (the GPU port). */
struct PrivateLink {
  double latency_s = 0;
  double port_Bps = 0;
};

/** @brief For every TP group (index = rank / tp), whether its all-reduces may take the closed form, and on which
 *  link. A group qualifies when: the platform is built by hulk (not SimGrid XML), the network model is CM02 without
 *  cross-traffic (rates then depend on the links' capacities only), every member is on one host, that host's route
 *  to itself is [intra-host link, GPU port], and the intra-host link cannot bind: the number of flows that can
 *  ever be in flight on it (per rank on the host: channels_per_peer per distinct same-host peer it may send to, over
 *  TP, PP and DP) times the port's rate does not exceed its capacity. */
struct PrivateRingPlan {
  std::vector<char> eligible;      ///< per TP group
  std::vector<PrivateLink> links;  ///< per TP group (meaningful where eligible)
  int eligible_groups() const;
};

/** @brief Decides, per TP group, whether the closed form is exact (see PrivateRingPlan). */
PrivateRingPlan private_ring_groups(const Scenario& scenario, const ParallelPlan& plan,
                                    const std::vector<int>& host_of_rank);

/** @brief Run-time meeting point of the eligible groups' members (one simulation). */
class PrivateRings {
 public:
  PrivateRings(PrivateRingPlan plan, int tp, int channels);
  ~PrivateRings();
  /** @brief True if this rank's TP all-reduces take the closed form. */
  bool covers(int rank) const { return plan_.eligible[rank / tp_] != 0; }
  /** @brief The calling member's part of a ring all-reduce of `bytes` over its TP group (`members`, ring order):
   *  waits for the other members, then until its own exit time. Records, into the receivers' ledgers, the messages,
   *  bytes and (if `record_events`) events of the per-message path. */
  void allreduce(Endpoint& ep, const std::vector<int>& members, double bytes, const CommTag& tag,
                 std::vector<RankLedger>& ledgers, bool record_events);
  /** @brief Collectives computed in closed form so far (each counted once, not per member). */
  long long collectives() const { return collectives_; }

 private:
  struct Meeting;
  void complete(Meeting& m, const std::vector<int>& members, double bytes, const CommTag& tag,
                std::vector<RankLedger>& ledgers, bool record_events, const PrivateLink& link);

  PrivateRingPlan plan_;
  int tp_ = 1;
  int channels_ = 1;
  std::vector<Meeting> meetings_;  ///< per TP group
  long long collectives_ = 0;
};

}  // namespace hulk
