#include <algorithm>
#include <limits>

#include "sim/evaluate/evaluator.hpp"

namespace hulk {

// Why it is a lower bound of evaluate_hosts(): the pipeline event simulation (pipeline_critical_path.cpp) runs each
// stage's ops one after another in the schedule's order, each taking its op time; a message progresses at a rate
// <= 1 of its alone transfer time and arrives one route latency after (or before) its transfer; and the DP-loaded
// second pass (approximation 7) only adds flows, so every hand-off there takes at least its first-pass time. So,
// along one replica, with every hand-off at latency + alone transfer:
// - fill: stage s starts its first op (F 0 in GPipe and 1F1B) no earlier than activation 0 can reach it;
// - round trip: B(s, j) ends no earlier than F(s, j)'s end plus the hand-off to s+1, F(s+1, j), the round trip of
//   s+1 for j, the gradient's hand-off back and b_s (the last stage: b_s after its F(s, j));
// - the stage's ops in its order, each after the previous one, an F after the fill, a B after its round trip: in
//   1F1B this is the bubble of the warm-up window (F(j + w + 1) waits for B(j)), on slow links most of the time;
// - blocking p2p: after an op with an output the rank waits until the message has left (its transfer, and under a
//   latency-first model its latency);
// - drain: the stage's last op is B m-1, whose gradient every lower stage still has to receive and run backward.
// The DP all-reduces and the final barrier only add time after that.
double Evaluator::time_lower_bound_of_hosts(const std::vector<int>& host_of_rank) const {
  EvalBreakdown out;
  if (!hosts_fit(host_of_rank, out)) return out.iteration_time_s;  // +inf, as the evaluation
  const Parallelism& par = scenario_.job.par;
  const int P = par.pp, D = par.dp;
  const int m = std::max(1, cost_.micro_batches);
  stage_op_times(host_of_rank, m, out);
  if (P > 1) pp_handoffs(host_of_rank, out);
  // Fill and drain hold for schedules whose every stage starts with F 0 and ends with B m-1 (GPipe and 1F1B); any
  // other keeps only the ops in order and the round trips.
  const bool chained = schedule_chained_;
  const auto at = [D](int s, int d) { return static_cast<size_t>(s) * D + d; };
  // Blocking p2p (Megatron's): after an op with an output the rank waits until that message has left, at least its
  // transfer after the op (and its latency too where the latency comes first).
  const bool blocking = scenario_.job.pipeline_p2p_blocking();
  const auto send_wait = [&](size_t boundary, bool forward) {
    if (!blocking) return 0.0;
    const double latency = forward ? lat_f_[boundary] : lat_b_[boundary];
    return (forward ? xfer_f_[boundary] : xfer_b_[boundary]) + (latency_at_receiver_ ? 0.0 : latency);
  };
  std::vector<double>& round_trip = bound_round_trip_;
  std::vector<double>& f_end = bound_f_end_;
  round_trip.resize(P);
  f_end.resize(m);
  double bound = 0.0;
  for (int d = 0; d < D; ++d) {
    round_trip[P - 1] = bwd_[at(P - 1, d)];
    for (int s = P - 2; s >= 0; --s) {
      const size_t h = at(s, d);  // boundary s -> s+1
      round_trip[s] = lat_f_[h] + xfer_f_[h] + fwd_[at(s + 1, d)] + round_trip[s + 1] + lat_b_[h] + xfer_b_[h] + bwd_[h];
    }
    double first_arrival = 0.0;  // earliest arrival of activation 0 at stage s
    double drain = 0.0;          // least time from stage s's last op's end to stage 0's
    for (int s = 0; s < P; ++s) {
      const size_t i = at(s, d);
      if (s > 0 && chained) {
        const size_t h = at(s - 1, d);  // boundary s-1 -> s
        first_arrival += fwd_[h] + lat_f_[h] + xfer_f_[h];
        drain += lat_b_[h] + xfer_b_[h] + bwd_[h];
      }
      std::fill(f_end.begin(), f_end.end(), -std::numeric_limits<double>::infinity());
      double t = first_arrival, op_end = 0.0;
      for (const StageOp& op : schedule_[s]) {
        if (!op.backward) {
          op_end = t + fwd_[i];
          f_end[op.mb] = op_end;
          t = op_end + (s + 1 < P ? send_wait(at(s, d), true) : 0.0);
        } else {
          op_end = std::max(t + bwd_[i], f_end[op.mb] + round_trip[s]);
          t = op_end + (s > 0 ? send_wait(at(s - 1, d), false) : 0.0);
        }
      }
      bound = std::max({bound, t, op_end + drain});
    }
  }
  return bound;
}

double Evaluator::time_lower_bound(const Placement& placement) const {
  return time_lower_bound_of_hosts(host_indices(placement));
}

}  // namespace hulk
