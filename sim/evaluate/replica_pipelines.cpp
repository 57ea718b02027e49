// The Evaluator's pipeline part (replica_pipelines.hpp; approximation 5 of docs/model.md).
#include "sim/evaluate/replica_pipelines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/evaluate/dp_pipeline_overlap.hpp"
#include "sim/evaluate/interleaved.hpp"

namespace hulk::eval {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

void handoff_times_by_group(const EvaluatorCore& core, EvaluatorScratch& w) {
  // w.src_/w.dst_ hold one boundary's transfers of one direction, replica after replica (tp of each together).
  const int T = core.scenario_.only_job().par.tp;
  const bool windowed = core.tcp_window_bytes_ > 0;  // w.room_: each transfer's headroom under the window
  for (size_t g = 0; g + 1 < w.group_first_.size(); ++g) {
    const int first = w.group_first_[g], size = w.group_first_[g + 1] - first;
    if (size <= kJointReplicas) {  // each replica's tp transfers at once
      for (int i = first; i < first + size; ++i) {
        const int d = w.group_members_[i];
        concurrent_times(core, w, w.src_.data() + d * T, w.dst_.data() + d * T, T, core.cost_.pp_message_bytes,
                         w.times_.data() + d * T, nullptr, windowed ? w.room_.data() + d * T : nullptr);
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
    concurrent_times(core, w, w.group_src_.data(), w.group_dst_.data(), size * T, core.cost_.pp_message_bytes,
                     w.group_times_.data(), nullptr, windowed ? w.group_room_.data() : nullptr);
    for (int i = 0; i < size; ++i) {
      const int at = w.group_members_[first + i] * T;
      std::copy(w.group_times_.begin() + i * T, w.group_times_.begin() + (i + 1) * T, w.times_.begin() + at);
      if (windowed) std::copy(w.group_room_.begin() + i * T, w.group_room_.begin() + (i + 1) * T, w.room_.begin() + at);
    }
  }
}

void handoff_weights(const EvaluatorCore& core, EvaluatorScratch& w, int d, const Route& route, bool joint,
                     int* weights) {
  // Joint: the replica's flows on each link of its slowest transfer's route (its share when others join). A larger
  // group's replicas are computed one by one, every message one flow, their sharing already in the transfer time.
  const int T = core.scenario_.only_job().par.tp;
  for (int k = 0; k < 3; ++k) weights[k] = k < route.n_links && !joint ? 1 : 0;
  if (!joint) return;
  for (int t = 0; t < T; ++t) {
    const Route& other = core.network_->route(w.src_[d * T + t], w.dst_[d * T + t]);
    for (int k = 0; k < route.n_links; ++k)
      for (int j = 0; j < other.n_links; ++j) weights[k] += other.links[j] == route.links[k];
  }
}

void handoff_slack(const EvaluatorCore& core, const Route& route, const int* weights, double* slack) {
  // Without it a link faster than the bottleneck slowed the hand-off as if it were the bottleneck: six replicas'
  // activations over a 10 Gbit/s WAN pair into hosts of 1 Gbit/s NICs (two each) were priced at 1/6 of their alone
  // rate instead of 1/2, the pipeline 2.4x too long (a probe's cluster, tests/data/unchecked/window-channels.yaml).
  // With the per-flow cap (a GPU's FATPIPE port): else 8 PCIe stages on one host shared its aggregate link as their
  // bottleneck, 8.02 ms estimated against 4.5 ms in SimGrid (EvaluatorAccuracy.PipelinesInsideAPcie*).
  double tightest = route.flow_cap_Bps > 0 ? route.flow_cap_Bps : kInf;
  for (int k = 0; k < route.n_links; ++k)
    tightest = std::min(tightest, core.link_capacity_Bps(route.links[k]) / std::max(1, weights[k]));
  for (int k = 0; k < 3; ++k)
    slack[k] = k < route.n_links ? core.link_capacity_Bps(route.links[k]) / std::max(1, weights[k]) / tightest : 1.0;
}

void pp_handoffs(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank,
                 EvalBreakdown& out, bool with_dp_load) {
  // PP hand-offs, each direction separately. A replica in a group computed together (replica_groups): its tp
  // transfers at once, the other replicas' messages counted when in flight at the same time (replica_pipelines).
  // In a larger group: all the group's transfers across the boundary at once, as if the replicas ran in lockstep.
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  if (!with_dp_load) replica_groups(core, w, host_of_rank);
  for (int s = 0; s < handoff_boundaries(core.scenario_.only_job()); ++s) {
    if (with_dp_load) add_handoff_dp_load(core, w, s);
    const int n = D * T;
    w.src_.resize(n);
    w.dst_.resize(n);
    w.times_.resize(n);
    w.room_.resize(core.tcp_window_bytes_ > 0 ? n : 0);
    for (int dir = 0; dir < 2; ++dir) {
      for (int i = 0; i < n; ++i) {
        const int a = host_of_rank[s * n + i], b = host_of_rank[boundary_receiver(s, P) * n + i];
        w.src_[i] = dir == 0 ? a : b;
        w.dst_[i] = dir == 0 ? b : a;
      }
      std::vector<double>& lat = dir == 0 ? w.lat_f_ : w.lat_b_;
      std::vector<double>& xfer = dir == 0 ? w.xfer_f_ : w.xfer_b_;
      handoff_times_by_group(core, w);
      for (int d = 0; d < D; ++d) {
        const bool joint = w.group_first_[w.group_of_[d] + 1] - w.group_first_[w.group_of_[d]] <= kJointReplicas;
        int worst = d * T;
        for (int t = 1; t < T; ++t)
          if (w.times_[d * T + t] > w.times_[worst]) worst = d * T + t;
        const Route& route = core.network_->route(w.src_[worst], w.dst_[worst]);
        const double l = route.latency_s;
        int* ids = (dir == 0 ? w.links_f_ : w.links_b_).data() + 3 * (s * D + d);
        int* weights = (dir == 0 ? w.weights_f_ : w.weights_b_).data() + 3 * (s * D + d);
        for (int k = 0; k < 3; ++k) ids[k] = k < route.n_links ? route.links[k] : -1;
        handoff_weights(core, w, d, route, joint, weights);
        handoff_slack(core, route, weights, (dir == 0 ? w.slack_f_ : w.slack_b_).data() + 3 * (s * D + d));
        lat[s * D + d] = l;
        xfer[s * D + d] = w.times_[worst] - l;
        if (!w.room_.empty()) (dir == 0 ? w.room_f_ : w.room_b_)[s * D + d] = w.room_[worst];
        out.pp_hop_s = std::max(out.pp_hop_s, w.times_[worst]);
      }
    }
    if (with_dp_load) clear_extra_load(core, w);
  }
}

bool replicas_identical(const EvaluatorCore& core, EvaluatorScratch& w, const int* replicas, int n) {
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp;
  const int a = replicas[0];
  for (int i = 1; i < n; ++i) {
    const int b = replicas[i];
    for (int s = 0; s < P; ++s)
      if (w.fwd_[s * D + a] != w.fwd_[s * D + b] || w.bwd_[s * D + a] != w.bwd_[s * D + b]) return false;
    for (int s = 0; s < handoff_boundaries(core.scenario_.only_job()); ++s) {
      const size_t x = static_cast<size_t>(s) * D + a, y = static_cast<size_t>(s) * D + b;
      if (w.lat_f_[x] != w.lat_f_[y] || w.xfer_f_[x] != w.xfer_f_[y] || w.lat_b_[x] != w.lat_b_[y] ||
          w.xfer_b_[x] != w.xfer_b_[y])
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

void gather_group_inputs(const EvaluatorCore& core, EvaluatorScratch& w, const int* replicas, int n) {
  // Inputs of the joint run, replica-major (PipelineLinks::replicas).
  const int P = core.scenario_.only_job().par.pp, D = core.scenario_.only_job().par.dp,
            E = handoff_boundaries(core.scenario_.only_job());
  const int v = core.scenario_.only_job().virtual_stages;
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

double group_makespan_s(const EvaluatorCore& core, EvaluatorScratch& w, const int* replicas, int n, int multiplicity) {
  gather_group_inputs(core, w, replicas, n);
  const bool windowed = !w.sroom_f_.empty();
  // The key: every input of the pipeline computation, link ids renamed in order of first use. The computation uses
  // link ids only to count the messages on each link, so renamed ids give the same operations and the same bits.
  // The settings first: the cache is shared with other evaluators, of other scenarios.
  PipelineMemoKey& key = w.pipe_key_;
  key.ints.assign({core.schedule_id_, core.scenario_.only_job().pipeline_p2p_blocking() ? 1 : 0, core.channels_,
                   core.latency_at_receiver_ ? 1 : 0, core.network_->links() > 0 ? 1 : 0, windowed ? 1 : 0, n,
                   multiplicity});
  key.ints.insert(key.ints.end(), w.sweights_f_.begin(), w.sweights_f_.end());
  key.ints.insert(key.ints.end(), w.sweights_b_.begin(), w.sweights_b_.end());
  w.link_rename_.resize(core.network_->links(), -1);
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
  for (const std::vector<double>* v :
       {&w.sf_, &w.sb_, &w.slf_, &w.sxf_, &w.slb_, &w.sxb_, &w.sroom_f_, &w.sroom_b_, &w.sslack_f_, &w.sslack_b_})
    key.times.insert(key.times.end(), v->begin(), v->end());
  PipelineMemo::seal(key);
  w.last_end_.resize(static_cast<size_t>(n) * core.scenario_.only_job().par.pp);
  const double known = core.pipe_memo_->find(key, w.last_end_.data());
  if (!std::isnan(known)) return known;
  PipelineLinks links{w.slf_.data(),      w.sxf_.data(),      w.slb_.data(),         w.sxb_.data(),
                      w.slinks_f_.data(), w.slinks_b_.data(), core.network_->links()};
  links.blocking = core.scenario_.only_job().pipeline_p2p_blocking();
  links.channels = core.channels_;
  links.latency_at_receiver = core.latency_at_receiver_;
  links.replicas = n;
  links.chunks = core.scenario_.only_job().virtual_stages;
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
      pipeline_makespan_s(core.schedule_, w.sf_.data(), w.sb_.data(), links, w.last_end_.data(), w.pipe_scratch_);
  core.pipe_memo_->insert(std::move(key), span, w.last_end_.data(), w.last_end_.size());
  return span;
}

void replica_groups(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank) {
  // Replicas whose hand-offs (any tp transfer, either direction) share a link, directly or through others, form one
  // group. Union-find over the replicas, each link owned by the first replica using it.
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  std::vector<int>& parent = w.group_parent_;
  parent.resize(D);
  for (int d = 0; d < D; ++d) parent[d] = d;
  const auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  w.link_owner_.resize(core.network_->links(), -1);
  w.touched_links_.clear();
  for (int s = 0; s < handoff_boundaries(core.scenario_.only_job()); ++s)
    for (int d = 0; d < D; ++d)
      for (int t = 0; t < T; ++t) {
        const int a = host_of_rank[core.plan_.rank_of(s, d, t)];
        const int b = host_of_rank[core.plan_.rank_of(boundary_receiver(s, P), d, t)];
        for (const Route& r : {core.network_->route(a, b), core.network_->route(b, a)})
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

void replica_pipelines(const EvaluatorCore& core, EvaluatorScratch& w, int m, EvalBreakdown& out) {
  // One critical-path computation per group of replicas that share hand-off links (approximation 5).
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp;
  std::fill(w.stage_done_.begin(), w.stage_done_.end(), 0.0);
  if (core.own_memo_) core.own_memo_->clear();
  double busiest = 0.0;
  for (int d = 0; d < D; ++d)
    for (int s = 0; s < P; ++s) busiest = std::max(busiest, m * (w.fwd_[s * D + d] + w.bwd_[s * D + d]));
  for (size_t g = 0; g + 1 < w.group_first_.size(); ++g) {
    const int* members = w.group_members_.data() + w.group_first_[g];
    const int n = w.group_first_[g + 1] - w.group_first_[g];
    // Equal replicas on the same links run in lockstep: one of them, its flows counted n times, is the joint run.
    // A group above kJointReplicas: each replica alone (its hand-offs already shared with the group's, pp_handoffs).
    const bool lockstep = n > 1 && replicas_identical(core, w, members, n);
    const bool one_by_one = !lockstep && n > kJointReplicas;
    for (int first = 0; first < n; first += one_by_one ? 1 : n) {
      const int count = one_by_one ? 1 : n;
      const double span =
          lockstep ? group_makespan_s(core, w, members, 1, n) : group_makespan_s(core, w, members + first, count, 1);
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

}  // namespace hulk::eval
