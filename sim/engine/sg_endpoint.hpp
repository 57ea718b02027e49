#pragma once
/** @file sg_endpoint.hpp
 *  @brief SimGrid adapter for rank-to-rank messages: one mailbox per ordered rank pair (created once, looked up
 *  by integer key), typed messages sent as std::unique_ptr, receives pre-posted so that a transfer starts as soon
 *  as its sender posts it (NCCL/MPI eager semantics), and per-rank accounting of bytes, messages and events.
 *
 *  Connections (without them queued messages all arrive together and slow links look far too slow): messages of one kind from
 *  one rank to one peer go in order over NetworkSpec::channels_per_peer channels, as over one NCCL channel or one
 *  TCP connection. A message starts transmitting when a channel is free, i.e. when an earlier message has LEFT
 *  the sender; under CM02 SimGrid's links carry no latency (sg_build_platform) and the receiver adds the route
 *  latency after the transfer, so queued messages pipeline their latency instead of paying it one by one.
 *  Without connections, messages to one peer shared the link's bandwidth (processor sharing) and all arrived
 *  together when the queue drained. */
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"
#include "sim/engine/sg_platform.hpp"

namespace hulk {

/** @brief What a message belongs to; rendered as CommEvent::collective only when events are recorded. */
struct CommTag {
  enum Kind : std::uint8_t { DP = 0, TP = 1, PP = 2, OUTER = 3 };  ///< OUTER: DiLoCo's all-reduce across islands
  Kind kind = DP;
  char dir = 'f';   ///< dp: 'f' gradients, 'e' tied embeddings, 'n' gradient norm; tp: 'f'/'b'/'r' (forward, backward, recomputed forward); pp: 'a'/'g' (activation/gradient)
  int stage = 0;    ///< pipeline stage (pp: the sender's stage)
  int dp = 0;       ///< dp index (tp, pp); slice (outer)
  int tp = 0;       ///< tp index (dp, pp)
  int mb = 0;       ///< micro-batch (tp, pp)
  int layer = 0;    ///< layer inside the stage (tp); model chunk of the sender's op (pp, interleaved 1F1B)
  int idx = 0;      ///< which all-reduce of the layer (tp: 0 or 1)
  /** @brief Collective id, identical on every rank taking part, e.g. "tp/s1d0/mb3/l5/f0", "dp/s0t1",
   *  "pp/s0d1t0/mb2/a". */
  std::string id() const;
  const char* kind_name() const { return kind == DP ? "dp" : kind == TP ? "tp" : kind == PP ? "pp" : "outer"; }
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

class TraceRecorder;

/** @brief Per-rank totals over the whole run (not yet divided by iterations). */
struct RankLedger {
  double compute_s = 0, tp_s = 0, dp_s = 0, pp_s = 0, bubble_s = 0;
  IterationCosts fixed;  ///< the fixed per-iteration costs, summed over iterations (also in compute_s and dp_s)
  BytesByClass bytes;
  long long messages = 0;
  int iteration = 0;  ///< current iteration (stamped on recorded events)
  /** @brief Where messages and spans are recorded (one recorder shared by all ranks, set by simulate()). */
  TraceRecorder* trace = nullptr;
};

class Courier;

/** @brief Shared by all rank actors: mailboxes, connection settings and the topology needed to classify traffic. */
class MessageFabric {
 public:
  /** @param host_of_rank host index of every rank, @param region_of_host region of every host, @param sg the
   *  SimGrid platform (hosts, route latencies), @param network channels per peer and TCP window. */
  MessageFabric(std::vector<int> host_of_rank, std::vector<int> region_of_host, bool record_events,
                const SgPlatform& sg, const NetworkSpec& network);
  ~MessageFabric();
  /** @brief Makes src -> dst an eager channel: SimGrid starts each transfer when it is sent, without a posted
   *  receive (Mailbox::set_receiver). Call from simulate() before the engine runs. */
  void set_permanent_receiver(int src, int dst, simgrid::s4u::ActorPtr receiver);
  /** @brief The mailbox carrying src -> dst messages (created on first use, then an integer-keyed lookup). */
  simgrid::s4u::Mailbox* mailbox(int src, int dst);
  int host_of(int rank) const { return host_of_rank_[rank]; }
  /** @brief 0 = intra-host, 1 = intra-region, 2 = inter-region. */
  int link_class(int src, int dst) const;
  bool record_events() const { return record_events_; }
  /** @brief Latency the receiver adds after a src -> dst transfer ends (0 when SimGrid's links carry it). */
  double receiver_latency_s(int src, int dst) const;
  /** @brief Per-flow rate cap of src -> dst, bytes/s: TCP window / round-trip time (what SimGrid's TCP-gamma
   *  applies under CM02: window / (2 x route latency)); 0 = none (no window, zero latency, or SimGrid applies it). */
  double flow_rate_cap_Bps(int src, int dst) const;
  /** @brief Blocks the calling actor while a link of the route from src's host to dst's host is down (scenario
   *  events): a transfer that started on a down link would keep its rate after the link is back, as SimGrid 3.32's
   *  CM02 bounds a transfer by its route's bandwidth when it starts. */
  void wait_until_route_up(int src, int dst) const;
  /** @brief When the route from src's host to dst's host is next up, at or after now (now when no link of it is
   *  down, or the scenario has no downs). */
  double route_up_time(int src, int dst) const;
  /** @brief True if the scenario has link downs (else no route is ever down: receives skip every check). */
  bool has_downs() const;
  /** @brief True if src -> dst is an eager channel (set_permanent_receiver with a receiver). */
  bool is_eager(int src, int dst) const;
  /** @brief The SimGrid host of a rank. */
  simgrid::s4u::Host* sg_host_of(int rank) const;
  /** @brief Parallel channels of one connection (NetworkSpec::channels_per_peer). */
  int channels() const { return channels_; }
  /** @brief The courier of the src -> dst eager connection (created, with its channel actors on src's host, on
   *  first use). */
  Courier& courier(int src, int dst);

