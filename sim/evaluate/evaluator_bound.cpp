#include <algorithm>

#include "sim/evaluate/evaluator.hpp"

namespace hulk {

// Why it is a lower bound of evaluate_hosts(): the pipeline event simulation (pipeline_critical_path.cpp) runs each
// stage's ops one after another, each taking its op time; a message progresses at a rate <= 1 of its alone transfer
// time and arrives one route latency after (or before) its transfer; and the DP-loaded second pass (approximation 7)
// only adds flows, so every hand-off there takes at least its first-pass time. Along one replica, stage s starts its
// first op (F 0, in every schedule) no earlier than activation 0 can reach it, runs its 2m ops for at least
// m (f_s + b_s), and its last op is B m-1, whose gradient every lower stage still has to receive and run backward.
// The DP all-reduces and the final barrier only add time after that.
double Evaluator::time_lower_bound_of_hosts(const std::vector<int>& host_of_rank) const {
  EvalBreakdown out;
  if (!hosts_fit(host_of_rank, out)) return out.iteration_time_s;  // +inf, as the evaluation
  const Parallelism& par = scenario_.job.par;
  const int P = par.pp, D = par.dp;
  const int m = std::max(1, cost_.micro_batches);
  stage_op_times(host_of_rank, m, out);
  if (P > 1) pp_handoffs(host_of_rank, out);
  // Fill and drain as below hold for schedules whose every stage starts with F 0 and ends with B m-1 (GPipe and
  // 1F1B); any other would keep only the busy time.
  bool chained = true;
  for (const std::vector<StageOp>& ops : schedule_)
    chained = chained && !ops.empty() && !ops.front().backward && ops.front().mb == 0 && ops.back().backward &&
              ops.back().mb == m - 1;
  double bound = 0.0;
  for (int d = 0; d < D; ++d) {
    double first_arrival = 0.0;  // earliest arrival of activation 0 at stage s
    double drain = 0.0;          // least time from stage s's last op's end to stage 0's
    for (int s = 0; s < P; ++s) {
      const size_t i = static_cast<size_t>(s) * D + d;
      if (s > 0 && chained) {
        const size_t h = static_cast<size_t>(s - 1) * D + d;  // boundary s-1 -> s
        first_arrival += fwd_[h] + lat_f_[h] + xfer_f_[h];
        drain += lat_b_[h] + xfer_b_[h] + bwd_[h];
      }
      bound = std::max(bound, first_arrival + m * (fwd_[i] + bwd_[i]) + drain);
    }
  }
  return bound;
}

double Evaluator::time_lower_bound(const Placement& placement) const {
  std::vector<int> hosts(placement.gpu_of_rank.size());
  for (size_t r = 0; r < hosts.size(); ++r) hosts[r] = placement.gpu_of_rank[r].host;
  return time_lower_bound_of_hosts(hosts);
}

}  // namespace hulk
