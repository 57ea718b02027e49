#include "sim/evaluate/pipeline_critical_path.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sim/workload/pipeline_schedule.hpp"

namespace hulk {

std::vector<std::vector<StageOp>> stage_op_orders(const std::string& schedule, int stages, int micro_batches,
                                                  int virtual_stages) {
  // The one op order is workload's pipeline_schedule (what the SimGrid rank actors run); this only lays it out
  // for all stages at once in the evaluator's form.
  std::vector<std::vector<StageOp>> out(stages);
  for (int s = 0; s < stages; ++s) {
    const std::vector<PipeOp> ops = pipeline_schedule(schedule, stages, s, micro_batches, virtual_stages);
    out[s].reserve(ops.size());
    for (const PipeOp& op : ops) out[s].push_back({!op.forward, op.micro_batch, op.chunk});
  }
  return out;
}

namespace {

using Flight = PipelineScratch::Flight;

enum StageState { kInOp = 0, kExchange = 1, kDone = 2 };
constexpr double kUnknown = std::numeric_limits<double>::infinity();

// 1.0 / k for small k, the same correctly rounded quotients as the division (which stalls the event loop).
constexpr int kInverses = 64;
struct Inverses {
  double of[kInverses];
  constexpr Inverses() : of() {
    for (int k = 1; k < kInverses; ++k) of[k] = 1.0 / k;
  }
};
constexpr Inverses kInverse;

// One run of the pipeline event simulation over the caller's scratch buffers. Stage slots g = replica * p + stage.
// Messages are indexed ((replica * 2 + dir) * (p-1) + boundary) * m + micro-batch, dir 0 = activation (boundary ->
// boundary+1), 1 = gradient (boundary+1 -> boundary); one connection per (replica, dir, boundary), its messages in
// micro-batch order (the order every schedule sends them in).
class PipelineRun {
 public:
  PipelineRun(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
              const PipelineLinks& links, PipelineScratch& sc)
      : schedule_(schedule), fwd_s_(fwd_s), bwd_s_(bwd_s), links_(links), sc_(sc),
        p_(static_cast<int>(schedule.size())), v_(std::max(1, links.chunks)),
        m_(static_cast<int>(schedule[0].size() / (2 * v_))), b_(p_ * v_ - 1), e_(v_ > 1 ? p_ : p_ - 1),
        r_(std::max(1, links.replicas)), slots_(p_ * r_),
        shared_(links.route_links_fwd && links.route_links_bwd && links.link_ids > 0),
        channels_(links.channels > 0 ? links.channels : m_ * v_ + 1) {
    reset_buffers();
    if (v_ > 1) order_chunk_connections();
  }

  /** Runs every op of every stage; returns the makespan and fills last_end_s (if non-null). */
  double run(double* last_end_s) {
    for (int g = 0; g < slots_; ++g) enter_op(g);
    for (int c = 0; c < 2 * (v_ > 1 ? e_ : b_) * r_; ++c) update_conn(c);
    int done = 0;
    // Event loop: the earliest of (a) a flight event, (b) a stage event (an op ends, or a blocking p2p wait ends).
    // A stage event whose inputs are unknown waits for a message not yet sent or delivered, so it cannot happen
    // before the events considered. A message starts transmitting as soon as its last condition is met (update_conn):
    // every condition is met at an event, i.e. now.
    while (done < slots_) {
      double t_flight = 0.0, t_stage = 0.0;
      const int flight = earliest_flight_event(t_flight);
      const int stage = earliest_stage_event(t_stage);
      if (flight >= 0 && (stage < 0 || t_flight <= t_stage)) {
        apply_flight_event(flight, t_flight);
      } else {
        if (stage < 0) throw std::logic_error("pipeline schedule deadlocked (bug in stage_op_orders)");
        if (stage_event(stage, t_stage)) ++done;
      }
    }
    drain_link_counts();
    return makespan(last_end_s);
  }

