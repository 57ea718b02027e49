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

// ring_steps_from's body; start_s == nullptr: every member enters at 0; end_s == nullptr: ends not wanted.
double ring_steps_impl(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                       const double* start_s, double* end_s, std::vector<double>& scratch) {
  // Rows of n per step: left (L), arrival (A), receive completed (C); P = send posted (current step only).
  const size_t row = static_cast<size_t>(n);
  scratch.resize(3 * row * steps + row);
  double* L = scratch.data();
  double* A = L + row * steps;
  double* C = A + row * steps;
  double* P = C + row * steps;
  const int ch = std::max(1, model.channels);
  for (int q = 0; q < steps; ++q) {
    double* Lq = L + row * q;
    double* Aq = A + row * q;
    for (int j = 0; j < n; ++j) {
      double post = q == 0 ? (start_s ? start_s[j] : 0.0) : C[row * (q - 1) + j];
      if (q >= ch) post = std::max(post, L[row * (q - ch) + j]);
      P[j] = post;
      const int to = j + 1 == n ? 0 : j + 1;
      const double recv_posted =
          q < kRingRecvWindow ? (start_s ? start_s[to] : 0.0) : C[row * (q - kRingRecvWindow) + to];
      double start = std::max(post, recv_posted);
      const double x = hop_s[j] - latency_s[j];
      // Several channels let chunks of one connection overlap, but they share its route's rate: a chunk's transfer
      // (after the latency unless the latency is at the receiver) ends no earlier than the previous chunk's end
      // plus its own transfer at the connection's rate (first in, first out: the same last end as fair sharing),
      // x without a window, x / min(channels, headroom) where the window caps each chunk below its share. Its
      // start is shifted, not recomputed, so one channel (where post >= L[q-1]) keeps the same bits.
      if (ch > 1 && q > 0) {
        const double transfer_begins = model.latency_at_receiver ? start : start + latency_s[j];
        const double parallel = model.headroom ? std::min(static_cast<double>(ch), model.headroom[j]) : 1.0;
        const double earliest_end = L[row * (q - 1) + j] + x / std::max(1.0, parallel);
        if (transfer_begins + x < earliest_end) start += earliest_end - (transfer_begins + x);
      }
      Aq[j] = start + hop_s[j];
      Lq[j] = model.latency_at_receiver ? start + x : Aq[j];
    }
    double* Cq = C + row * q;
    for (int j = 0; j < n; ++j) Cq[j] = std::max(P[j], Aq[j == 0 ? n - 1 : j - 1]);
  }
  double end = 0.0;
  for (int j = 0; j < n; ++j) {
    const double e = std::max(C[row * (steps - 1) + j], L[row * (steps - 1) + j]);
    if (end_s) end_s[j] = e;
    end = std::max(end, e);
  }
  return end;
}

}  // namespace

double ring_steps_from(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                       const double* start_s, double* end_s, std::vector<double>& scratch) {
  return ring_steps_impl(hop_s, latency_s, n, steps, model, start_s, end_s, scratch);
}

double ring_steps_s(const double* hop_s, const double* latency_s, int n, int steps, const RingModel& model,
                    std::vector<double>& scratch) {
  if (n < 2 || steps <= 0) return 0.0;
  return ring_steps_impl(hop_s, latency_s, n, steps, model, nullptr, nullptr, scratch);
}

}  // namespace hulk
