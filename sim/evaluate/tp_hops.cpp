// TP ring hop times (approximation 1 of evaluator.hpp). The replicas of one stage all-reduce in lockstep, so their
// rings share links in full. Other stages all-reduce at the same time only part of the time: in the pipeline's
// steady state every stage alternates compute and TP all-reduces, so their rings weigh on a shared link with the
// share of their forward time spent all-reducing (their duty, from the hops of their own stage alone), times the
// share of the pipeline in which a stage is busy at all. Without
// the other stages' rings, TP groups spread over hosts looked free: on an in-family design cluster (seed 1401,
// tp 8 x pp 7 over 15 hosts) annealed placements ran 32-45% slower in SimGrid than estimated. Inside a host each
// GPU sends one ring flow and the intra-host link is the sum of its GPUs' ports, so rings that stay in their
// hosts are not slowed.
#include <algorithm>
#include <limits>

#include "sim/evaluate/evaluator.hpp"

namespace hulk {

void Evaluator::tp_hop_times(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const {
  const Parallelism& par = scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp, per_stage = D * T;
  const size_t n = static_cast<size_t>(P) * per_stage;
  w.src_.resize(n);
  w.dst_.resize(n);
  for (int s = 0; s < P; ++s)
    for (int d = 0; d < D; ++d)
      for (int t = 0; t < T; ++t) {
        const int first = s * per_stage + d * T;
        w.src_[first + t] = host_of_rank[first + t];
        w.dst_[first + t] = host_of_rank[first + (t + 1) % T];
      }
  std::vector<double>& hops = w.tp_all_hops_;
  std::vector<double>& lat = w.tp_all_lat_;
  hops.resize(n);
  lat.resize(n);
  for (size_t i = 0; i < n; ++i) lat[i] = network_->route(w.src_[i], w.dst_[i]).latency_s;
  const double chunk = cost_.tp_allreduce_bytes / T;
  w.tp_all_room_.resize(rings_use_headroom() ? n : 0);
  const auto room_of = [&](int s) { return w.tp_all_room_.empty() ? nullptr : w.tp_all_room_.data() + s * per_stage; };
  for (int s = 0; s < P; ++s)
    concurrent_times(w, w.src_.data() + s * per_stage, w.dst_.data() + s * per_stage, per_stage, chunk,
                     hops.data() + s * per_stage, nullptr, room_of(s));
  if (P < 2) return;
  // Duty of each stage: its all-reduces' share of a forward pass, each ring at its slowest hop.
  std::vector<double>& duty = w.tp_duty_;
  duty.assign(P, 0.0);
  for (int s = 0; s < P; ++s) {
    const StageCost& st = cost_.stages[s];
    double slowest_hop = 0, slowest_gpu = std::numeric_limits<double>::infinity();
    for (int i = s * per_stage; i < (s + 1) * per_stage; ++i) {
      slowest_hop = std::max(slowest_hop, hops[i]);
      slowest_gpu = std::min(slowest_gpu, speed_[w.src_[i]]);
    }
    const double comm = 2.0 * st.layers * 2 * (T - 1) * slowest_hop, compute = st.fwd_flops_per_mb() / slowest_gpu;
    duty[s] = comm + compute > 0 ? comm / (comm + compute) : 0.0;
  }
  // ... and only while both stages are busy: with m micro-batches over p stages a stage is busy m / (m + p - 1) of
  // the pipeline (the rest is its bubble).
  const int m = std::max(1, cost_.micro_batches);
  const double busy = static_cast<double>(m) / (m + P - 1);
  for (double& d : duty) d *= busy;
  // Every stage's rings as load, then each stage again with the others' (its own counted by concurrent_times).
  std::vector<int>& touched = w.touched_links_;
  auto load = [&](int s, double weight) {
    for (int i = s * per_stage; i < (s + 1) * per_stage; ++i) {
      const Route& r = network_->route(w.src_[i], w.dst_[i]);
      for (int k = 0; k < r.n_links; ++k) {
        if (w.extra_load_[r.links[k]] == 0.0) touched.push_back(r.links[k]);
        w.extra_load_[r.links[k]] += weight;
      }
    }
  };
  for (int s = 0; s < P; ++s) load(s, duty[s]);
  for (int s = 0; s < P; ++s) {
    load(s, -duty[s]);
    concurrent_times(w, w.src_.data() + s * per_stage, w.dst_.data() + s * per_stage, per_stage, chunk,
                     hops.data() + s * per_stage, nullptr, room_of(s));
    load(s, duty[s]);
  }
  for (int l : touched) w.extra_load_[l] = 0.0;
  touched.clear();
}

}  // namespace hulk