 private:
  // Boundaries are between virtual stages (chunk x p + stage; the stages themselves without interleaving): boundary
  // b joins stage b mod p to stage (b + 1) mod p, over the links of PipelineLinks entry b mod p.
  int msg_index(int replica, int dir, int boundary, int mb) const {
    return ((replica * 2 + dir) * b_ + boundary) * m_ + mb;
  }
  // Of connection c: its replica, direction (0 = forward), boundary, and the boundary's entry in PipelineLinks.
  int conn_replica(int c) const { return c / (2 * b_); }
  bool conn_forward(int c) const { return c % (2 * b_) < b_; }
  int conn_boundary(int c) const { return c % b_; }
  int conn_entry(int c) const { return conn_replica(c) * e_ + conn_boundary(c) % p_; }
  // Virtual stage of stage s's op.
  int virtual_stage(int s, const StageOp& op) const { return op.chunk * p_ + s; }
  // Index of slot g's op time in fwd_s / bwd_s.
  int time_index(int g, const StageOp& op) const { return v_ == 1 ? g : g * v_ + op.chunk; }

  // Interleaved 1F1B (v_ > 1): the engine sends one direction's messages from one rank to one peer over one in-order
  // connection, whatever their chunks (sg_endpoint.hpp). Connection (replica, dir, entry) queues them in the order
  // its sender stage posts them (its op order); without interleaving that is the virtual boundary in micro-batch
  // order, the connection itself.
  int conn_of(int id) const { return v_ > 1 ? msg_conn_[id] : id / m_; }

  void order_chunk_connections() {
    queue_.assign(2 * static_cast<size_t>(e_) * r_, {});
    msg_conn_.assign(2 * static_cast<size_t>(b_) * m_ * r_, -1);
    sc_.next_start.assign(queue_.size(), 0);
    const auto add = [&](int d, int dir, int boundary, int mb) {
      const int id = msg_index(d, dir, boundary, mb), c = (d * 2 + dir) * e_ + boundary % p_;
      queue_[c].push_back(id);
      msg_conn_[id] = c;
    };
    for (int d = 0; d < r_; ++d)
      for (int s = 0; s < p_; ++s)
        for (const StageOp& op : schedule_[s]) {
          const int vs = virtual_stage(s, op);
          if (!op.backward && vs < b_) add(d, 0, vs, op.mb);
          if (op.backward && vs > 0) add(d, 1, vs - 1, op.mb);
        }
  }

  // update_conn with interleaving: the connection's next queued message, once posted and a channel is free.
  void update_chunk_conn(int c) {
    const std::vector<int>& q = queue_[c];
    const int at = sc_.next_start[c];
    if (at >= static_cast<int>(q.size())) return;
    const int id = q[at];
    if (sc_.send_post[id] < 0 || sc_.recv_post[id] < 0) return;
    if (at >= channels_ && sc_.left[q[at - channels_]] < 0) return;
    start_message(c, now_);
  }

  void reset_buffers() {
    const size_t n = 2 * static_cast<size_t>(std::max(0, b_)) * m_ * r_;
    sc_.send_post.assign(n, -1.0);
    sc_.recv_post.assign(n, links_.blocking ? -1.0 : 0.0);  // eager: a permanent receiver takes every message
    sc_.left.assign(n, -1.0);
    sc_.arrive.assign(n, -1.0);
    sc_.next_start.assign(2 * static_cast<size_t>(std::max(0, b_)) * r_, 0);
    sc_.next.assign(slots_, 0);
    sc_.state.assign(slots_, kInOp);
    sc_.in_msg.assign(slots_, -1);
    sc_.out_msg.assign(slots_, -1);
    sc_.xin_msg.assign(slots_, -1);
    sc_.clock.assign(slots_, 0.0);
    leaves_ = 1;
    while (leaves_ < slots_) leaves_ *= 2;
    sc_.stage_t.assign(2 * static_cast<size_t>(leaves_), kUnknown);
    sc_.stage_at.assign(2 * static_cast<size_t>(leaves_), -1);
    for (int i = 0; i < leaves_; ++i) sc_.stage_at[leaves_ + i] = i;
    sc_.flights.clear();
    sc_.free_flights.clear();
    event_leaves_ = std::max(64, static_cast<int>(sc_.event_t.size()) / 2);  // a power of 2
    sc_.event_t.assign(2 * static_cast<size_t>(event_leaves_), kUnknown);
    sc_.event_seq.assign(2 * static_cast<size_t>(event_leaves_), 0);
    sc_.event_at.assign(2 * static_cast<size_t>(event_leaves_), -1);
    if (shared_ && static_cast<int>(sc_.flows_on_link.size()) < links_.link_ids)
      sc_.flows_on_link.assign(links_.link_ids, 0);
    if (shared_ && static_cast<int>(sc_.on_link.size()) < links_.link_ids) sc_.on_link.resize(links_.link_ids);
  }

