#pragma once
/** @file pipeline_critical_path.hpp
 *  @brief Per-stage operation order of the GPipe and 1F1B pipeline schedules and the critical-path makespan of one
 *  pipeline given per-stage op times. Pure code, shared by the analytic evaluator and the lower bound. */
#include <string>
#include <vector>

namespace hulk {

/** @brief One pipeline operation: forward or backward of a micro-batch. */
struct StageOp {
  bool backward = false;
  int mb = 0;
  int chunk = 0;  ///< model chunk (interleaved 1F1B); virtual stage chunk x p + stage
};

/** @brief Op order of every stage: pipeline_schedule() (sim/workload/pipeline_schedule.hpp, the order the SimGrid
 *  rank actors follow) for each stage, as StageOps. gpipe: F0..F(m-1) then B0..B(m-1); 1f1b (Megatron
 *  non-interleaved): w = min(p-s-1, m) warm-up forwards, then (F(w+i), B(i)) for i < m-w, then the remaining
 *  backwards. @throws std::invalid_argument on an unknown schedule name (the scenario loader validates names). */
std::vector<std::vector<StageOp>> stage_op_orders(const std::string& schedule, int stages, int micro_batches,
                                                  int virtual_stages = 1);

/** @brief Reusable buffers of pipeline_makespan_s (avoids allocations in hot loops). */
struct PipelineScratch {
  /** @brief A message being transmitted (or, when links carry the latency, waiting its latency first). */
  struct Flight {
    double remaining_s;  ///< transfer left at time `since`, seconds if alone on its links
    double since;        ///< when remaining_s was last brought up to date (its rate changed then)
    double event_t;      ///< transferring: when its transfer ends at its current rate
    int msg;             ///< message index (see pipeline_critical_path.cpp)
    int links[3];
    int weights[3];      ///< its flows on each link (PipelineLinks::route_weights_*)
    double units[3];     ///< weights x PipelineLinks::route_slack_*: its flows' worth of each link's capacity
    int counted[3];      ///< flows counted on each link: weights x PipelineLinks::flow_multiplicity
    int on_link_at[3];   ///< transferring: its position in on_link[links[k]]
    double start_at;     ///< transfer starts then (after the route latency when links carry it)
    bool transferring;   ///< counted on its links
    double rate;         ///< cached progress rate (1/k, or weighted), valid while transferring
    double headroom;     ///< PipelineLinks::headroom_* of its message (1 = none)
    long long seq;       ///< order of creation: ties between flight events go to the older flight
    int refreshed;       ///< the refresh pass that last updated it (a flight on two changed links once)
  };
  /** @brief A transferring flight on a link: the flight and which of its route links this is. */
  struct LinkSlot {
    int flight, k;
  };
  /** @brief Per message: when the sender posted it, the receiver posted its receive, its last byte left the
   *  sender, it arrived (-1 = not yet known). */
  std::vector<double> send_post, recv_post, left, arrive;
  std::vector<int> next_start;  ///< per connection: next micro-batch to start transmitting
  std::vector<size_t> next;     ///< per stage: next op
  std::vector<int> state;       ///< per stage: 0 in an op (input, compute), 1 waiting for its p2p exchange, 2 done
  std::vector<int> in_msg, out_msg, xin_msg;  ///< per stage: message awaited by the op / the exchange
  std::vector<double> clock;
  std::vector<double> stage_t;  ///< tournament tree of the stages' next event times (+inf = not known)
  std::vector<int> stage_at;    ///< per tree node: the stage whose time it holds
  std::vector<Flight> flights;           ///< pool of flights (stable indices), ended ones in free_flights
  std::vector<int> free_flights;
  /** @brief Tournament tree of the flights' pending events (a flight has at most one): per node the earliest by
   *  (t, seq) of its subtree, as its time and flight (-1 = none); leaves are the flights' pool slots. */
  std::vector<double> event_t;
  std::vector<long long> event_seq;
  std::vector<int> event_at;
  std::vector<std::vector<LinkSlot>> on_link;  ///< per link id: the transferring flights on it (empty between calls)
  std::vector<int> flows_on_link;  ///< in-flight messages per link id (all zero between calls)
};

/** @brief Hand-off costs per stage boundary s (between stages s and s+1), p-1 entries each (seconds):
 *  latency and bandwidth time (bytes / share) of one message, forward (s -> s+1) and backward (s+1 -> s), and the
 *  communication model the engine follows (sim/engine/rank_actor.cpp, sg_endpoint.cpp). */
struct PipelineLinks {
  const double* latency_fwd_s;
  const double* transfer_fwd_s;
  const double* latency_bwd_s;
  const double* transfer_bwd_s;
  /** @brief Optional: link ids of each boundary's route, 3 per boundary (-1 = unused), forward and backward, and
   *  the number of link ids. With them, messages being transmitted share links (a stage's activations to s+1 and
   *  gradients to s-1 share its NIC up); without (nullptr), transfers are independent. */
  const int* route_links_fwd = nullptr;
  const int* route_links_bwd = nullptr;
  int link_ids = 0;
  /** @brief Megatron's blocking p2p (JobSpec::pipeline_p2p_blocking): transfers are rendezvous (start when the
   *  receiver posted its receive), a send blocks its rank until the message has left, and after a forward whose
   *  next op is a backward (or a backward whose next op is a forward) the rank sends and receives the next op's
   *  input in one exchange, waiting for both. False: eager sends that never block the sender. */
  bool blocking = false;
  /** @brief Messages of one direction across one boundary go in order over this many channels: micro-batch j starts
   *  transmitting once j - channels has left the sender. 0 = independent messages (no connection order). */
  int channels = 0;
  /** @brief Pipelines computed together (dp replicas of one job): every per-boundary array above and below holds
   *  replicas x (p-1) entries (replica-major: replica r's boundary b at r * (p-1) + b), fwd_s/bwd_s and last_end_s
   *  replicas x p. The replicas run the same schedule independently; they meet only on shared links, where their
   *  messages in flight share bandwidth (route link ids required for that). */
  int replicas = 1;
  /** @brief Optional, with route link ids: per route link, how many flows the message puts on it (a hand-off of a
   *  tensor-parallel group is tp transfers at once; its transfer_* is its time with only those flows). A message's
   *  progress rate is then min over its links of weight / flows on the link (nullptr: weight 1 everywhere). */
  const int* route_weights_fwd = nullptr;
  const int* route_weights_bwd = nullptr;
  /** @brief Optional, with route weights: per route link, its capacity per flow of the message over the message's
   *  alone rate per flow (>= 1; 1 on the route's tightest link). A link faster than the route's bottleneck slows
   *  the message only once it carries that many times more flows: the rate is min(1, min over links of weight x
   *  slack / flows on the link). nullptr: 1 everywhere (every link as tight as the bottleneck). */
  const double* route_slack_fwd = nullptr;
  const double* route_slack_bwd = nullptr;
  /** @brief Identical copies of these pipelines running in lockstep on the same links (replicas with equal inputs
   *  and routes): each message puts this many times its flows on its links. The result is the joint run's, without
   *  simulating the copies. */
  int flow_multiplicity = 1;
  /** @brief True (SimGrid CM02 in the engine): the route latency is applied at the receiver after the transfer,
   *  so a message leaves after its transfer and queued messages pipeline their latency. False: the latency comes
   *  first and a message has "left" only when it arrived. */
  bool latency_at_receiver = true;
  /** @brief Optional (a TCP window): per boundary, replica-major like transfer_*, how much faster than its alone rate
   *  the message could go without the window (>= 1). A window-bound message keeps its alone rate while its fair
   *  share of its links stays above it: its rate is min(1, headroom x the shared rate), as SimGrid's max-min
   *  sharing gives a capped flow its cap while the link has room (nullptr: 1 everywhere). */
  const double* headroom_fwd = nullptr;
  const double* headroom_bwd = nullptr;
  /** @brief Model chunks per stage (interleaved 1F1B, StageOp::chunk), eager p2p only. With chunks > 1 every
   *  per-boundary array holds p entries per replica, entry p-1 the hand-off from the last stage back to the first
   *  (forward; the first to the last backward), and fwd_s / bwd_s hold one time per (replica, stage, chunk) at
   *  (replica x p + stage) x chunks + chunk. */
  int chunks = 1;
};

/** @brief Critical path of one pipeline, a small event simulation of the engine's rank actors: F(s,j) starts after
 *  the stage's previous op (and its p2p waits) and after activation j arrived from stage s-1; B(s,j) after gradient
 *  j arrived from stage s+1 (the last stage's B(j) follows its own F(j)). A message starts transmitting when its
 *  sender posted it, its connection is free (PipelineLinks::channels) and, in blocking mode, its receiver posted
 *  the receive. With route link ids, transmitting messages share links by processor sharing: with k messages on
 *  its busiest link one progresses at 1/k of its alone rate (transfer_* is its alone transfer time; with weights, the
 *  least of weight / flows over its links); SimGrid's fair sharing restricted to these pipelines
 *  (PipelineLinks::replicas of them). It arrives one route latency after it left (latency_at_receiver).
 *  @param fwd_s,bwd_s per-stage op durations (s), replicas x p (replica-major); @param last_end_s if non-null,
 *  receives per stage slot (replica-major) the end of its last op and p2p waits (s). @return that end, max over all stages (s).
 *  Without route link ids (independent transfers) this is a longest path through max-plus precedences, monotone
 *  non-decreasing in every input (lower_bound.hpp relies on it). With shared links it is not always: a slower message
 *  can leave a link free at a better time for another (the evaluator's DP-loaded second pass, approximation 6, has
 *  come out faster than its first on a sampled GPipe job of dp 5 x pp 9, measured with hulk bench). */
double pipeline_makespan_s(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
                           const PipelineLinks& links, double* last_end_s, PipelineScratch& scratch);

}  // namespace hulk
