// The Evaluator's data-parallel part (dp_allreduce.hpp): ring / tree / hierarchical all-reduces, and the DP
// all-reduces of all stages in one fluid simulation from each stage's end (approximations 2 and 3 of docs/model.md).
#include "sim/evaluate/dp_allreduce.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/evaluate/dp_pipeline_overlap.hpp"
#include "sim/evaluate/iteration_tail.hpp"
#include "sim/evaluate/region_blocks.hpp"
#include "sim/evaluate/ring_steps.hpp"
#include "sim/evaluate/transfer_fluid.hpp"

namespace hulk {

void RingSet::clear() {
  members.clear();
  begin.assign(1, 0);
  chunk_bytes.clear();
  steps.clear();
}

void RingSet::add(const int* hosts, int n, double chunk, int n_steps) {
  members.insert(members.end(), hosts, hosts + n);
  begin.push_back(static_cast<int>(members.size()));
  chunk_bytes.push_back(chunk);
  steps.push_back(n_steps);
}

namespace eval {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

double ring_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<std::vector<int>>& rings,
                        double bytes) {
  // All rings run at once, each simulated step by step with its hop times (approximation 2).
  w.src_.clear();
  w.dst_.clear();
  int n = 0;
  for (const auto& ring : rings) {
    n = static_cast<int>(ring.size());
    if (n < 2) continue;
    for (int i = 0; i < n; ++i) {
      w.src_.push_back(ring[i]);
      w.dst_.push_back(ring[(i + 1) % n]);
    }
  }
  if (w.src_.empty()) return 0.0;
  // Rings passed here have equal sizes (DP groups of one stage), so one chunk size serves all transfers.
  w.times_.resize(w.src_.size());
  w.ring_room_.resize(core.rings_use_headroom() ? w.src_.size() : 0);
  concurrent_times(core, w, w.src_.data(), w.dst_.data(), static_cast<int>(w.src_.size()), bytes / n, w.times_.data(),
                   nullptr, w.ring_room_.empty() ? nullptr : w.ring_room_.data());
  w.lat_buf_.resize(w.src_.size());
  for (size_t i = 0; i < w.src_.size(); ++i) w.lat_buf_[i] = core.network_->route(w.src_[i], w.dst_[i]).latency_s;
  double out = 0.0;
  for (size_t first = 0; first < w.src_.size(); first += n)
    out = std::max(out, ring_steps_s(w.times_.data() + first, w.lat_buf_.data() + first, n, 2 * (n - 1),
                                     core.ring_model(w, first), w.ring_scratch_));
  return out;
}

double tree_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<std::vector<int>>& groups,
                        double bytes) {
  // Approximation 3 (fallback): the engine's tree (children 2i+1, 2i+2; a node sends the whole buffer to its parent
  // once all its children's buffers arrived; the broadcast mirrors it). Transfers that start at the same instant share
  // links (all groups of the stage included); a transfer that starts later is not slowed by ones still in flight.
  const int n = groups.empty() ? 0 : static_cast<int>(groups[0].size());
  if (n < 2) return 0.0;
  const int G = static_cast<int>(groups.size());
  std::vector<int> height(n, 0), depth(n, 0);
  for (int i = n - 1; i > 0; --i) height[(i - 1) / 2] = std::max(height[(i - 1) / 2], height[i] + 1);
  for (int i = 1; i < n; ++i) depth[i] = depth[(i - 1) / 2] + 1;
  std::vector<double> ready(static_cast<size_t>(G) * n, 0.0);  // reduce: when node i may send to its parent
  struct Send {
    double start;
    int g, from, to;
  };
  std::vector<Send> batch;
  // Runs a batch of sends: sends with equal start times are concurrent. Returns arrival times in `arrive`.
  std::vector<double> arrive;
  auto run = [&](std::vector<Send>& b) {
    std::stable_sort(b.begin(), b.end(), [](const Send& x, const Send& y) { return x.start < y.start; });
    arrive.assign(b.size(), 0.0);
    for (size_t lo = 0; lo < b.size();) {
      size_t hi = lo + 1;
      while (hi < b.size() && b[hi].start - b[lo].start <= 1e-12 * std::max(1.0, b[lo].start)) ++hi;
      w.src_.clear();
      w.dst_.clear();
      for (size_t k = lo; k < hi; ++k) {
        w.src_.push_back(groups[b[k].g][b[k].from]);
        w.dst_.push_back(groups[b[k].g][b[k].to]);
      }
      w.times_.resize(w.src_.size());
      concurrent_times(core, w, w.src_.data(), w.dst_.data(), static_cast<int>(w.src_.size()), bytes, w.times_.data());
      for (size_t k = lo; k < hi; ++k) arrive[k] = b[k].start + w.times_[k - lo];
      lo = hi;
    }
  };
  const int max_height = height[0];
  for (int h = 0; h < max_height; ++h) {
    batch.clear();
    for (int g = 0; g < G; ++g)
      for (int i = 1; i < n; ++i)
        if (height[i] == h) batch.push_back({ready[static_cast<size_t>(g) * n + i], g, i, (i - 1) / 2});
    run(batch);
    for (size_t k = 0; k < batch.size(); ++k) {
      double& r = ready[static_cast<size_t>(batch[k].g) * n + batch[k].to];
      r = std::max(r, arrive[k]);
    }
  }
  std::vector<double> got(static_cast<size_t>(G) * n, 0.0);  // broadcast: when node i has the result
  for (int g = 0; g < G; ++g) got[static_cast<size_t>(g) * n] = ready[static_cast<size_t>(g) * n];
  double end = 0.0;
  const int max_depth = depth[n - 1];
  for (int d = 0; d < max_depth; ++d) {
    batch.clear();
    for (int g = 0; g < G; ++g)
      for (int i = 1; i < n; ++i)
        if (depth[i] == d + 1) batch.push_back({got[static_cast<size_t>(g) * n + (i - 1) / 2], g, (i - 1) / 2, i});
    run(batch);
    for (size_t k = 0; k < batch.size(); ++k) {
      got[static_cast<size_t>(batch[k].g) * n + batch[k].to] = arrive[k];
      end = std::max(end, arrive[k]);
    }
  }
  return end;
}

