#pragma once
/** @file sg_endpoint.hpp
 *  @brief SimGrid adapter for rank-to-rank messages: one mailbox per ordered rank pair (created once, looked up
 *  by integer key), typed messages sent as std::unique_ptr, receives pre-posted so that a transfer starts as soon
 *  as its sender posts it (NCCL/MPI eager semantics), and per-rank accounting of bytes, messages and events. */
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "sim/core/sim_result.hpp"

namespace hulk {

/** @brief What a message belongs to; rendered as CommEvent::collective only when events are recorded. */
struct CommTag {
  enum Kind : std::uint8_t { DP = 0, TP = 1, PP = 2 };
  Kind kind = DP;
  char dir = 'f';   ///< tp: 'f'/'b' (forward/backward pass); pp: 'a'/'g' (activation/gradient)
  int stage = 0;    ///< pipeline stage (pp: the sender's stage)
  int dp = 0;       ///< dp index (tp, pp)
  int tp = 0;       ///< tp index (dp, pp)
  int mb = 0;       ///< micro-batch (tp, pp)
  int layer = 0;    ///< layer inside the stage (tp)
  int idx = 0;      ///< which all-reduce of the layer (tp: 0 or 1)
  /** @brief Collective id, identical on every rank taking part, e.g. "tp/s1d0/mb3/l5/f0", "dp/s0t1",
   *  "pp/s0d1t0/mb2/a". */
  std::string id() const;
  const char* kind_name() const { return kind == DP ? "dp" : kind == TP ? "tp" : "pp"; }
};

/** @brief The payload of every message. The simulated size is `bytes`; the struct itself is bookkeeping. */
struct SgMessage {
  int src = 0;
  double bytes = 0;
  double post_time_s = 0;  ///< simulated time at which the sender posted it
  CommTag tag;
};

/** @brief A message as recorded by its receiver (rendered to CommEvent at the end). */
struct RawEvent {
  int iteration = 0;
  CommTag tag;
  int src = 0, dst = 0;
  double bytes = 0, start_s = 0, end_s = 0;
};

/** @brief Per-rank totals over the whole run (not yet divided by iterations). */
struct RankLedger {
  double compute_s = 0, tp_s = 0, dp_s = 0, pp_s = 0, bubble_s = 0;
  BytesByClass bytes;
  long long messages = 0;
  int iteration = 0;  ///< current iteration (stamped on recorded events)
  std::vector<RawEvent> events;
  std::vector<Span> spans;
};

/** @brief Shared by all rank actors: mailboxes and the topology needed to classify traffic. */
class MessageFabric {
 public:
  /** @param host_of_rank host index of every rank, @param region_of_host region of every host. */
  MessageFabric(std::vector<int> host_of_rank, std::vector<int> region_of_host, bool record_events);
  /** @brief Makes src -> dst an eager channel: SimGrid starts each transfer when it is sent, without a posted
   *  receive (Mailbox::set_receiver). Call from simulate() before the engine runs. */
  void set_permanent_receiver(int src, int dst, simgrid::s4u::ActorPtr receiver);
  /** @brief The mailbox carrying src -> dst messages (created on first use, then an integer-keyed lookup). */
  simgrid::s4u::Mailbox* mailbox(int src, int dst);
  int host_of(int rank) const { return host_of_rank_[rank]; }
  /** @brief 0 = intra-host, 1 = intra-region, 2 = inter-region. */
  int link_class(int src, int dst) const;
  bool record_events() const { return record_events_; }

 private:
  std::vector<int> host_of_rank_;
  std::vector<int> region_of_host_;
  bool record_events_;
  std::unordered_map<std::uint64_t, simgrid::s4u::Mailbox*> boxes_;  // lookup only, never iterated
};

/** @brief A receive posted in advance; complete() waits for it. SimGrid writes the payload pointer into `data`,
 *  so a PendingRecv must not move between Endpoint::post_recv() and Endpoint::complete() (size its container
 *  first, then post into the elements). */
struct PendingRecv {
  simgrid::s4u::CommPtr comm;
  SgMessage* data = nullptr;
  int src = -1;
};

/** @brief One rank's side of the fabric. */
class Endpoint {
 public:
  Endpoint(int rank, MessageFabric& fabric, RankLedger& ledger) : rank_(rank), fabric_(fabric), ledger_(ledger) {}
  int rank() const { return rank_; }
  /** @brief Posts a message of `bytes` to dst (asynchronous); the caller waits the returned comm later. */
  simgrid::s4u::CommPtr send(int dst, double bytes, const CommTag& tag);
  /** @brief Posts a message of `bytes` to dst and forgets it (detached). For mailboxes with a permanent receiver
   *  (pipeline pairs): the transfer starts at once and the receiver picks the messages up in send order. */
  void send_detached(int dst, double bytes, const CommTag& tag);
  /** @brief Posts into `into` a receive of the next message from src (FIFO per pair). */
  void post_recv(int src, PendingRecv& into);
  /** @brief Blocks until the pending message has arrived; accounts bytes/messages/event; returns it. */
  std::unique_ptr<SgMessage> complete(PendingRecv& pending);
  /** @brief Waits for every comm (sends) in the list and clears it. */
  static void wait_all(std::vector<simgrid::s4u::CommPtr>& comms);
  RankLedger& ledger() { return ledger_; }
  MessageFabric& fabric() { return fabric_; }
  /** @brief Reusable buffers for one collective phase at a time (saves two allocations per phase). */
  std::vector<PendingRecv> scratch_recvs;
  std::vector<simgrid::s4u::CommPtr> scratch_sends;

 private:
  simgrid::s4u::Mailbox* out_box(int dst);
  simgrid::s4u::Mailbox* in_box(int src);

  // A rank talks to a handful of peers (ring neighbours, pipeline neighbours, DP peers): a short linear cache
  // is cheaper than the shared hash map (measured in the 1,024-GPU benchmark).
  std::vector<std::pair<int, simgrid::s4u::Mailbox*>> out_cache_, in_cache_;
  int rank_;
  MessageFabric& fabric_;
  RankLedger& ledger_;
};

}  // namespace hulk
