#include "sim/evaluate/evaluator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/interleaved.hpp"
#include "sim/evaluate/ring_steps.hpp"

namespace hulk {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

std::shared_ptr<const RouteModel> analytic_route_model(const Scenario& scenario) {
  return std::make_shared<const RouteModel>(scenario.platform, network_model_factors(scenario.network.model));
}

Evaluator::Evaluator(const Scenario& scenario, std::shared_ptr<const RouteModel> network)
    : scenario_(scenario),
      cost_(compute_job_cost(scenario.only_job())),
      plan_(scenario.only_job().par),
      network_(network ? std::move(network) : analytic_route_model(scenario)),
      channels_(std::max(1, scenario.network.channels_per_peer)),
      latency_at_receiver_(scenario.network.model == "CM02"),
      // The window caps a flow at window / (2 x its links' own latency): SimGrid divides by the latency before the
      // model's latency factor, which this evaluator's routes include (so the window scales by that factor).
      tcp_window_bytes_(scenario.network.tcp_window_bytes * network_->factors().latency) {
  if (network_->hosts() != static_cast<int>(scenario.platform.hosts.size()))
    throw std::invalid_argument("Evaluator: the route model given is of another platform (" +
                                std::to_string(network_->hosts()) + " hosts, the scenario has " +
                                std::to_string(scenario.platform.hosts.size()) + ")");
  const NetworkFactors expected = network_model_factors(scenario.network.model);
  if (network_->factors().latency != expected.latency || network_->factors().bandwidth != expected.bandwidth)
    throw std::invalid_argument("Evaluator: the route model given has other network-model factors than " +
                                scenario.network.model + "'s");
  const auto& hosts = scenario_.platform.hosts;
  stages_ = StagesByHost(scenario_.only_job(), cost_, scenario_.platform);
  speed_.resize(hosts.size());
  memory_.resize(hosts.size());
  for (size_t h = 0; h < hosts.size(); ++h) {
    speed_[h] = hosts[h].gpu.peak_flops(scenario_.only_job().precision) * scenario_.only_job().utilisation;
    memory_[h] = hosts[h].gpu.memory_bytes;
  }
  const Parallelism& par = scenario_.only_job().par;
  const int v = scenario_.only_job().virtual_stages;
  schedule_ = stage_op_orders(scenario_.only_job().schedule, par.pp, std::max(1, cost_.micro_batches), v);
  pipe_memo_ = &PipelineMemo::process();
  schedule_id_ = pipe_memo_->schedule_id(scenario_.only_job().schedule + (v > 1 ? "/v" + std::to_string(v) : ""),
                                         par.pp, std::max(1, cost_.micro_batches));
  // The fill and drain of the lower bound assume each op runs the stage's whole layers: not so with model chunks.
  schedule_chained_ = v == 1;
  for (const std::vector<StageOp>& ops : schedule_)
    schedule_chained_ = schedule_chained_ && !ops.empty() && !ops.front().backward && ops.front().mb == 0 &&
                        ops.back().backward && ops.back().mb == std::max(1, cost_.micro_batches) - 1;
  prepare(scratch_);
}

void Evaluator::prepare(EvaluatorScratch& w) const {
  // A scratch sized for this shape holds nothing a new estimate reads (evaluator_scratch.hpp): kept as is.
  const Parallelism& par = scenario_.only_job().par;
  const size_t sd = static_cast<size_t>(par.pp) * par.dp;
  const long long shape[3] = {network_->links(), static_cast<long long>(sd), tcp_window_bytes_ > 0 ? 1 : 0};
  if (std::equal(shape, shape + 3, w.shape)) return;
  w = EvaluatorScratch{};
  std::copy(shape, shape + 3, w.shape);
  w.link_count_.assign(network_->links(), 0);
  w.extra_load_.assign(network_->links(), 0.0);
  w.fwd_.assign(sd, 0.0);
  w.bwd_.assign(sd, 0.0);
  w.logits_f_.assign(sd, 0.0);
  w.lat_f_.assign(sd, 0.0);
  w.xfer_f_.assign(sd, 0.0);
  w.lat_b_.assign(sd, 0.0);
  w.xfer_b_.assign(sd, 0.0);
  w.room_f_.assign(tcp_window_bytes_ > 0 ? sd : 0, 1.0);  // headroom under the window: none without one
  w.room_b_ = w.room_f_;
  w.links_f_.assign(3 * sd, -1);
  w.links_b_.assign(3 * sd, -1);
  w.weights_f_.assign(3 * sd, 1);
  w.weights_b_.assign(3 * sd, 1);
  w.slack_f_.assign(3 * sd, 1.0);
  w.slack_b_.assign(3 * sd, 1.0);
  w.dp_s_.assign(par.pp, 0.0);
  w.stage_done_.assign(par.pp, 0.0);
  w.replica_done_.assign(sd, 0.0);
  const size_t max_flows = static_cast<size_t>(par.ranks()) + 1;
  w.src_.reserve(max_flows);
  w.dst_.reserve(max_flows);
  w.times_.reserve(max_flows);
}

bool Evaluator::stage_fits(int stage, int host) const {
  if (!scenario_.only_job().check_memory) return true;
  return cost_.stages[stage].peak_memory_bytes <= memory_[host];
}

bool Evaluator::fits(int rank, int host) const { return stage_fits(plan_.coord_of(rank).pp, host); }

double Evaluator::iteration_time_s(const Placement& placement) const { return evaluate(placement).iteration_time_s; }

std::vector<int> Evaluator::host_indices(const Placement& placement) {
  std::vector<int> hosts(placement.gpu_of_rank.size());
  for (size_t r = 0; r < hosts.size(); ++r) hosts[r] = placement.gpu_of_rank[r].host;
  return hosts;
}

EvalBreakdown Evaluator::evaluate(const Placement& placement) const { return evaluate_hosts(host_indices(placement)); }

bool Evaluator::hosts_fit(const std::vector<int>& host_of_rank, EvalBreakdown& out) const {
  const int H = network_->hosts();
  if (static_cast<int>(host_of_rank.size()) != plan_.ranks()) return false;
  for (int r = 0; r < plan_.ranks(); ++r) {
    const int h = host_of_rank[r];
    if (h < 0 || h >= H) return false;
    if (!fits(r, h)) {
      out.infeasible_rank = r;
      return false;
    }
  }
  return true;
}

void Evaluator::stage_op_times(EvaluatorScratch& w, const std::vector<int>& host_of_rank, int m, EvalBreakdown& out) const {
  // Stage op times per (stage, replica), as the rank actors run them (approximation 4): per layer, compute then a
  // TP all-reduce, twice; each rank computes at its own GPU's speed and leaves an all-reduce when its own sends
  // left and receives arrived, so consecutive all-reduces overlap across ranks (no barrier between them). TP rings
  // of all replicas of a stage are concurrent (approximation 1).
  const Parallelism& par = scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  RingModel model{channels_, latency_at_receiver_};
  std::vector<double>& all_hops = w.tp_all_hops_;
  std::vector<double>& all_lat = w.tp_all_lat_;
  if (T > 1) tp_hop_times(w, host_of_rank);
  for (int s = 0; s < P; ++s) {
    const StageCost& st = cost_.stages[s];
    const int first = s * D * T;
    const double* stage_hops = T > 1 ? all_hops.data() + first : nullptr;
    const double* stage_lat = T > 1 ? all_lat.data() + first : nullptr;
    for (int d = 0; d < D; ++d) {
      // Each rank's work as its GPU runs it (compute_efficiency.hpp); the slowest rank's times.
      double comp_f = 0.0, comp_r = 0.0, logits_f = 0.0;
      for (int t = 0; t < T; ++t) {
        const int h = host_of_rank[first + d * T + t];
        const StageCost& on_h = stages_.stage(h, s);  // the logits too: the slowest rank's
        comp_f = std::max(comp_f, on_h.fwd_flops_per_mb() / speed_[h]);
        comp_r = std::max(comp_r, st.layers * on_h.recompute_layer_flops / speed_[h]);
        logits_f = std::max(logits_f, on_h.extra_fwd_flops / speed_[h]);
      }
      double fwd = comp_f, bwd = 2.0 * comp_f + comp_r;
      bool uniform = true;  // equal hops and GPUs: no skew between ranks, every all-reduce is the lock-step ring
      for (int t = 1, h0 = host_of_rank[first + d * T], h = 0; t < T && uniform; ++t) {
        h = host_of_rank[first + d * T + t];
        uniform = stage_hops[d * T + t] == stage_hops[d * T] && stage_lat[d * T + t] == stage_lat[d * T] &&
                  speed_[h] == speed_[h0] && stages_.same_kind(h, h0);
      }
      if (T > 1 && !w.tp_all_room_.empty()) model.headroom = w.tp_all_room_.data() + first + d * T;
      if (T > 1 && uniform) {
        const double ring = ring_steps_s(stage_hops + d * T, stage_lat + d * T, T, 2 * (T - 1), model,
                                         w.ring_scratch_);
        const double comm = 2.0 * st.layers * ring;
        fwd = comp_f + comm;
        bwd = 2.0 * comp_f + comp_r + comm + cost_.recompute_tp_allreduces * st.layers * ring;
      } else if (T > 1) {
        skewed_op_times(w, s, d, host_of_rank, stage_hops + d * T, stage_lat + d * T, fwd, bwd);
      }
      w.fwd_[s * D + d] = fwd;
      w.bwd_[s * D + d] = bwd;
      w.logits_f_[s * D + d] = logits_f;
      out.compute_s = std::max(out.compute_s, m * (3.0 * comp_f + comp_r));
      out.tp_comm_s = std::max(out.tp_comm_s, m * std::max(0.0, fwd + bwd - 3.0 * comp_f - comp_r));
    }
  }
}

void Evaluator::skewed_op_times(EvaluatorScratch& w, int s, int d, const std::vector<int>& host_of_rank, const double* hop,
                                const double* lat, double& fwd, double& bwd) const {
  // The replica's TP ranks differ in speed or hops: each rank's clock through the layers, every all-reduce a ring
  // each rank leaves when its own chunks are done (approximation 4).
  const StageCost& st = cost_.stages[s];
  const int T = scenario_.only_job().par.tp, first = s * scenario_.only_job().par.dp * T;
  const RingModel model{channels_, latency_at_receiver_,
                        w.tp_all_room_.empty() ? nullptr : w.tp_all_room_.data() + first + d * T};
  std::vector<double>& clock = w.tp_clock_;
  clock.resize(2 * static_cast<size_t>(T));
  double* c = clock.data();
  double* next = clock.data() + T;
  // Work of one kind (a StageCost field, times `times`) on every rank, each as its GPU runs it.
  auto compute = [&](double StageCost::*work, double times) {
    for (int t = 0; t < T; ++t) {
      const int h = host_of_rank[first + d * T + t];
      c[t] += times * (stages_.stage(h, s).*work) / speed_[h];
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
    logits = std::max(logits, stages_.stage(h, s).extra_fwd_flops / speed_[h]);
  }
  fwd = t_layers + logits;
  // Backward: the logits' gradient, then per layer (recomputation first) compute(f), all-reduce, twice.
  std::fill(c, c + T, 0.0);
  compute(&StageCost::extra_fwd_flops, 2.0);
  const bool full_recompute = cost_.recompute_tp_allreduces == 2;
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

void Evaluator::handoff_times_by_group(EvaluatorScratch& w) const {
  // w.src_/w.dst_ hold one boundary's transfers of one direction, replica after replica (tp of each together).
  const int T = scenario_.only_job().par.tp;
  const bool windowed = tcp_window_bytes_ > 0;  // w.room_: each transfer's headroom under the window
  for (size_t g = 0; g + 1 < w.group_first_.size(); ++g) {
    const int first = w.group_first_[g], size = w.group_first_[g + 1] - first;
    if (size <= kJointReplicas) {  // each replica's tp transfers at once
      for (int i = first; i < first + size; ++i) {
        const int d = w.group_members_[i];
        concurrent_times(w, w.src_.data() + d * T, w.dst_.data() + d * T, T, cost_.pp_message_bytes, w.times_.data() + d * T,
                         nullptr, windowed ? w.room_.data() + d * T : nullptr);
      }
      continue;
    }
    w.group_src_.clear();  // every transfer of the group at once
    w.group_dst_.clear();
    for (int i = first; i < first + size; ++i)
      for (int t = 0; t < T; ++t) {
        w.group_src_.push_back(w.src_[w.group_members_[i] * T + t]);
        w.group_dst_.push_back(w.dst_[w.group_members_[i] * T + t]);
      }
    w.group_times_.resize(w.group_src_.size());
    w.group_room_.resize(windowed ? w.group_src_.size() : 0);
    concurrent_times(w, w.group_src_.data(), w.group_dst_.data(), size * T, cost_.pp_message_bytes, w.group_times_.data(),
                     nullptr, windowed ? w.group_room_.data() : nullptr);
    for (int i = 0; i < size; ++i) {
      const int at = w.group_members_[first + i] * T;
      std::copy(w.group_times_.begin() + i * T, w.group_times_.begin() + (i + 1) * T, w.times_.begin() + at);
      if (windowed) std::copy(w.group_room_.begin() + i * T, w.group_room_.begin() + (i + 1) * T, w.room_.begin() + at);
    }
  }
}

void Evaluator::handoff_weights(EvaluatorScratch& w, int d, const Route& route, bool joint, int* weights) const {
  // Joint: the replica's flows on each link of its slowest transfer's route (its share when others join). A larger
  // group's replicas are computed one by one, every message one flow, their sharing already in the transfer time.
  const int T = scenario_.only_job().par.tp;
  for (int k = 0; k < 3; ++k) weights[k] = k < route.n_links && !joint ? 1 : 0;
  if (!joint) return;
  for (int t = 0; t < T; ++t) {
    const Route& other = network_->route(w.src_[d * T + t], w.dst_[d * T + t]);
    for (int k = 0; k < route.n_links; ++k)
      for (int j = 0; j < other.n_links; ++j) weights[k] += other.links[j] == route.links[k];
  }
}

void Evaluator::handoff_slack(const Route& route, const int* weights, double* slack) const {
  // Without it a link faster than the bottleneck slowed the hand-off as if it were the bottleneck: six replicas'
  // activations over a 10 Gbit/s WAN pair into hosts of 1 Gbit/s NICs (two each) were priced at 1/6 of their alone
  // rate instead of 1/2, the pipeline 2.4x too long (a probe's cluster, tests/data/unchecked/window-channels.yaml).
  // With the per-flow cap (a GPU's FATPIPE port): else 8 PCIe stages on one host shared its aggregate link as their
  // bottleneck, 8.02 ms estimated against 4.5 ms in SimGrid (EvaluatorAccuracy.PipelinesInsideAPcie*).
  double tightest = route.flow_cap_Bps > 0 ? route.flow_cap_Bps : kInf;
  for (int k = 0; k < route.n_links; ++k)
    tightest = std::min(tightest, link_capacity_Bps(route.links[k]) / std::max(1, weights[k]));
  for (int k = 0; k < 3; ++k)
    slack[k] = k < route.n_links ? link_capacity_Bps(route.links[k]) / std::max(1, weights[k]) / tightest : 1.0;
}

void Evaluator::pp_handoffs(EvaluatorScratch& w, const std::vector<int>& host_of_rank, EvalBreakdown& out, bool with_dp_load) const {
  // PP hand-offs, each direction separately. A replica in a group computed together (replica_groups): its tp
  // transfers at once, the other replicas' messages counted when in flight at the same time (replica_pipelines).
  // In a larger group: all the group's transfers across the boundary at once, as if the replicas ran in lockstep.
  const Parallelism& par = scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  if (!with_dp_load) replica_groups(w, host_of_rank);
  for (int s = 0; s < handoff_boundaries(scenario_.only_job()); ++s) {
    if (with_dp_load) add_handoff_dp_load(w, s);
    const int n = D * T;
    w.src_.resize(n);
    w.dst_.resize(n);
    w.times_.resize(n);
    w.room_.resize(tcp_window_bytes_ > 0 ? n : 0);
    for (int dir = 0; dir < 2; ++dir) {
      for (int i = 0; i < n; ++i) {
        const int a = host_of_rank[s * n + i], b = host_of_rank[boundary_receiver(s, P) * n + i];
        w.src_[i] = dir == 0 ? a : b;
        w.dst_[i] = dir == 0 ? b : a;
      }
      std::vector<double>& lat = dir == 0 ? w.lat_f_ : w.lat_b_;
      std::vector<double>& xfer = dir == 0 ? w.xfer_f_ : w.xfer_b_;
      handoff_times_by_group(w);
      for (int d = 0; d < D; ++d) {
        const bool joint = w.group_first_[w.group_of_[d] + 1] - w.group_first_[w.group_of_[d]] <= kJointReplicas;
        int worst = d * T;
        for (int t = 1; t < T; ++t)
          if (w.times_[d * T + t] > w.times_[worst]) worst = d * T + t;
        const Route& route = network_->route(w.src_[worst], w.dst_[worst]);
        const double l = route.latency_s;
        int* ids = (dir == 0 ? w.links_f_ : w.links_b_).data() + 3 * (s * D + d);
        int* weights = (dir == 0 ? w.weights_f_ : w.weights_b_).data() + 3 * (s * D + d);
        for (int k = 0; k < 3; ++k) ids[k] = k < route.n_links ? route.links[k] : -1;
        handoff_weights(w, d, route, joint, weights);
        handoff_slack(route, weights, (dir == 0 ? w.slack_f_ : w.slack_b_).data() + 3 * (s * D + d));
        lat[s * D + d] = l;
        xfer[s * D + d] = w.times_[worst] - l;
        if (!w.room_.empty()) (dir == 0 ? w.room_f_ : w.room_b_)[s * D + d] = w.room_[worst];
        out.pp_hop_s = std::max(out.pp_hop_s, w.times_[worst]);
      }
    }
    if (with_dp_load) clear_extra_load(w);
  }
}

bool Evaluator::replicas_identical(EvaluatorScratch& w, const int* replicas, int n) const {
  const Parallelism& par = scenario_.only_job().par;
  const int P = par.pp, D = par.dp;
  const int a = replicas[0];
  for (int i = 1; i < n; ++i) {
    const int b = replicas[i];
    for (int s = 0; s < P; ++s)
      if (w.fwd_[s * D + a] != w.fwd_[s * D + b] || w.bwd_[s * D + a] != w.bwd_[s * D + b]) return false;
    for (int s = 0; s < handoff_boundaries(scenario_.only_job()); ++s) {
      const size_t x = static_cast<size_t>(s) * D + a, y = static_cast<size_t>(s) * D + b;
      if (w.lat_f_[x] != w.lat_f_[y] || w.xfer_f_[x] != w.xfer_f_[y] || w.lat_b_[x] != w.lat_b_[y] || w.xfer_b_[x] != w.xfer_b_[y])
        return false;
      if (!w.room_f_.empty() && (w.room_f_[x] != w.room_f_[y] || w.room_b_[x] != w.room_b_[y])) return false;
      for (int k = 0; k < 3; ++k)
        if (w.links_f_[3 * x + k] != w.links_f_[3 * y + k] || w.links_b_[3 * x + k] != w.links_b_[3 * y + k] ||
            w.weights_f_[3 * x + k] != w.weights_f_[3 * y + k] || w.weights_b_[3 * x + k] != w.weights_b_[3 * y + k])
          return false;
    }
  }
  return true;
}

void Evaluator::gather_group_inputs(EvaluatorScratch& w, const int* replicas, int n) const {
  // Inputs of the joint run, replica-major (PipelineLinks::replicas).
  const int P = scenario_.only_job().par.pp, D = scenario_.only_job().par.dp,
            E = handoff_boundaries(scenario_.only_job());
  const int v = scenario_.only_job().virtual_stages;
  const size_t nb = static_cast<size_t>(n) * E;
  w.sf_.resize(static_cast<size_t>(n) * P * v);
  w.sb_.resize(w.sf_.size());
  for (std::vector<double>* v : {&w.slf_, &w.sxf_, &w.slb_, &w.sxb_}) v->resize(nb);
  const bool windowed = !w.room_f_.empty();
  w.sroom_f_.resize(windowed ? nb : 0);
  w.sroom_b_.resize(windowed ? nb : 0);
  for (std::vector<int>* v : {&w.slinks_f_, &w.slinks_b_, &w.sweights_f_, &w.sweights_b_}) v->resize(3 * nb);
  w.sslack_f_.resize(3 * nb);
  w.sslack_b_.resize(3 * nb);
  for (int i = 0; i < n; ++i) {
    const int d = replicas[i];
    for (int s = 0; s < P; ++s) {
      const int at = s * D + d;
      if (v > 1) {  // per model chunk (PipelineLinks::chunks)
        chunk_op_times(w.fwd_[at], w.bwd_[at], w.logits_f_[at], v, &w.sf_[(i * P + s) * v], &w.sb_[(i * P + s) * v]);
        continue;
      }
      w.sf_[i * P + s] = w.fwd_[at];
      w.sb_[i * P + s] = w.bwd_[at];
    }
    for (int s = 0; s < E; ++s) {
      const size_t e = static_cast<size_t>(i) * E + s, src = static_cast<size_t>(s) * D + d;
      w.slf_[e] = w.lat_f_[src];
      w.sxf_[e] = w.xfer_f_[src];
      w.slb_[e] = w.lat_b_[src];
      w.sxb_[e] = w.xfer_b_[src];
      if (windowed) {
        w.sroom_f_[e] = w.room_f_[src];
        w.sroom_b_[e] = w.room_b_[src];
      }
      for (int k = 0; k < 3; ++k) {
        w.slinks_f_[3 * e + k] = w.links_f_[3 * src + k];
        w.slinks_b_[3 * e + k] = w.links_b_[3 * src + k];
        w.sweights_f_[3 * e + k] = w.weights_f_[3 * src + k];
        w.sweights_b_[3 * e + k] = w.weights_b_[3 * src + k];
        w.sslack_f_[3 * e + k] = w.slack_f_[3 * src + k];
        w.sslack_b_[3 * e + k] = w.slack_b_[3 * src + k];
      }
    }
  }
}

double Evaluator::group_makespan_s(EvaluatorScratch& w, const int* replicas, int n, int multiplicity) const {
  gather_group_inputs(w, replicas, n);
  const bool windowed = !w.sroom_f_.empty();
  // The key: every input of the pipeline computation, link ids renamed in order of first use. The computation uses
  // link ids only to count the messages on each link, so renamed ids give the same operations and the same bits.
  // The settings first: the cache is shared with other evaluators, of other scenarios.
  PipelineMemoKey& key = w.pipe_key_;
  key.ints.assign({schedule_id_, scenario_.only_job().pipeline_p2p_blocking() ? 1 : 0, channels_,
                   latency_at_receiver_ ? 1 : 0, network_->links() > 0 ? 1 : 0, windowed ? 1 : 0, n, multiplicity});
  key.ints.insert(key.ints.end(), w.sweights_f_.begin(), w.sweights_f_.end());
  key.ints.insert(key.ints.end(), w.sweights_b_.begin(), w.sweights_b_.end());
  w.link_rename_.resize(network_->links(), -1);
  int names = 0;
  for (const std::vector<int>* v : {&w.slinks_f_, &w.slinks_b_})
    for (const int id : *v) {
      if (id >= 0 && w.link_rename_[id] < 0) w.link_rename_[id] = names++;
      key.ints.push_back(id < 0 ? -1 : w.link_rename_[id]);
    }
  for (const std::vector<int>* v : {&w.slinks_f_, &w.slinks_b_})
    for (const int id : *v)
      if (id >= 0) w.link_rename_[id] = -1;
  key.times.clear();
  for (const std::vector<double>* v : {&w.sf_, &w.sb_, &w.slf_, &w.sxf_, &w.slb_, &w.sxb_, &w.sroom_f_, &w.sroom_b_, &w.sslack_f_, &w.sslack_b_})
    key.times.insert(key.times.end(), v->begin(), v->end());
  PipelineMemo::seal(key);
  w.last_end_.resize(static_cast<size_t>(n) * scenario_.only_job().par.pp);
  const double known = pipe_memo_->find(key, w.last_end_.data());
  if (!std::isnan(known)) return known;
  PipelineLinks links{w.slf_.data(), w.sxf_.data(), w.slb_.data(), w.sxb_.data(), w.slinks_f_.data(), w.slinks_b_.data(),
                      network_->links()};
  links.blocking = scenario_.only_job().pipeline_p2p_blocking();
  links.channels = channels_;
  links.latency_at_receiver = latency_at_receiver_;
  links.replicas = n;
  links.chunks = scenario_.only_job().virtual_stages;
  links.flow_multiplicity = multiplicity;
  links.route_weights_fwd = w.sweights_f_.data();
  links.route_weights_bwd = w.sweights_b_.data();
  links.route_slack_fwd = w.sslack_f_.data();
  links.route_slack_bwd = w.sslack_b_.data();
  if (windowed) {
    links.headroom_fwd = w.sroom_f_.data();
    links.headroom_bwd = w.sroom_b_.data();
  }
  const double span =
      pipeline_makespan_s(schedule_, w.sf_.data(), w.sb_.data(), links, w.last_end_.data(), w.pipe_scratch_);
  pipe_memo_->insert(std::move(key), span, w.last_end_.data(), w.last_end_.size());
  return span;
}

void Evaluator::set_pipeline_cache(bool across_evaluations) {
  own_memo_ = across_evaluations ? nullptr : std::make_shared<PipelineMemo>(std::size_t{8} << 20);
  pipe_memo_ = own_memo_ ? own_memo_.get() : &PipelineMemo::process();
}

void Evaluator::replica_groups(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const {
  // Replicas whose hand-offs (any tp transfer, either direction) share a link, directly or through others, form one
  // group. Union-find over the replicas, each link owned by the first replica using it.
  const Parallelism& par = scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  std::vector<int>& parent = w.group_parent_;
  parent.resize(D);
  for (int d = 0; d < D; ++d) parent[d] = d;
  const auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  w.link_owner_.resize(network_->links(), -1);
  w.touched_links_.clear();
  for (int s = 0; s < handoff_boundaries(scenario_.only_job()); ++s)
    for (int d = 0; d < D; ++d)
      for (int t = 0; t < T; ++t) {
        const int a = host_of_rank[plan_.rank_of(s, d, t)];
        const int b = host_of_rank[plan_.rank_of(boundary_receiver(s, P), d, t)];
        for (const Route& r : {network_->route(a, b), network_->route(b, a)})
          for (int k = 0; k < r.n_links; ++k) {
            const int l = r.links[k];
            if (w.link_owner_[l] < 0) {
              w.link_owner_[l] = d;
              w.touched_links_.push_back(l);
            } else {
              const int x = find(w.link_owner_[l]), y = find(d);
              if (x != y) parent[std::max(x, y)] = std::min(x, y);
            }
          }
      }
  for (const int l : w.touched_links_) w.link_owner_[l] = -1;
  w.touched_links_.clear();
  // Groups in order of their lowest replica, members in replica order.
  w.group_members_.clear();
  w.group_first_.assign(1, 0);
  w.group_of_.resize(D);
  for (int root = 0; root < D; ++root) {
    if (find(root) != root) continue;
    for (int d = root; d < D; ++d)
      if (find(d) == root) {
        w.group_members_.push_back(d);
        w.group_of_[d] = static_cast<int>(w.group_first_.size()) - 1;
      }
    w.group_first_.push_back(static_cast<int>(w.group_members_.size()));
  }
}

void Evaluator::replica_pipelines(EvaluatorScratch& w, int m, EvalBreakdown& out) const {
  // One critical-path computation per group of replicas that share hand-off links (approximation 5).
  const Parallelism& par = scenario_.only_job().par;
  const int P = par.pp, D = par.dp;
  std::fill(w.stage_done_.begin(), w.stage_done_.end(), 0.0);
  if (own_memo_) own_memo_->clear();
  double busiest = 0.0;
  for (int d = 0; d < D; ++d)
    for (int s = 0; s < P; ++s) busiest = std::max(busiest, m * (w.fwd_[s * D + d] + w.bwd_[s * D + d]));
  for (size_t g = 0; g + 1 < w.group_first_.size(); ++g) {
    const int* members = w.group_members_.data() + w.group_first_[g];
    const int n = w.group_first_[g + 1] - w.group_first_[g];
    // Equal replicas on the same links run in lockstep: one of them, its flows counted n times, is the joint run.
    // A group above kJointReplicas: each replica alone (its hand-offs already shared with the group's, pp_handoffs).
    const bool lockstep = n > 1 && replicas_identical(w, members, n);
    const bool one_by_one = !lockstep && n > kJointReplicas;
    for (int first = 0; first < n; first += one_by_one ? 1 : n) {
      const int count = one_by_one ? 1 : n;
      const double span = lockstep ? group_makespan_s(w, members, 1, n) : group_makespan_s(w, members + first, count, 1);
      out.pipeline_s = std::max(out.pipeline_s, span);
      for (int i = first; i < first + count; ++i)
        for (int s = 0; s < P; ++s) {
          const double end = w.last_end_[(lockstep || one_by_one ? 0 : i - first) * P + s];
          w.stage_done_[s] = std::max(w.stage_done_[s], end);
          w.replica_done_[s * D + members[i]] = end;
        }
    }
  }
  out.bubble_s = std::max(0.0, out.pipeline_s - busiest);
}

void Evaluator::dp_times(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const {
  const Parallelism& par = scenario_.only_job().par;
  if (par.dp < 2) {
    std::fill(w.dp_s_.begin(), w.dp_s_.end(), 0.0);
    return;
  }
  if (dp_allreduces_from_stage_ends(w, host_of_rank)) return;
  // DP all-reduce time per stage in isolation; those of different stages that overlap in time share links
  // (approximation 3).
  for (int s = 0; s < par.pp; ++s) w.dp_s_[s] = dp_allreduce_s(w, s, host_of_rank);
  if (par.pp > 1) refine_dp_overlap(w, host_of_rank);
}

EvalBreakdown Evaluator::evaluate_hosts(const std::vector<int>& host_of_rank, EvaluatorScratch& w) const {
  count_evaluator_call();
  prepare(w);
  EvalBreakdown out;
  w.dp_flows_ready_ = false;  // a new placement
  if (!hosts_fit(host_of_rank, out)) return out;
  const int m = std::max(1, cost_.micro_batches);

  stage_op_times(w, host_of_rank, m, out);
  pp_handoffs(w, host_of_rank, out);
  replica_pipelines(w, m, out);
  dp_times(w, host_of_rank);
  if (dp_overlaps_pipeline(w)) {
    // Approximation 7: once more with the DP all-reduces of the stages that finished early on the hand-offs' links
    // (one pass: a second one, from the slower pipeline, ranked the design families' placements no better).
    dp_link_flows(w, host_of_rank);
    const EvalBreakdown first = out;
    w.xfer_f_free_ = w.xfer_f_;
    w.xfer_b_free_ = w.xfer_b_;
    w.room_f_free_ = w.room_f_;
    w.room_b_free_ = w.room_b_;
    out.pp_hop_s = out.pipeline_s = out.bubble_s = 0.0;
    pp_handoffs(w, host_of_rank, out, true);
    if (w.xfer_f_ == w.xfer_f_free_ && w.xfer_b_ == w.xfer_b_free_ && w.room_f_ == w.room_f_free_ && w.room_b_ == w.room_b_free_) {
      out = first;  // no hand-off got slower: the pipelines and DP times would come out the same
    } else {
      replica_pipelines(w, m, out);
      dp_times(w, host_of_rank);
    }
  }
  finish_iteration(w, host_of_rank, out);
  out.feasible = true;
  return out;
}

}  // namespace hulk