  // Stage s begins its next op at sc_.clock[s]: in blocking mode it posts the receive of the op's input now (unless
  // an exchange already did).
  void enter_op(int g) {
    const int s = g % p_, d = g / p_;
    if (sc_.next[g] >= schedule_[s].size()) {
      sc_.state[g] = kDone;
      set_stage_time(g, kUnknown);
      return;
    }
    const StageOp& op = schedule_[s][sc_.next[g]];
    int in = -1;
    const int vs = virtual_stage(s, op);
    if (!op.backward && vs > 0) in = msg_index(d, 0, vs - 1, op.mb);
    if (op.backward && vs < b_) in = msg_index(d, 1, vs, op.mb);
    sc_.in_msg[g] = in;
    sc_.state[g] = kInOp;
    if (in >= 0 && sc_.recv_post[in] < 0) {
      sc_.recv_post[in] = sc_.clock[g];
      update_conn(conn_of(in));
    }
    update_stage(g);
  }

  // When stage s's pending event happens, if known.
  bool stage_event_time(int s, double& t) const {
    if (sc_.state[s] == kInOp) {
      const StageOp& op = schedule_[s % p_][sc_.next[s]];
      const int in = sc_.in_msg[s];
      if (in >= 0 && sc_.arrive[in] < 0) return false;
      const int at = time_index(s, op);
      t = std::max(sc_.clock[s], in >= 0 ? sc_.arrive[in] : 0.0) + (op.backward ? bwd_s_[at] : fwd_s_[at]);
      return true;
    }
    if (sc_.state[s] == kExchange) {
      const int out = sc_.out_msg[s], xin = sc_.xin_msg[s];
      if (out >= 0 && sc_.left[out] < 0) return false;
      if (xin >= 0 && sc_.arrive[xin] < 0) return false;
      t = std::max({sc_.clock[s], out >= 0 ? sc_.left[out] : 0.0, xin >= 0 ? sc_.arrive[xin] : 0.0});
      return true;
    }
    return false;
  }

  // Stage event times are cached (+inf = not known yet) and recomputed only where an event changed something: the
  // loop then scans a plain array.
  void update_stage(int s) {
    double t = 0.0;
    set_stage_time(s, stage_event_time(s, t) ? t : kUnknown);
  }

  // Stage event times live in a tournament tree (leaves_ leaves, node i's children 2i and 2i+1, the root at 1): each
  // node holds the earlier of its children's, the left (lower stage) on ties, so the root is the earliest event of the
  // lowest stage, as a scan in stage order would find it, in O(log p) per change instead of O(p) per event.
  void set_stage_time(int s, double t) {
    double* tt = sc_.stage_t.data();
    int* at = sc_.stage_at.data();
    int i = leaves_ + s;
    if (tt[i] == t) return;  // most updates after a message event change nothing
    tt[i] = t;
    double v = t;
    int a = s;
    for (; i > 1; i /= 2) {
      const int sib = i ^ 1;
      const double o = tt[sib];
      const int oa = at[sib];
      const bool take_other = (i & 1) ? o <= v : o < v;  // the left child wins ties
      v = take_other ? o : v;
      a = take_other ? oa : a;
      if (tt[i / 2] == v && at[i / 2] == a) break;  // as set_event: the nodes above are unchanged too
      tt[i / 2] = v;
      at[i / 2] = a;
    }
  }

