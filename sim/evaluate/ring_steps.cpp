#include "sim/evaluate/ring_steps.hpp"

#include <algorithm>

namespace hulk {

// `steps` steps of one ring as sim/engine/collectives.cpp's ring_steps runs them; hop_s[i] = time of hop i -> i+1
// (latency + transfer), latency_s[i] its latency. Rank j at step q sends its chunk once it received step q-1's
// chunk from rank j-1 and a channel of its connection to j+1 is free (chunk q-channels has left, in-order
// connections), then completes its receive q; receives are posted kRingRecvWindow steps ahead (a rendezvous: chunk q
// starts once rank j+1 completed its receive q-kRingRecvWindow). A chunk leaves after its transfer and arrives one
// latency later (latency at the receiver, CM02 in the engine); otherwise it leaves when it arrives. Chunks of one
// connection in flight at once (several channels) share its bandwidth, one transfer after another. With equal
// hops this is the closed form steps x hop; a slow hop pipelines its chunks (latency + steps x transfer); a slow
// hop with a long latency is bounded by the receive window.
// The same with member j entering at start_s[j] (it posts its first receives then); end_s[j] receives when j is
// done (its last send left, its last receive arrived). Returns max_j end_s[j].
namespace {

/** Start of member j's send at step q given its posted send, the receiver's posted receive and its previous chunk's
 *  departure (`prev_left`, used from the second step with several channels). One expression for the general and the
 *  uniform path, so both compute the same bits. */
inline double send_start(double post, double recv_posted, double hop, double lat, double headroom, int ch, int q,
                         double prev_left, bool latency_at_receiver) {
  double start = std::max(post, recv_posted);
  const double x = hop - lat;
  // Several channels let chunks of one connection overlap, but they share its route's rate: a chunk's transfer
  // (after the latency unless the latency is at the receiver) ends no earlier than the previous chunk's end plus
  // its own transfer at the connection's rate (first in, first out: the same last end as fair sharing), x without
  // a window, x / min(channels, headroom) where the window caps each chunk below its share. Its start is shifted,
  // not recomputed, so one channel (where post >= L[q-1]) keeps the same bits.
  if (ch > 1 && q > 0) {
    const double transfer_begins = latency_at_receiver ? start : start + lat;
    const double parallel = std::min(static_cast<double>(ch), headroom);
    const double earliest_end = prev_left + x / std::max(1.0, parallel);
    if (transfer_begins + x < earliest_end) start += earliest_end - (transfer_begins + x);
  }
  return start;
}

/** Rows of the recurrence kept: the current step and the ones a later step reads (q - channels, q - window). */
int kept_rows(int ch) { return std::max(ch, kRingRecvWindow) + 1; }

/** Each member's end after the last step (its last receive completed, C, and its last send left, L) into end_s (if
 *  not null); returns the largest. */
double ring_ends(const double* C, const double* L, int n, double* end_s) {
  double end = 0.0;
  for (int j = 0; j < n; ++j) {
    const double e = std::max(C[j], L[j]);
    if (end_s) end_s[j] = e;
    end = std::max(end, e);
  }
  return end;
}

// The general recurrence, every member step by step; start_s == nullptr: every member enters at 0; end_s ==
// nullptr: ends not wanted. Rows of n per kept step: left (L), receive completed (C); arrival (A) and send posted
// (P) of the current step only.
double ring_steps_impl(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                       const double* start_s, double* end_s, std::vector<double>& scratch) {
  const size_t row = static_cast<size_t>(n);
  const int ch = std::max(1, model.channels);
  const int W = kept_rows(ch);
  scratch.resize(2 * row * W + 2 * row);
  double* L = scratch.data();
  double* C = L + row * W;
  double* A = C + row * W;
  double* P = A + row;
  auto at = [&](double* base, int q) { return base + row * static_cast<size_t>(q % W); };
  for (int q = 0; q < steps; ++q) {
    double* Lq = at(L, q);
    for (int j = 0; j < n; ++j) {
      double post = q == 0 ? (start_s ? start_s[j] : 0.0) : at(C, q - 1)[j];
      if (q >= ch) post = std::max(post, at(L, q - ch)[j]);
      P[j] = post;
      const int to = j + 1 == n ? 0 : j + 1;
      const double recv_posted = q < kRingRecvWindow ? (start_s ? start_s[to] : 0.0) : at(C, q - kRingRecvWindow)[to];
      const double prev_left = q > 0 ? at(L, q - 1)[j] : 0.0;
      const double room = model.headroom ? model.headroom[j] : 1.0;
      const double start = send_start(post, recv_posted, hop_s[j], latency_s[j], room, ch, q, prev_left,
                                      model.latency_at_receiver);
      A[j] = start + hop_s[j];
      Lq[j] = model.latency_at_receiver ? start + (hop_s[j] - latency_s[j]) : A[j];
    }
    double* Cq = at(C, q);
    for (int j = 0; j < n; ++j) Cq[j] = std::max(P[j], A[j == 0 ? n - 1 : j - 1]);
  }
  return ring_ends(at(C, steps - 1), at(L, steps - 1), n, end_s);
}

/** ring_steps_impl with one channel per connection, member j entering at start_s[j] (null: every member at 0): the
 *  same operations on the same values in the same order, so the same bits, but with one channel send_start is the max
 *  of the posted send and the posted receive (its shift needs a second channel), so each step is two branch-free passes
 *  over contiguous rows that the compiler vectorises. Evaluations of thousands of ranks spend most of their time here
 *  (the norm all-reduce over each replica's tp x pp ranks, the DP rings). */
double ring_steps_one_channel(const double* hop_s, const double* latency_s, int n, int steps, bool latency_at_receiver,
                              const double* start_s, double* end_s, std::vector<double>& scratch) {
  const size_t row = static_cast<size_t>(n);
  const int W = kept_rows(1);
  // Rows: W of L (left), W of C (receive completed), then A (arrival), P (send posted), X (hop - latency), E (entry).
  scratch.resize(2 * row * W + 4 * row);
  double* L = scratch.data();
  double* C = L + row * W;
  double* A = C + row * W;
  double* P = A + row;
  double* X = P + row;
  double* E = X + row;
  for (size_t j = 0; j < row; ++j) X[j] = hop_s[j] - latency_s[j];
  if (!start_s) std::fill(E, E + row, 0.0);
  if (!start_s) start_s = E;
  auto at = [&](double* base, int q) { return base + row * static_cast<size_t>(q % W); };
  for (int q = 0; q < steps; ++q) {
    double* Lq = at(L, q);
    const double* Cp = q == 0 ? start_s : at(C, q - 1);
    const double* Lp = q == 0 ? nullptr : at(L, q - 1);
    const double* R = q < kRingRecvWindow ? start_s : at(C, q - kRingRecvWindow);  // receives posted, by member
    for (size_t j = 0; j < row; ++j) P[j] = Lp ? std::max(Cp[j], Lp[j]) : Cp[j];
    for (size_t j = 0; j + 1 < row; ++j) {
      const double start = std::max(P[j], R[j + 1]);
      A[j] = start + hop_s[j];
      Lq[j] = latency_at_receiver ? start + X[j] : A[j];
    }
    const size_t last = row - 1;
    const double start = std::max(P[last], R[0]);
    A[last] = start + hop_s[last];
    Lq[last] = latency_at_receiver ? start + X[last] : A[last];
    double* Cq = at(C, q);
    Cq[0] = std::max(P[0], A[last]);
    for (size_t j = 1; j < row; ++j) Cq[j] = std::max(P[j], A[j - 1]);
  }
  return ring_ends(at(C, steps - 1), at(L, steps - 1), n, end_s);
}

/** Whether every member of the ring is alike: equal hops, latencies, headroom and entry times. */
bool ring_is_uniform(const double* hop_s, const double* latency_s, int n, const RingModel& model,
                     const double* start_s) {
  for (int j = 1; j < n; ++j) {
    if (hop_s[j] != hop_s[0] || latency_s[j] != latency_s[0]) return false;
    if (model.headroom && model.headroom[j] != model.headroom[0]) return false;
    if (start_s && start_s[j] != start_s[0]) return false;
  }
  return true;
}

}  // namespace

double ring_steps_uniform(double hop, double lat, int steps, const RingModel& model, double start,
                          std::vector<double>& scratch) {
  // Every member runs the same operations on the same values as its neighbours, so the general recurrence's rows
  // are constant: one member, whose neighbours are itself, gives the same bits in O(steps).
  const int ch = std::max(1, model.channels);
  const int W = kept_rows(ch);
  scratch.resize(2 * static_cast<size_t>(W));
  double* L = scratch.data();
  double* C = L + W;
  const double room = model.headroom ? model.headroom[0] : 1.0;
  for (int q = 0; q < steps; ++q) {
    double post = q == 0 ? start : C[(q - 1) % W];
    if (q >= ch) post = std::max(post, L[(q - ch) % W]);
    const double recv_posted = q < kRingRecvWindow ? start : C[(q - kRingRecvWindow) % W];
    const double prev_left = q > 0 ? L[(q - 1) % W] : 0.0;
    const double s = send_start(post, recv_posted, hop, lat, room, ch, q, prev_left, model.latency_at_receiver);
    const double arrive = s + hop;
    L[q % W] = model.latency_at_receiver ? s + (hop - lat) : arrive;
    C[q % W] = std::max(post, arrive);
  }
  return std::max(C[(steps - 1) % W], L[(steps - 1) % W]);
}

double ring_steps_general(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                          const double* start_s, double* end_s, std::vector<double>& scratch) {
  return ring_steps_impl(hop_s, latency_s, n, steps, model, start_s, end_s, scratch);
}

double ring_steps_from(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                       const double* start_s, double* end_s, std::vector<double>& scratch) {
  if (n >= 1 && steps > 0 && ring_is_uniform(hop_s, latency_s, n, model, start_s)) {
    const double e = ring_steps_uniform(hop_s[0], latency_s[0], steps, model, start_s ? start_s[0] : 0.0, scratch);
    if (end_s) std::fill(end_s, end_s + n, e);
    return e;
  }
  if (n >= 1 && steps > 0 && model.channels <= 1)
    return ring_steps_one_channel(hop_s, latency_s, n, steps, model.latency_at_receiver, start_s, end_s, scratch);
  return ring_steps_impl(hop_s, latency_s, n, steps, model, start_s, end_s, scratch);
}

double ring_steps_s(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                    std::vector<double>& scratch) {
  if (n < 2 || steps <= 0) return 0.0;
  return ring_steps_from(hop_s, latency_s, n, steps, model, nullptr, nullptr, scratch);
}

}  // namespace hulk