namespace {

// `steps` ring steps over members ring[0..n) (sim/engine/collectives.cpp's ring_steps) as transfers of the fluid
// simulation: member j's chunk q goes to j+1 once j received chunk q-1 from j-1, once its chunk q-channels has left
// (in-order connection) and once j+1 had chunk q-kRingRecvWindow (the receive window); its first chunk once its
// previous phase's last send left and last receive arrived (last_send/last_recv per member index, updated).
void add_ring(TransferFluid& fl, const std::vector<int>& ring, const std::vector<int>& host_of_member, double chunk,
              int steps, const std::vector<double>& t0, int channels, std::vector<int>& last_send,
              std::vector<int>& last_recv, std::vector<int>& ids) {
  const int n = static_cast<int>(ring.size());
  if (n < 2 || steps <= 0) return;
  ids.assign(static_cast<size_t>(n) * steps, -1);
  for (int q = 0; q < steps; ++q)
    for (int j = 0; j < n; ++j) {
      const int to = j + 1 == n ? 0 : j + 1, from = j == 0 ? n - 1 : j - 1;
      // A rendezvous: the chunk moves once both members entered the all-reduce.
      const int id =
          fl.add(host_of_member[ring[j]], host_of_member[ring[to]], chunk, std::max(t0[ring[j]], t0[ring[to]]));
      ids[static_cast<size_t>(q) * n + j] = id;
      if (q == 0) {
        fl.after(id, last_send[ring[j]], true);
        fl.after(id, last_recv[ring[j]]);
      } else {
        fl.after(id, ids[static_cast<size_t>(q - 1) * n + from]);
      }
      if (q >= channels) fl.after(id, ids[static_cast<size_t>(q - channels) * n + j], true);
      if (q >= kRingRecvWindow) fl.after(id, ids[static_cast<size_t>(q - kRingRecvWindow) * n + j]);
    }
  for (int j = 0; j < n; ++j) {
    last_send[ring[j]] = ids[static_cast<size_t>(steps - 1) * n + j];
    last_recv[ring[j]] = ids[static_cast<size_t>(steps - 1) * n + (j == 0 ? n - 1 : j - 1)];
  }
}

}  // namespace