  // The earliest known stage event, the lowest stage on ties (-1 = none known).
  int earliest_stage_event(double& best_t) const {
    const double t = sc_.stage_t[1];
    if (t == kUnknown) return -1;
    best_t = t;
    return sc_.stage_at[1];
  }

  // A message's times changed: its connection and both its stages may have an event now.
  void touched(int id) {
    const int c = id / m_, b = conn_boundary(c), first = conn_replica(c) * p_;
    update_conn(conn_of(id));
    update_stage(first + b % p_);
    update_stage(first + (b + 1) % p_);
  }

  // The next message of each connection may start once its sender and (blocking) receiver posted it and a channel
  // of the connection is free.
  // Starts the next message of connection c if its sender and (blocking) receiver posted it and a channel of the
  // connection is free. Those conditions become known at events, so the start is now.
  void update_conn(int c) {
    if (v_ > 1) {
      update_chunk_conn(c);
      return;
    }
    const int mb = sc_.next_start[c];
    if (mb >= m_) return;
    const int id = c * m_ + mb;
    if (sc_.send_post[id] < 0 || sc_.recv_post[id] < 0) return;
    if (mb >= channels_ && sc_.left[id - channels_] < 0) return;
    start_message(c, now_);
  }

  double latency_of(int id) const {
    const int c = id / m_, e = conn_entry(c);
    return conn_forward(c) ? links_.latency_fwd_s[e] : links_.latency_bwd_s[e];
  }

  void start_message(int c, double t) {
    advance_to(t);
    const int id = v_ > 1 ? queue_[c][sc_.next_start[c]++] : c * m_ + sc_.next_start[c]++;
    update_conn(c);
    const int b = conn_entry(id / m_);
    const bool fwd = conn_forward(id / m_);
    const double transfer = fwd ? links_.transfer_fwd_s[b] : links_.transfer_bwd_s[b];
    const double latency = fwd ? links_.latency_fwd_s[b] : links_.latency_bwd_s[b];
    if (transfer <= 0.0) {
      sc_.left[id] = links_.latency_at_receiver ? t : t + latency;
      sc_.arrive[id] = t + latency;
      touched(id);
      return;
    }
    // Built in place (a copy from the stack stalls on store forwarding in this hot path).
    int slot = 0;
    if (sc_.free_flights.empty()) {
      slot = static_cast<int>(sc_.flights.size());
      sc_.flights.emplace_back();
      if (slot >= event_leaves_) grow_event_tree();
    } else {
      slot = sc_.free_flights.back();
      sc_.free_flights.pop_back();
    }
    Flight& f = sc_.flights[slot];
    f.seq = next_seq_++;
    f.refreshed = -1;
    f.remaining_s = transfer;
    f.msg = id;
    const int* route = shared_ ? (fwd ? links_.route_links_fwd : links_.route_links_bwd) + 3 * b : nullptr;
    for (int k = 0; k < 3; ++k) f.links[k] = route ? route[k] : -1;
    const bool weights_given = shared_ && links_.route_weights_fwd && links_.route_weights_bwd;
    const int* weight = weights_given ? (fwd ? links_.route_weights_fwd : links_.route_weights_bwd) + 3 * b : nullptr;
    for (int k = 0; k < 3; ++k) f.weights[k] = weight ? std::max(1, weight[k]) : 1;
    const double* slack = weights_given && links_.route_slack_fwd && links_.route_slack_bwd
                              ? (fwd ? links_.route_slack_fwd : links_.route_slack_bwd) + 3 * b
                              : nullptr;
    for (int k = 0; k < 3; ++k) f.units[k] = slack ? f.weights[k] * slack[k] : f.weights[k];
    for (int k = 0; k < 3; ++k) f.counted[k] = f.weights[k] * multiplicity_;
    f.start_at = links_.latency_at_receiver ? t : t + latency;
    f.transferring = false;
    f.rate = 1.0;
    const double* room = fwd ? links_.headroom_fwd : links_.headroom_bwd;
    f.headroom = room ? room[b] : 1.0;
    f.since = t;
    f.event_t = t + transfer;
    if (links_.latency_at_receiver) {  // uses bandwidth at once
      begin_transfer(slot, t);
    } else {
      push_event(slot, f.start_at);
    }
  }

