#pragma once
/** @file private_ring.hpp
 *  @brief Tensor-parallel ring all-reduces on a link private to the group, computed without SimGrid messages.
 *
 *  Why: tensor-parallel ring steps inside a host are nearly all of a large run's messages, and SimGrid's
 *  cost grows with the number of concurrent communications. When a TP group sits on one host and nothing can make
 *  that host's intra-host link a bottleneck (see private_ring_groups), every ring step is a transfer at the GPU
 *  port's rate whatever else happens, so the per-message ring (collectives.cpp) is a pure function of the members'
 *  entry times: ring_step_timeline() computes it step by step with exactly the per-message path's rules (in-order
 *  connection with `channels` slots, receives posted kRingRecvWindow ahead, a transfer starts when both its send and
 *  its receive are posted). The computes between the all-reduces are as plain: the host has a core per GPU, so an
 *  exec takes flops / speed whatever else runs. So the whole body of a forward or backward (between its pipeline
 *  receive and send) is a function of the members' start times: the members meet (PrivateRings::run_body), the last
 *  to arrive computes every member's timeline, records the same messages, bytes, events, spans and time accounts as
 *  the step-by-step path, and every member sleeps until its own end. SimGrid sees one meeting and one sleep per
 *  member and op instead of an exec per half layer and 2n(n-1) communications per all-reduce.
 *  SimOptions::tp_closed_form = false keeps the per-message path everywhere. */
#include <functional>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/engine/sg_endpoint.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

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

/** @brief The hop from ring position i to i + 1, when nothing else can slow its transfers down. */
struct RingHop {
  double transfer_s = 0;          ///< from the transfer's start until it has left the sender (frees the channel)
  double receiver_latency_s = 0;  ///< from then until it has arrived (MessageFabric::receiver_latency_s)
};

/** @brief ring_step_timeline with a duration of its own for every hop (`hops[i]`: position i to i + 1), and a
 *  receiver-side latency: a transfer frees its sender's channel when it has left and arrives one latency later
 *  (RingStepTransfer::end_s is the arrival). */
std::vector<double> ring_hop_timeline(const std::vector<double>& entry_s, int steps, const std::vector<RingHop>& hops,
                                      int channels, const std::function<void(const RingStepTransfer&)>& on_transfer);

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

/** @brief One step of a forward or backward body: a compute of `flops` (span "<what> mb<k>") or a TP all-reduce. */
struct BodyStep {
  bool allreduce = false;
  double flops = 0;
  const char* what = nullptr;
  CommTag tag;
};

/** @brief What a body's durations depend on (the same for every member of a private group: one host). */
struct BodyTiming {
  double allreduce_bytes = 0;  ///< bytes of each TP all-reduce
  double flops_scale = 1;      ///< SgPlatform::flops_scale of the host
  double host_speed = 0;       ///< flop/s of one core of the host (one GPU)
};

/** @brief Run-time meeting point of the eligible groups' members (one simulation). */
class PrivateRings {
 public:
  /** @param rank_offset simulation rank of the job's rank 0 (several jobs, sim/core/jobs.hpp; 0 for one job): the
   *  members passed to run_body are simulation ranks. */
  PrivateRings(PrivateRingPlan plan, int tp, int channels, int rank_offset = 0);
  ~PrivateRings();
  /** @brief True if the job's rank `local_rank` has its TP all-reduces in closed form. */
  bool covers(int local_rank) const { return plan_.eligible[local_rank / tp_] != 0; }
  /** @brief The calling member's part of a body (`members`: its TP group in ring order): waits for the other
   *  members to start the same body, then until its own end. Accounts into the ledgers what the step-by-step path
   *  does: compute_s and tp_s, messages and bytes of the receivers, events (if `record_events`), spans (if
   *  `record_spans`). */
  void run_body(Endpoint& ep, const std::vector<int>& members, const std::vector<BodyStep>& body, int mb,
                const BodyTiming& timing, std::vector<RankLedger>& ledgers, bool record_events, bool record_spans);
  /** @brief TP all-reduces computed in closed form so far (each counted once, not per member). */
  long long collectives() const { return collectives_; }
  /** @brief Their ring-step messages (counted in SimResult::messages like any other, but never given to SimGrid). */
  long long messages() const { return messages_; }

 private:
  struct Meeting;
  /** Every member's timeline through the body from its start time in m.time_s (left with the end times). */
  void play(Meeting& m, const std::vector<int>& members, const std::vector<BodyStep>& body, int mb,
            const BodyTiming& timing, std::vector<RankLedger>& ledgers, bool record_events, bool record_spans,
            const PrivateLink& link);

  PrivateRingPlan plan_;
  int tp_ = 1;
  int channels_ = 1;
  int rank_offset_ = 0;
  std::vector<Meeting> meetings_;  ///< per TP group
  long long collectives_ = 0;
  long long messages_ = 0;
};

}  // namespace hulk