bool dp_fluid_applies(const EvaluatorCore& core) {
  const Parallelism& par = core.scenario_.only_job().par;
  const long groups = static_cast<long>(par.pp) * par.tp, D = par.dp;
  return core.scenario_.only_job().collective == "tree" ? groups * 2 * (D - 1) <= 1024
                                                        : par.pp >= 2 && groups * 2 * D * (D - 1) <= 128;
}

namespace {

/** The engine's tree all-reduce of one DP group into the fluid: member i sends its whole buffer to its parent
 *  (i-1)/2 once its children's arrived; the root, once its children's arrived, sends the result to its children;
 *  every member forwards it on arrival. t0: when each member enters; up/down: scratch. */
void add_tree(TransferFluid& fl, const std::vector<int>& hosts, double bytes, const std::vector<double>& t0,
              std::vector<int>& up, std::vector<int>& down) {
  const int D = static_cast<int>(hosts.size());
  up.assign(D, -1);
  down.assign(D, -1);
  for (int i = D - 1; i >= 1; --i) {
    up[i] = fl.add(hosts[i], hosts[(i - 1) / 2], bytes, std::max(t0[i], t0[(i - 1) / 2]));
    for (int c = 2 * i + 1; c <= 2 * i + 2 && c < D; ++c) fl.after(up[i], up[c]);
  }
  for (int i = 1; i < D; ++i) {
    const int parent = (i - 1) / 2;
    down[i] = fl.add(hosts[parent], hosts[i], bytes, std::max(t0[parent], t0[i]));
    if (parent == 0) {
      for (int c = 1; c <= 2 && c < D; ++c) fl.after(down[i], up[c]);
    } else {
      fl.after(down[i], down[parent]);
    }
  }
}

}  // namespace