  // Flight `slot` starts using bandwidth at t: counted on its links, then its rate and theirs brought up to date.
  void begin_transfer(int slot, double t) {
    Flight& f = sc_.flights[slot];
    f.transferring = true;
    f.since = t;
    count(f, +1);
    for (int k = 0; k < 3; ++k)
      if (f.links[k] >= 0) {
        std::vector<PipelineScratch::LinkSlot>& on = sc_.on_link[f.links[k]];
        f.on_link_at[k] = static_cast<int>(on.size());
        on.push_back({slot, k});
      }
    const int links[3] = {f.links[0], f.links[1], f.links[2]};
    refresh_rates(links, t, slot);
  }

  // Flight `slot` ended: off its links and back to the pool (its heap entries become stale).
  void end_flight(int slot) {
    Flight& f = sc_.flights[slot];
    count(f, -1);
    for (int k = 0; k < 3; ++k)
      if (f.links[k] >= 0) {
        std::vector<PipelineScratch::LinkSlot>& on = sc_.on_link[f.links[k]];
        const PipelineScratch::LinkSlot moved = on.back();
        on[f.on_link_at[k]] = moved;
        sc_.flights[moved.flight].on_link_at[moved.k] = f.on_link_at[k];
        on.pop_back();
      }
    f.transferring = false;
    set_event(slot, kUnknown);
    sc_.free_flights.push_back(slot);
  }

  // Flight `slot`'s pending event is now at t (kUnknown = none), replacing any earlier one.
  void push_event(int slot, double t) { set_event(slot, t); }

  // Flight events live in a tournament tree over the pool's slots (node i's children 2i and 2i+1, the root at 1),
  // each node the earliest of its subtree by (t, seq): an update costs O(log flights) and leaves nothing stale.
  // A binary heap with lazy deletion had to pop every superseded entry; with many replicas' flights sharing a WAN
  // link (each start or end re-times all of them) those pops and the comparisons were most of an evaluation.
  // seq is unique per flight, so (t, seq) orders the events strictly, as the heap did: same order, same results.
  void set_event(int slot, double t) {
    double* tt = sc_.event_t.data();
    long long* ts = sc_.event_seq.data();
    int* at = sc_.event_at.data();
    int i = event_leaves_ + slot;
    const long long seq = sc_.flights[slot].seq;
    tt[i] = t;
    ts[i] = seq;
    at[i] = t == kUnknown ? -1 : slot;
    double v = t;
    long long q = seq;
    int a = at[i];
    for (; i > 1; i /= 2) {
      const int sib = i ^ 1;
      const double o = tt[sib];
      const long long oq = ts[sib];
      const bool take_other = o < v || (o == v && oq < q);
      v = take_other ? o : v;
      q = take_other ? oq : q;
      a = take_other ? at[sib] : a;
      const int up = i / 2;
      // A node is a function of its children only: once one comes out as it was, so does every node above it.
      // (A re-timed flight that is not the earliest of its subtree stops within a level or two.)
      if (tt[up] == v && ts[up] == q && at[up] == a) break;
      tt[up] = v;
      ts[up] = q;
      at[up] = a;
    }
  }

  // The pool outgrew the tree: twice the leaves, the pending events carried over.
  void grow_event_tree() {
    const int old_leaves = event_leaves_;
    const std::vector<double> old_t(sc_.event_t.begin() + old_leaves, sc_.event_t.end());
    const std::vector<long long> old_seq(sc_.event_seq.begin() + old_leaves, sc_.event_seq.end());
    event_leaves_ *= 2;
    sc_.event_t.assign(2 * static_cast<size_t>(event_leaves_), kUnknown);
    sc_.event_seq.assign(2 * static_cast<size_t>(event_leaves_), 0);
    sc_.event_at.assign(2 * static_cast<size_t>(event_leaves_), -1);
    for (int slot = 0; slot < old_leaves; ++slot)
      if (old_t[slot] != kUnknown) {
        sc_.event_seq[event_leaves_ + slot] = old_seq[slot];
        set_event(slot, old_t[slot]);
      }
  }

