// TP ring hop times (approximation 1 of docs/model.md). The replicas of one stage all-reduce in lockstep, so their
// rings share links in full. Other stages all-reduce at the same time only part of the time: in the pipeline's
// steady state every stage alternates compute and TP all-reduces, so their rings weigh on a shared link with the
// share of their forward time spent all-reducing (their duty, from the hops of their own stage alone), times the
// share of the pipeline in which a stage is busy at all. Without
// the other stages' rings, TP groups spread over hosts looked free: on an in-family design cluster (seed 1401,
// tp 8 x pp 7 over 15 hosts) annealed placements ran 32-45% slower in SimGrid than estimated. Inside a host each
// GPU sends one ring flow and the intra-host link is the sum of its GPUs' ports, so rings that stay in their
// hosts are not slowed.
#include "sim/evaluate/tp_rings.hpp"

#include <algorithm>
#include <limits>

#include "sim/evaluate/ring_steps.hpp"

namespace hulk::eval {

void tp_hop_times(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank) {
  const Parallelism& par = core.scenario_.only_job().par;
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
  for (size_t i = 0; i < n; ++i) lat[i] = core.network_->route(w.src_[i], w.dst_[i]).latency_s;
  const double chunk = core.cost_.tp_allreduce_bytes / T;
  w.tp_all_room_.resize(core.rings_use_headroom() ? n : 0);
  const auto room_of = [&](int s) { return w.tp_all_room_.empty() ? nullptr : w.tp_all_room_.data() + s * per_stage; };
  for (int s = 0; s < P; ++s)
    concurrent_times(core, w, w.src_.data() + s * per_stage, w.dst_.data() + s * per_stage, per_stage, chunk,
                     hops.data() + s * per_stage, nullptr, room_of(s));
  if (P < 2) return;
  // Duty of each stage: its all-reduces' share of a forward pass, each ring at its slowest hop.
  std::vector<double>& duty = w.tp_duty_;
  duty.assign(P, 0.0);
  for (int s = 0; s < P; ++s) {
    const StageCost& st = core.cost_.stages[s];
    double slowest_hop = 0, slowest_gpu = std::numeric_limits<double>::infinity();
    for (int i = s * per_stage; i < (s + 1) * per_stage; ++i) {
      slowest_hop = std::max(slowest_hop, hops[i]);
      slowest_gpu = std::min(slowest_gpu, core.speed_[w.src_[i]]);
    }
    const double comm = 2.0 * st.layers * 2 * (T - 1) * slowest_hop, compute = st.fwd_flops_per_mb() / slowest_gpu;
    duty[s] = comm + compute > 0 ? comm / (comm + compute) : 0.0;
  }
  // ... and only while both stages are busy: o weighs on s's rings by the share of s's busy time o is busy too
  // (stage_co_busy.hpp); with model chunks, by the share of the pipeline a stage is busy at all, m / (m + p - 1).
  const int m = std::max(1, core.cost_.micro_batches);
  const double busy = static_cast<double>(m) / (m + P - 1);
  const std::vector<double>& co = core.stage_co_busy_;
  std::vector<int>& touched = w.touched_links_;
  auto load = [&](int s, double weight) {
    for (int i = s * per_stage; i < (s + 1) * per_stage; ++i) {
      const Route& r = core.network_->route(w.src_[i], w.dst_[i]);
      for (int k = 0; k < r.n_links; ++k) {
        if (w.extra_load_[r.links[k]] == 0.0) touched.push_back(r.links[k]);
        w.extra_load_[r.links[k]] += weight;
      }
    }
  };
  // Each stage again with the others' rings as load (its own counted by concurrent_times).
  for (int s = 0; s < P; ++s) {
    for (int o = 0; o < P; ++o)
      if (o != s && duty[o] > 0) load(o, duty[o] * (co.empty() ? busy : co[static_cast<size_t>(s) * P + o]));
    concurrent_times(core, w, w.src_.data() + s * per_stage, w.dst_.data() + s * per_stage, per_stage, chunk,
                     hops.data() + s * per_stage, nullptr, room_of(s));
    for (int l : touched) w.extra_load_[l] = 0.0;
    touched.clear();
  }
}

void stage_op_times(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank, int m,
                    EvalBreakdown& out) {
  // Stage op times per (stage, replica), as the rank actors run them (approximation 4): per layer, compute then a
  // TP all-reduce, twice; each rank computes at its own GPU's speed and leaves an all-reduce when its own sends
  // left and receives arrived, so consecutive all-reduces overlap across ranks (no barrier between them). TP rings
  // of all replicas of a stage are concurrent (approximation 1).
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  RingModel model{core.channels_, core.latency_at_receiver_};
  std::vector<double>& all_hops = w.tp_all_hops_;
  std::vector<double>& all_lat = w.tp_all_lat_;
  if (T > 1) tp_hop_times(core, w, host_of_rank);
  for (int s = 0; s < P; ++s) {
    const StageCost& st = core.cost_.stages[s];
    const int first = s * D * T;
    const double* stage_hops = T > 1 ? all_hops.data() + first : nullptr;
    const double* stage_lat = T > 1 ? all_lat.data() + first : nullptr;
    for (int d = 0; d < D; ++d) {
      // Each rank's work as its GPU runs it (compute_efficiency.hpp); the slowest rank's times.
      double comp_f = 0.0, comp_r = 0.0, logits_f = 0.0;
      for (int t = 0; t < T; ++t) {
        const int h = host_of_rank[first + d * T + t];
        const StageCost& on_h = core.stages_.stage(h, s);  // the logits too: the slowest rank's
        comp_f = std::max(comp_f, on_h.fwd_flops_per_mb() / core.speed_[h]);
        comp_r = std::max(comp_r, st.layers * on_h.recompute_layer_flops / core.speed_[h]);
        logits_f = std::max(logits_f, on_h.extra_fwd_flops / core.speed_[h]);
      }
      double fwd = comp_f, bwd = 2.0 * comp_f + comp_r;
      bool uniform = true;  // equal hops and GPUs: no skew between ranks, every all-reduce is the lock-step ring
      for (int t = 1, h0 = host_of_rank[first + d * T], h = 0; t < T && uniform; ++t) {
        h = host_of_rank[first + d * T + t];
        uniform = stage_hops[d * T + t] == stage_hops[d * T] && stage_lat[d * T + t] == stage_lat[d * T] &&
                  core.speed_[h] == core.speed_[h0] && core.stages_.same_kind(h, h0);
      }
      if (T > 1 && !w.tp_all_room_.empty()) model.headroom = w.tp_all_room_.data() + first + d * T;
      if (T > 1 && uniform) {
        const double ring = ring_steps_s(stage_hops + d * T, stage_lat + d * T, T, 2 * (T - 1), model, w.ring_scratch_);
        const double comm = 2.0 * st.layers * ring;
        fwd = comp_f + comm;
        bwd = 2.0 * comp_f + comp_r + comm + core.cost_.recompute_tp_allreduces * st.layers * ring;
      } else if (T > 1) {
        skewed_op_times(core, w, s, d, host_of_rank, stage_hops + d * T, stage_lat + d * T, fwd, bwd);
      }
      w.fwd_[s * D + d] = fwd;
      w.bwd_[s * D + d] = bwd;
      w.logits_f_[s * D + d] = logits_f;
      out.compute_s = std::max(out.compute_s, m * (3.0 * comp_f + comp_r));
      out.tp_comm_s = std::max(out.tp_comm_s, m * std::max(0.0, fwd + bwd - 3.0 * comp_f - comp_r));
    }
  }
}

void skewed_op_times(const EvaluatorCore& core, EvaluatorScratch& w, int s, int d, const std::vector<int>& host_of_rank,
                     const double* hop, const double* lat, double& fwd, double& bwd) {
  // The replica's TP ranks differ in speed or hops: each rank's clock through the layers, every all-reduce a ring
  // each rank leaves when its own chunks are done (approximation 4).
  const StageCost& st = core.cost_.stages[s];
  const int T = core.scenario_.only_job().par.tp, first = s * core.scenario_.only_job().par.dp * T;
  const RingModel model{core.channels_, core.latency_at_receiver_,
                        w.tp_all_room_.empty() ? nullptr : w.tp_all_room_.data() + first + d * T};
  std::vector<double>& clock = w.tp_clock_;
  clock.resize(2 * static_cast<size_t>(T));
  double* c = clock.data();
  double* next = clock.data() + T;
  // Work of one kind (a StageCost field, times `times`) on every rank, each as its GPU runs it.
  auto compute = [&](double StageCost::*work, double times) {
    for (int t = 0; t < T; ++t) {
      const int h = host_of_rank[first + d * T + t];
      c[t] += times * (core.stages_.stage(h, s).*work) / core.speed_[h];
    }
  };
  auto allreduce = [&]() {
    ring_steps_from(hop, lat, T, 2 * (T - 1), model, c, next, w.ring_scratch_);
    std::copy(next, next + T, c);
  };
  auto latest = [&]() { return *std::max_element(c, c + T); };
  // Runs `layers` identical layers; past kExact layers the per-layer increment of the last ones is
  // extrapolated (the rank skew settles into a periodic regime after a few layers).
  constexpr int kExact = 3, kLast = 1;
  auto layers = [&](int n_layers, const auto& one_layer) {
    double before = 0.0;
    for (int l = 0; l < std::min(n_layers, kExact); ++l) {
      if (l == kExact - kLast) before = latest();
      one_layer();
    }
    const double end = latest();
    return n_layers > kExact ? end + (n_layers - kExact) * (end - before) / kLast : end;
  };
  // Forward (rank_actor.cpp): per layer compute(f/2), all-reduce, compute(f/2), all-reduce; then the logits.
  std::fill(c, c + T, 0.0);
  double t_layers = layers(st.layers, [&]() {
    compute(&StageCost::layer_fwd_flops, 0.5);
    allreduce();
    compute(&StageCost::layer_fwd_flops, 0.5);
    allreduce();
  });
  double logits = 0.0;
  for (int t = 0; t < T; ++t) {
    const int h = host_of_rank[first + d * T + t];
    logits = std::max(logits, core.stages_.stage(h, s).extra_fwd_flops / core.speed_[h]);
  }
  fwd = t_layers + logits;
  // Backward: the logits' gradient, then per layer (recomputation first) compute(f), all-reduce, twice.
  std::fill(c, c + T, 0.0);
  compute(&StageCost::extra_fwd_flops, 2.0);
  const bool full_recompute = core.cost_.recompute_tp_allreduces == 2;
  t_layers = layers(st.layers, [&]() {
    if (st.recompute_layer_flops > 0) {
      if (full_recompute) {
        compute(&StageCost::recompute_layer_flops, 0.5);
        allreduce();
        compute(&StageCost::recompute_layer_flops, 0.5);
        allreduce();
      } else {
        compute(&StageCost::recompute_layer_flops, 1.0);
      }
    }
    compute(&StageCost::layer_fwd_flops, 1.0);
    allreduce();
    compute(&StageCost::layer_fwd_flops, 1.0);
    allreduce();
  });
  bwd = t_layers;
}

}  // namespace hulk::eval