bool dp_allreduces_from_stage_ends(const EvaluatorCore& core, EvaluatorScratch& w,
                                   const std::vector<int>& host_of_rank) {
  // Every stage's DP all-reduces (all tp groups) in one fluid simulation, each from its stage's end: flows of
  // different stages and phases share links when they overlap in time, and start when the engine's ranks would
  // start them. Too many transfers (large dp): false, the caller falls back to the per-stage estimate.
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  // Its cost grows with the square of the transfers: trees (2(D-1) transfers per group) always up to a bound;
  // rings (2D(D-1) per group) only with several stages (in one stage, the per-stage estimate is the same ring).
  // Trees up to 1,024 transfers: the per-stage fallback, whose later transfers ignore the ones still in flight, is
  // far too optimistic on tree jobs of 16-64 replicas and makes the placers choose placements SimGrid runs much
  // slower (EvaluatorAccuracy.TreeAllReducesOfManyReplicasAcrossRegions bounds the error at this size).
  if (!dp_fluid_applies(core)) return false;
  const std::string& algo = core.scenario_.only_job().collective;
  TransferFluid& fl = w.fluid_;
  fl.clear();
  std::vector<int>& up = w.tree_up_;      // tree: per member, its reduce transfer to the parent (scratch)
  std::vector<int>& down = w.tree_down_;  // tree: per member, the broadcast transfer reaching it (scratch)
  std::vector<int>& hosts = w.member_hosts_;
  std::vector<int> last_send, last_recv, ids, ring;
  w.tree_first_.assign(P + 1, 0);
  for (int s = 0; s < P; ++s) {
    w.tree_first_[s] = fl.size();
    const double bytes = core.cost_.stages[s].dp_grad_bytes;
    // Member d enters the all-reduce when its replica's pipeline ends at this stage.
    std::vector<double>& t0 = w.member_start_;
    t0.assign(w.replica_done_.begin() + s * D, w.replica_done_.begin() + (s + 1) * D);
    for (int t = 0; t < T; ++t) {
      hosts.resize(D);
      for (int i = 0; i < D; ++i) hosts[i] = host_of_rank[core.plan_.rank_of(s, i, t)];
      last_send.assign(D, -1);
      last_recv.assign(D, -1);
      if (algo == "tree") {
        add_tree(fl, hosts, bytes, t0, up, down);
        continue;
      }
      const bool hierarchical = algo == "hierarchical";
      RegionBlocks& rb = w.region_blocks_;
      if (hierarchical) rb.group(*core.network_, hosts.data(), D);
      if (!hierarchical || !rb.balanced()) {  // a ring in dp order, or (unbalanced hierarchical) region by region
        ring.clear();
        if (hierarchical) {
          ring = rb.order;
        } else {
          for (int i = 0; i < D; ++i) ring.push_back(i);
        }
        add_ring(fl, ring, hosts, bytes / D, 2 * (D - 1), t0, core.channels_, last_send, last_recv, ids);
        continue;
      }
      const int R = rb.regions, k = rb.per_region;
      auto region_rings = [&]() {  // reduce-scatter, and later all-gather, inside each region
        for (int b = 0; b < R; ++b) {
          ring.assign(rb.order.begin() + b * k, rb.order.begin() + (b + 1) * k);
          add_ring(fl, ring, hosts, bytes / k, k - 1, t0, core.channels_, last_send, last_recv, ids);
        }
      };
      region_rings();
      for (int j = 0; j < k; ++j) {
        ring.clear();
        for (int b = 0; b < R; ++b) ring.push_back(rb.order[b * k + j]);
        add_ring(fl, ring, hosts, bytes / (static_cast<double>(k) * R), 2 * (R - 1), t0, core.channels_, last_send,
                 last_recv, ids);
      }
      region_rings();
    }
  }
  w.tree_first_[P] = fl.size();
  fl.run(*core.network_, core.tcp_window_bytes_, core.latency_at_receiver_, core.link_divisors_);
  for (int s = 0; s < P; ++s) {
    double end = w.stage_done_[s];
    for (int i = w.tree_first_[s]; i < w.tree_first_[s + 1]; ++i) end = std::max(end, fl.arrival_s(i));
    w.dp_s_[s] = end - w.stage_done_[s];
  }
  return true;
}

double rings_phase_s(const EvaluatorCore& core, EvaluatorScratch& w, const RingSet& rings) {
  // Rings of possibly different sizes/chunks run at once: each ring takes steps x its slowest hop.
  w.src_.clear();
  w.dst_.clear();
  std::vector<double>& bytes_each = w.bytes_each_;
  std::vector<int>& ring_of = w.ring_of_;
  bytes_each.clear();
  ring_of.clear();
  for (int r = 0; r < rings.size(); ++r) {
    const int* ring = rings.members.data() + rings.begin[r];
    const int n = rings.begin[r + 1] - rings.begin[r];
    if (n < 2 || rings.steps[r] <= 0) continue;
    for (int i = 0; i < n; ++i) {
      w.src_.push_back(ring[i]);
      w.dst_.push_back(ring[(i + 1) % n]);
      bytes_each.push_back(rings.chunk_bytes[r]);
      ring_of.push_back(r);
    }
  }
  if (w.src_.empty()) return 0.0;
  w.times_.resize(w.src_.size());
  w.ring_room_.resize(core.rings_use_headroom() ? w.src_.size() : 0);
  concurrent_times(core, w, w.src_.data(), w.dst_.data(), static_cast<int>(w.src_.size()), 0.0, w.times_.data(),
                   bytes_each.data(), w.ring_room_.empty() ? nullptr : w.ring_room_.data());
  w.lat_buf_.resize(w.src_.size());
  for (size_t i = 0; i < w.src_.size(); ++i) w.lat_buf_[i] = core.network_->route(w.src_[i], w.dst_[i]).latency_s;
  double out = 0.0;
  for (size_t first = 0; first < w.src_.size();) {  // transfers of one ring are contiguous
    const int r = ring_of[first];
    const int n = rings.begin[r + 1] - rings.begin[r];
    out = std::max(out, ring_steps_s(w.times_.data() + first, w.lat_buf_.data() + first, n, rings.steps[r],
                                     core.ring_model(w, first), w.ring_scratch_));
    first += n;
  }
  return out;
}