  // Messages being transmitted progress in "alone seconds": alone on its links a message needs transfer_*; with k
  // transmitting messages of this pipeline on its busiest link it progresses at 1/k (processor sharing, as
  // SimGrid's fair sharing). Rates change only at events, so progress is linear between events.
  // Weighted (route_weights_*): a message of w flows on a link now carrying n flows gets w/n of its alone rate
  // there (fair sharing among flows), times the link's slack (route_slack_*: a link c times faster per flow than
  // the route's bottleneck gives c w/n), the least over its links.
  // Window-bound (headroom > 1): the shared rate is scaled by the headroom and capped at the alone rate.
  double rate_of(const Flight& f) const {
    double rate = 1.0;
    if (weighted_) {
      for (int i = 0; i < 3; ++i)
        if (f.links[i] >= 0) rate = std::min(rate, f.units[i] / sc_.flows_on_link[f.links[i]]);
    } else {
      int k = 1;
      for (int i = 0; i < 3; ++i)
        if (f.links[i] >= 0) k = std::max(k, sc_.flows_on_link[f.links[i]]);
      rate = k < kInverses ? kInverse.of[k] : 1.0 / k;
    }
    return f.headroom > 1.0 ? std::min(1.0, rate * f.headroom) : rate;
  }

  void count(const Flight& f, int delta) {
    for (int i = 0; i < 3; ++i)
      if (f.links[i] >= 0) sc_.flows_on_link[f.links[i]] += delta * f.counted[i];
  }

  // Rates are cached per flight and refreshed when the flow count of one of its links changed (links: the links
  // whose counts changed, -1 = none; `self`: a flight that just started transferring, refreshed even without
  // links). A flight keeps its remaining transfer as of `since` and the time it ends at its rate, so only the
  // flights on those links are touched: the others' rates did not change.
  void refresh_rates(const int (&links)[3], double t, int self = -1) {
    ++refresh_pass_;
    if (self >= 0) refresh_flight(self, t);
    for (int j = 0; j < 3; ++j) {
      if (links[j] < 0) continue;
      for (const PipelineScratch::LinkSlot& on : sc_.on_link[links[j]]) refresh_flight(on.flight, t);
    }
  }

  void refresh_flight(int slot, double t) {
    Flight& f = sc_.flights[slot];
    if (f.refreshed == refresh_pass_) return;
    f.refreshed = refresh_pass_;
    const double rate = rate_of(f);
    if (rate == f.rate && f.since != t) return;
    f.remaining_s -= (t - f.since) * f.rate;
    f.since = t;
    f.rate = rate;
    // x / 1.0 == x exactly: the usual alone rate skips the division's latency.
    const double left = std::max(0.0, f.remaining_s);
    const double event_t = t + (rate == 1.0 ? left : left / rate);
    f.event_t = event_t;
    push_event(slot, event_t);
  }

  void advance_to(double t) { now_ = std::max(now_, t); }

  // The next flight event (-1 = none) and its time: a message starts using bandwidth (at once, or after its latency
  // when the links carry it), or its transfer ends. The earliest in the heap, the oldest flight on ties.
  int earliest_flight_event(double& flight_t) const {
    const int slot = sc_.event_at[1];
    if (slot >= 0) flight_t = std::max(now_, sc_.event_t[1]);
    return slot;
  }

  void apply_flight_event(int slot, double t) {
    advance_to(t);
    set_event(slot, kUnknown);  // taken; a new one is set below when it has one
    Flight& f = sc_.flights[slot];
    if (!f.transferring) {
      begin_transfer(slot, t);
      return;
    }
    const int links[3] = {f.links[0], f.links[1], f.links[2]};
    // Latency at the receiver: the last byte left now and arrives one latency later. Otherwise the latency came
    // first and the message has left only once it arrived.
    const int id = f.msg;
    sc_.left[id] = t;
    sc_.arrive[id] = links_.latency_at_receiver ? t + latency_of(id) : t;
    end_flight(slot);
    touched(id);
    refresh_rates(links, t);
  }