 private:
  std::vector<int> host_of_rank_;
  std::vector<int> region_of_host_;
  bool record_events_;
  const SgPlatform* sg_;
  double tcp_window_bytes_;
  int channels_;
  std::unordered_map<std::uint64_t, simgrid::s4u::Mailbox*> boxes_;  // lookup only, never iterated
  std::unordered_map<std::uint64_t, std::unique_ptr<Courier>> couriers_;  // lookup only, never iterated
  std::unordered_set<std::uint64_t> eager_;  // pairs with a permanent receiver; lookup only, never iterated
};

/** @brief Starts a put of `msg` (ownership passes to the receiver) on `box`, capped at rate_cap_Bps if > 0. */
simgrid::s4u::CommPtr start_put(simgrid::s4u::Mailbox* box, std::unique_ptr<SgMessage> msg, double rate_cap_Bps);

/** @brief A receive posted in advance; complete() waits for it. SimGrid writes the payload pointer into `data`,
 *  so a PendingRecv must not move between Endpoint::post_recv() and Endpoint::complete() (size its container
 *  first, then post into the elements). */
struct PendingRecv {
  simgrid::s4u::CommPtr comm;
  SgMessage* data = nullptr;
  int src = -1;
  /** @brief Set for a rendezvous receive posted while its route was down: the endpoint's poster actor posts it when
   *  the route is up (a transfer SimGrid started on the down link would keep the down link's rate after it is back)
   *  and releases this; complete() acquires it first, and releases `consumed` once the message is in (SimGrid fails
   *  a transfer whose posting actor has ended, so the poster lives until then). */
  simgrid::s4u::SemaphorePtr posted, consumed;
};

/** @brief One rank's side of the fabric. */
class Endpoint {
 public:
  Endpoint(int rank, MessageFabric& fabric, RankLedger& ledger) : rank_(rank), fabric_(fabric), ledger_(ledger) {}
  int rank() const { return rank_; }
  /** @brief Sends a message of `bytes` to dst on the (dst, tag.kind) connection: first waits (blocking this actor)
   *  until one of the connection's channels is free, then starts the transfer and returns. For senders whose
   *  next step may wait (collectives, blocking p2p); wait_sends() waits for what is still leaving. */
  void send(int dst, double bytes, const CommTag& tag);
  /** @brief Hands a message of `bytes` to the courier of the dst connection and returns at once (eager pipeline
   *  sends, whose mailboxes have a permanent receiver): the courier sends the connection's messages in order. */
  void send_eager(int dst, double bytes, const CommTag& tag);
  /** @brief Waits until every message sent with send() has left this rank. */
  void wait_sends();
  /** @brief Posts into `into` a receive of the next message from src (FIFO per pair). */
  void post_recv(int src, PendingRecv& into);
  /** @brief Blocks until the pending message has arrived (its transfer ended, plus the receiver-side route
   *  latency); accounts bytes/messages/event; returns it. */
  std::unique_ptr<SgMessage> complete(PendingRecv& pending);
  RankLedger& ledger() { return ledger_; }
  MessageFabric& fabric() { return fabric_; }
  /** @brief Reusable buffer for one collective phase at a time (saves an allocation per phase). */
  std::vector<PendingRecv> scratch_recvs;

 private:
  /** Messages of one connection still leaving this rank, oldest first. */
  struct Connection {
    int dst = -1;
    CommTag::Kind kind = CommTag::DP;
    std::vector<simgrid::s4u::CommPtr> leaving;
  };
  simgrid::s4u::Mailbox* out_box(int dst);
  simgrid::s4u::Mailbox* in_box(int src);
  Connection& connection(int dst, CommTag::Kind kind);
  /** Receives from one peer waiting for their route to come back up, in the order they were posted. */
  struct WaitingRecvs {
    int src = -1;
    std::vector<PendingRecv*> queue;
    bool poster_running = false;
  };
  WaitingRecvs& waiting_from(int src);
  /** Queues `into` behind the receives from its src already waiting and, if none is running, starts the actor that
   *  posts them (in order) once the route is up. */
  void post_when_route_up(PendingRecv& into);

  std::vector<Connection> connections_;  // a handful per rank: linear search
  std::vector<std::unique_ptr<WaitingRecvs>> waiting_;  // only with link downs; a handful: linear search

  // A rank talks to a handful of peers (ring neighbours, pipeline neighbours, DP peers): a short linear cache
  // is cheaper than the shared hash map (measured in the 1,024-GPU benchmark).
  std::vector<std::pair<int, simgrid::s4u::Mailbox*>> out_cache_, in_cache_;
  int rank_;
  MessageFabric& fabric_;
  RankLedger& ledger_;
};

}  // namespace hulk