double hierarchical_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w,
                                const std::vector<std::vector<int>>& groups, double bytes) {
  // Approximation 3 (fallback), mirroring sim/engine/collectives.cpp: members grouped by region (regions in order of
  // first appearance, members in group order). Balanced groups (equal members per region, k each, R regions): ring
  // reduce-scatter inside regions (k-1 steps of S/k), k concurrent cross-region rings (2(R-1) steps of S/(kR)),
  // ring all-gather inside regions. Unbalanced groups: one ring over the group re-ordered region by region.
  if (groups.empty() || groups[0].size() < 2) return 0.0;
  RingSet& local = w.hier_local_;
  RingSet& cross = w.hier_cross_;
  RingSet& fallback = w.hier_fallback_;
  local.clear();
  cross.clear();
  fallback.clear();
  std::vector<int>& order = w.hier_order_;  // hosts of the members region by region (blocks back to back)
  RegionBlocks& rb = w.region_blocks_;
  for (const auto& members : groups) {
    const int n = static_cast<int>(members.size());
    rb.group(*core.network_, members.data(), n);
    order.clear();
    for (int i : rb.order) order.push_back(members[i]);
    if (!rb.balanced()) {
      fallback.add(order.data(), n, bytes / n, 2 * (n - 1));
      continue;
    }
    const int R = rb.regions, k = rb.per_region;
    for (int b = 0; b < R; ++b) local.add(order.data() + b * k, k, bytes / k, k - 1);
    w.cross_ring_.resize(R);
    for (int j = 0; j < k; ++j) {
      for (int b = 0; b < R; ++b) w.cross_ring_[b] = order[b * k + j];
      cross.add(w.cross_ring_.data(), R, bytes / (static_cast<double>(k) * R), 2 * (R - 1));
    }
  }
  // Balanced groups: three phases back to back; unbalanced ones run alongside (their traffic is not counted
  // against the phases').
  const double phase1 = rings_phase_s(core, w, local);
  const double phase2 = rings_phase_s(core, w, cross);
  const double balanced_s = 2.0 * phase1 + phase2;
  const double fallback_s = rings_phase_s(core, w, fallback);
  return std::max(balanced_s, fallback_s);
}

double dp_allreduce_s(const EvaluatorCore& core, EvaluatorScratch& w, int stage, const std::vector<int>& host_of_rank) {
  const Parallelism& par = core.scenario_.only_job().par;
  if (par.dp < 2) return 0.0;
  std::vector<std::vector<int>>& groups = w.dp_groups_;  // reused: no allocation per call
  groups.resize(par.tp);
  for (auto& g : groups) g.resize(par.dp);
  for (int t = 0; t < par.tp; ++t)
    for (int d = 0; d < par.dp; ++d) groups[t][d] = host_of_rank[core.plan_.rank_of(stage, d, t)];
  const double bytes = core.cost_.stages[stage].dp_grad_bytes;
  const std::string& algo = core.scenario_.only_job().collective;
  if (algo == "tree") return tree_allreduce_s(core, w, groups, bytes);
  if (algo == "hierarchical") return hierarchical_allreduce_s(core, w, groups, bytes);
  return ring_allreduce_s(core, w, groups, bytes);
}