  // Processes stage s's event at t; returns true when the stage has finished its last op.
  bool stage_event(int s, double t) {
    advance_to(t);  // messages this event lets start, start now
    sc_.clock[s] = t;
    if (sc_.state[s] == kExchange) {
      ++sc_.next[s];
      enter_op(s);
      return sc_.state[s] == kDone;
    }
    // The op ends: send its output to the neighbour stage.
    const int st = s % p_, d = s / p_;
    const std::vector<StageOp>& ops = schedule_[st];
    const StageOp op = ops[sc_.next[s]];
    const StageOp* next_op = sc_.next[s] + 1 < ops.size() ? &ops[sc_.next[s] + 1] : nullptr;
    int out = -1, xin = -1;
    const int vs = virtual_stage(st, op);  // = st without interleaving, whose exchanges (blocking) use st
    if (!op.backward && vs < b_) {
      out = msg_index(d, 0, vs, op.mb);
      // Megatron's send_forward_recv_backward: the next backward's gradient comes in the same exchange.
      if (links_.blocking && next_op && next_op->backward) xin = msg_index(d, 1, st, next_op->mb);
    } else if (op.backward && vs > 0) {
      out = msg_index(d, 1, vs - 1, op.mb);
      // send_backward_recv_forward.
      if (links_.blocking && next_op && !next_op->backward) xin = msg_index(d, 0, st - 1, next_op->mb);
    }
    if (out >= 0) {
      sc_.send_post[out] = t;
      update_conn(conn_of(out));
    }
    if (xin >= 0 && sc_.recv_post[xin] < 0) {
      sc_.recv_post[xin] = t;
      update_conn(conn_of(xin));
    }
    if (out >= 0 && links_.blocking) {  // the rank waits until its message has left (and the exchange's arrived)
      sc_.state[s] = kExchange;
      sc_.out_msg[s] = out;
      sc_.xin_msg[s] = xin;
      update_stage(s);
      return false;
    }
    ++sc_.next[s];
    enter_op(s);
    return sc_.state[s] == kDone;
  }

  // The last messages only matter for the link state (all zero between calls); the ops are all done.
  void drain_link_counts() {
    for (const auto& f : sc_.flights)
      if (f.transferring) count(f, -1);
    for (std::vector<PipelineScratch::LinkSlot>& on : sc_.on_link) on.clear();
  }

  double makespan(double* last_end_s) const {
    double out = 0.0;
    for (int g = 0; g < slots_; ++g) {
      if (last_end_s) last_end_s[g] = sc_.clock[g];
      out = std::max(out, sc_.clock[g]);
    }
    return out;
  }

  const std::vector<std::vector<StageOp>>& schedule_;
  const double* fwd_s_;
  const double* bwd_s_;
  const PipelineLinks& links_;
  PipelineScratch& sc_;
  const int p_, v_, m_;
  const int b_, e_;  ///< virtual-stage boundaries, PipelineLinks entries (per replica and direction)
  std::vector<std::vector<int>> queue_;  ///< interleaved: per connection, its messages in send order
  std::vector<int> msg_conn_;            ///< interleaved: per message, its connection
  const int r_, slots_;  ///< replicas, stage slots (r_ x p_)
  const bool shared_;
  const int multiplicity_ = std::max(1, links_.flow_multiplicity);
  const bool weighted_ = shared_ && ((links_.route_weights_fwd && links_.route_weights_bwd) || multiplicity_ > 1);
  const int channels_;
  int leaves_ = 1;  ///< leaves of the stage-event tournament tree (a power of 2, >= p_)
  int event_leaves_ = 64;  ///< leaves of the flight-event tree (a power of 2, >= the flights' pool)
  double now_ = 0.0;
  long long next_seq_ = 0;  ///< creation order of flights
  int refresh_pass_ = 0;
};

}  // namespace

double pipeline_makespan_s(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
                           const PipelineLinks& links, double* last_end_s, PipelineScratch& sc) {
  if (schedule.empty()) return 0.0;
  return PipelineRun(schedule, fwd_s, bwd_s, links, sc).run(last_end_s);
}

}  // namespace hulk