void refine_dp_overlap(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank) {
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  std::vector<double>& iso = w.dp_iso_;
  iso = w.dp_s_;
  std::vector<int>& touched = w.touched_links_;
  touched.clear();
  // Hierarchical and tree all-reduces do not run in dp order: each stage's flows per link as its phases put them
  // (dp_link_flows). A hierarchical DP over many regions has its members' ring region by region; its load put on
  // the dp-order hops missed the WAN pair eight stages' rings crossed (larger-family seed 3113: 4.1 s estimated,
  // 14.6 s in SimGrid).
  const bool in_dp_order = core.scenario_.only_job().collective == "ring";
  if (!in_dp_order) dp_link_flows(core, w, host_of_rank);
  // Ring: links of every stage's DP rings in dp order (t, d, route order), once: the loop below adds them as load
  // in exactly this order for every overlapping pair of stages.
  std::vector<int>& ring_links = w.dp_ring_links_;
  std::vector<int>& first = w.dp_ring_links_first_;
  ring_links.clear();
  first.assign(P + 1, 0);
  for (int o = 0; o < P && in_dp_order; ++o) {
    first[o] = static_cast<int>(ring_links.size());
    for (int t = 0; t < T; ++t)
      for (int d = 0; d < D; ++d) {
        const Route& r = core.network_->route(host_of_rank[core.plan_.rank_of(o, d, t)],
                                              host_of_rank[core.plan_.rank_of(o, (d + 1) % D, t)]);
        ring_links.insert(ring_links.end(), r.links.begin(), r.links.begin() + r.n_links);
      }
  }
  first[P] = static_cast<int>(ring_links.size());
  for (int s = 0; s < P; ++s) {
    if (iso[s] <= 0) continue;
    const double a0 = w.stage_done_[s], a1 = a0 + iso[s];
    bool any = false;
    for (int o = 0; o < P; ++o) {
      if (o == s || iso[o] <= 0) continue;
      const double b0 = w.stage_done_[o], b1 = b0 + iso[o];
      const double frac = (std::min(a1, b1) - std::max(a0, b0)) / iso[s];
      if (frac <= 0) continue;
      any = true;
      // The other stage's DP traffic, weighted by the fraction of overlap.
      if (in_dp_order) {
        for (int i = first[o]; i < first[o + 1]; ++i) {
          const int l = ring_links[i];
          if (w.extra_load_[l] == 0.0) touched.push_back(l);
          w.extra_load_[l] += frac;
        }
      } else {
        for (int i = w.dp_flow_first_[o]; i < w.dp_flow_first_[o + 1]; ++i) {
          const int l = w.dp_flow_links_[i];
          if (w.extra_load_[l] == 0.0) touched.push_back(l);
          w.extra_load_[l] += frac * w.dp_flow_counts_[i];
        }
      }
    }
    if (any) w.dp_s_[s] = std::max(iso[s], dp_allreduce_s(core, w, s, host_of_rank));
    for (int l : touched) w.extra_load_[l] = 0.0;
    touched.clear();
  }
}

void dp_times(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank) {
  const Parallelism& par = core.scenario_.only_job().par;
  if (par.dp < 2) {
    std::fill(w.dp_s_.begin(), w.dp_s_.end(), 0.0);
    return;
  }
  if (dp_allreduces_from_stage_ends(core, w, host_of_rank)) return;
  // DP all-reduce time per stage in isolation; those of different stages that overlap in time share links
  // (approximation 3).
  for (int s = 0; s < par.pp; ++s) w.dp_s_[s] = dp_allreduce_s(core, w, s, host_of_rank);
  if (par.pp > 1) refine_dp_overlap(core, w, host_of_rank);
}

}  // namespace eval
}  // namespace hulk
