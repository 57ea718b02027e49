#include "evaluator.hpp"

#include <algorithm>
#include <cmath>

namespace hulk {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

Evaluator::Evaluator(const Scenario& scenario)
    : scenario_(scenario),
      cost_(compute_job_cost(scenario.job)),
      plan_(scenario.job.par),
      net_(scenario.platform) {
  const auto& hosts = scenario_.platform.hosts;
  speed_.resize(hosts.size());
  memory_.resize(hosts.size());
  for (size_t h = 0; h < hosts.size(); ++h) {
    speed_[h] = hosts[h].gpu.peak_flops(scenario_.job.precision) * scenario_.job.utilisation;
    memory_[h] = hosts[h].gpu.memory_bytes;
  }
  const Parallelism& par = scenario_.job.par;
  schedule_ = build_pipeline_schedule(scenario_.job.schedule, par.pp, std::max(1, cost_.micro_batches));
  link_count_.assign(net_.links(), 0);
  const size_t sd = static_cast<size_t>(par.pp) * par.dp;
  fwd_.assign(sd, 0.0);
  bwd_.assign(sd, 0.0);
  cf_.assign(sd, 0.0);
  cb_.assign(sd, 0.0);
  sf_.assign(par.pp, 0.0);
  sb_.assign(par.pp, 0.0);
  scf_.assign(par.pp, 0.0);
  scb_.assign(par.pp, 0.0);
  last_end_.assign(par.pp, 0.0);
  stage_done_.assign(par.pp, 0.0);
  const size_t max_flows = static_cast<size_t>(par.ranks()) + 1;
  src_.reserve(max_flows);
  dst_.reserve(max_flows);
  times_.reserve(max_flows);
}

bool Evaluator::stage_fits(int stage, int host) const {
  if (!scenario_.job.check_memory) return true;
  return cost_.stages[stage].peak_memory_bytes <= memory_[host];
}

bool Evaluator::fits(int rank, int host) const { return stage_fits(plan_.coord_of(rank).pp, host); }

void Evaluator::concurrent_times(const int* src, const int* dst, int n, double bytes, double* out) const {
  // Count flows per directed link over all concurrent transfers, then give each transfer the share of its most
  // loaded link (approximation 1 in the header). Counts are reset through the same routes afterwards.
  for (int i = 0; i < n; ++i) {
    const Route& r = net_.route(src[i], dst[i]);
    for (int k = 0; k < r.n_links; ++k) ++link_count_[r.links[k]];
  }
  for (int i = 0; i < n; ++i) {
    const Route& r = net_.route(src[i], dst[i]);
    double share = kInf;
    for (int k = 0; k < r.n_links; ++k) {
      const int l = r.links[k];
      share = std::min(share, net_.link_bandwidth_Bps(l) / link_count_[l]);
    }
    out[i] = r.latency_s + bytes / share;
  }
  for (int i = 0; i < n; ++i) {
    const Route& r = net_.route(src[i], dst[i]);
    for (int k = 0; k < r.n_links; ++k) link_count_[r.links[k]] = 0;
  }
}

double Evaluator::ring_allreduce_s(const std::vector<std::vector<int>>& rings, double bytes) const {
  // All rings run at once; each has 2(n-1) steps whose duration is its slowest hop (approximation 2).
  src_.clear();
  dst_.clear();
  int n = 0;
  for (const auto& ring : rings) {
    n = static_cast<int>(ring.size());
    if (n < 2) continue;
    for (int i = 0; i < n; ++i) {
      src_.push_back(ring[i]);
      dst_.push_back(ring[(i + 1) % n]);
    }
  }
  if (src_.empty()) return 0.0;
  // Rings passed here have equal sizes (DP groups of one stage), so one chunk size serves all transfers.
  times_.resize(src_.size());
  concurrent_times(src_.data(), dst_.data(), static_cast<int>(src_.size()), bytes / n, times_.data());
  const double step = *std::max_element(times_.begin(), times_.end());
  return 2.0 * (n - 1) * step;
}

double Evaluator::tree_allreduce_s(const std::vector<std::vector<int>>& groups, double bytes) const {
  // Binary tree over dp order, parent(i) = (i-1)/2 (approximation 4). Reduce: the deepest level first; each
  // level's child->parent messages of all groups are concurrent. Broadcast: the same edges parent->child.
  const int n = groups.empty() ? 0 : static_cast<int>(groups[0].size());
  if (n < 2) return 0.0;
  int max_depth = 0;
  auto depth_of = [](int i) {
    int d = 0;
    while (i > 0) {
      i = (i - 1) / 2;
      ++d;
    }
    return d;
  };
  max_depth = depth_of(n - 1);
  double total = 0.0;
  for (int dir = 0; dir < 2; ++dir) {
    for (int depth = 1; depth <= max_depth; ++depth) {
      src_.clear();
      dst_.clear();
      for (const auto& g : groups)
        for (int i = 1; i < n; ++i) {
          if (depth_of(i) != depth) continue;
          const int parent = (i - 1) / 2;
          src_.push_back(dir == 0 ? g[i] : g[parent]);
          dst_.push_back(dir == 0 ? g[parent] : g[i]);
        }
      times_.resize(src_.size());
      concurrent_times(src_.data(), dst_.data(), static_cast<int>(src_.size()), bytes, times_.data());
      total += *std::max_element(times_.begin(), times_.end());
    }
  }
  return total;
}

double Evaluator::hierarchical_allreduce_s(const std::vector<std::vector<int>>& groups, double bytes) const {
  // Approximation 3. Split every group by region (regions in order of first appearance in dp order).
  if (groups.empty() || groups[0].size() < 2) return 0.0;
  std::vector<std::vector<std::vector<int>>> local(groups.size());  // [group][region slot] -> hosts
  int k = 0, regions = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<int> region_ids;
    for (int h : groups[g]) {
      const int reg = net_.region_of(h);
      auto it = std::find(region_ids.begin(), region_ids.end(), reg);
      size_t idx = static_cast<size_t>(it - region_ids.begin());
      if (it == region_ids.end()) {
        region_ids.push_back(reg);
        local[g].emplace_back();
      }
      local[g][idx].push_back(h);
    }
    regions = std::max(regions, static_cast<int>(region_ids.size()));
    for (const auto& l : local[g]) k = std::max(k, static_cast<int>(l.size()));
  }
  if (regions == 1 || k == 1) return ring_allreduce_s(groups, bytes);
  // Phase 1 (and 3): intra-region ring reduce-scatter, all local rings of all groups concurrently; each local
  // ring of k_r ranks needs (k_r - 1) steps of bytes / k_r.
  src_.clear();
  dst_.clear();
  std::vector<double> chunk;
  std::vector<int> steps;
  for (const auto& lg : local)
    for (const auto& ring : lg) {
      const int n = static_cast<int>(ring.size());
      if (n < 2) continue;
      for (int i = 0; i < n; ++i) {
        src_.push_back(ring[i]);
        dst_.push_back(ring[(i + 1) % n]);
        chunk.push_back(bytes / n);
        steps.push_back(n - 1);
      }
    }
  double phase1 = 0.0;
  if (!src_.empty()) {
    // Sizes may differ per region: evaluate with the largest chunk's contention pattern, then scale per hop.
    times_.resize(src_.size());
    concurrent_times(src_.data(), dst_.data(), static_cast<int>(src_.size()), 0.0, times_.data());
    std::vector<double> lat(times_.begin(), times_.end());
    concurrent_times(src_.data(), dst_.data(), static_cast<int>(src_.size()), 1.0, times_.data());
    for (size_t i = 0; i < src_.size(); ++i) {
      const double per_byte = times_[i] - lat[i];
      phase1 = std::max(phase1, steps[i] * (lat[i] + chunk[i] * per_byte));
    }
  }
  // Phase 2: for each local index i < k a ring over member (i mod k_r) of every region, all at once.
  std::vector<std::vector<int>> rings;
  for (const auto& lg : local)
    for (int i = 0; i < k; ++i) {
      std::vector<int> ring;
      for (const auto& l : lg) ring.push_back(l[i % l.size()]);
      rings.push_back(std::move(ring));
    }
  // Groups may span different numbers of regions; ring_allreduce_s assumes equal sizes, so do them per size.
  double phase2 = 0.0;
  std::vector<std::vector<int>> same;
  for (size_t n = 2; n <= static_cast<size_t>(regions); ++n) {
    same.clear();
    for (const auto& r : rings)
      if (r.size() == n) same.push_back(r);
    if (!same.empty()) phase2 = std::max(phase2, ring_allreduce_s(same, bytes / k));
  }
  return 2.0 * phase1 + phase2;
}

double Evaluator::dp_allreduce_s(int stage, const std::vector<int>& host_of_rank) const {
  const Parallelism& par = scenario_.job.par;
  if (par.dp < 2) return 0.0;
  std::vector<std::vector<int>> groups(par.tp, std::vector<int>(par.dp));
  for (int t = 0; t < par.tp; ++t)
    for (int d = 0; d < par.dp; ++d) groups[t][d] = host_of_rank[plan_.rank_of(stage, d, t)];
  const double bytes = cost_.stages[stage].dp_grad_bytes;
  const std::string& algo = scenario_.job.collective;
  if (algo == "tree") return tree_allreduce_s(groups, bytes);
  if (algo == "hierarchical") return hierarchical_allreduce_s(groups, bytes);
  return ring_allreduce_s(groups, bytes);
}

double Evaluator::iteration_time_s(const Placement& placement) const { return evaluate(placement).iteration_time_s; }

EvalBreakdown Evaluator::evaluate(const Placement& placement) const {
  std::vector<int> hosts(placement.gpu_of_rank.size());
  for (size_t r = 0; r < hosts.size(); ++r) hosts[r] = placement.gpu_of_rank[r].host;
  return evaluate_hosts(hosts);
}

EvalBreakdown Evaluator::evaluate_hosts(const std::vector<int>& host_of_rank) const {
  EvalBreakdown out;
  const Parallelism& par = scenario_.job.par;
  const int P = par.pp, D = par.dp, T = par.tp;
  const int H = net_.hosts();
  if (static_cast<int>(host_of_rank.size()) != par.ranks()) return out;
  for (int r = 0; r < par.ranks(); ++r) {
    const int h = host_of_rank[r];
    if (h < 0 || h >= H) return out;
    if (!fits(r, h)) {
      out.infeasible_rank = r;
      return out;
    }
  }
  const int m = std::max(1, cost_.micro_batches);

  // Stage op times per (stage, replica): compute at the TP group's slowest GPU plus 2 TP all-reduces per layer
  // per pass (approximation 5). TP rings of all replicas of a stage are concurrent (approximation 1).
  std::vector<double>& tp_ar = times_;  // reused below only after tp_ar is consumed
  for (int s = 0; s < P; ++s) {
    const StageCost& st = cost_.stages[s];
    const int first = s * D * T;
    std::vector<double> ring_time(D, 0.0);
    if (T > 1) {
      src_.resize(static_cast<size_t>(D) * T);
      dst_.resize(static_cast<size_t>(D) * T);
      for (int d = 0; d < D; ++d)
        for (int t = 0; t < T; ++t) {
          src_[d * T + t] = host_of_rank[first + d * T + t];
          dst_[d * T + t] = host_of_rank[first + d * T + (t + 1) % T];
        }
      tp_ar.resize(src_.size());
      concurrent_times(src_.data(), dst_.data(), D * T, cost_.tp_allreduce_bytes / T, tp_ar.data());
      for (int d = 0; d < D; ++d) {
        double step = 0.0;
        for (int t = 0; t < T; ++t) step = std::max(step, tp_ar[d * T + t]);
        ring_time[d] = 2.0 * (T - 1) * step;
      }
    }
    for (int d = 0; d < D; ++d) {
      double speed = kInf;
      for (int t = 0; t < T; ++t) speed = std::min(speed, speed_[host_of_rank[first + d * T + t]]);
      const double comp_f = st.fwd_flops_per_mb() / speed;
      const double comm = 2.0 * st.layers * ring_time[d];
      fwd_[s * D + d] = comp_f + comm;
      bwd_[s * D + d] = 2.0 * comp_f + comm;
      out.compute_s = std::max(out.compute_s, m * 3.0 * comp_f);
      out.tp_comm_s = std::max(out.tp_comm_s, m * 2.0 * comm);
    }
  }

  // PP hand-offs: all dp*tp transfers across one boundary at once, each direction separately.
  for (int s = 0; s + 1 < P; ++s) {
    const int n = D * T;
    src_.resize(n);
    dst_.resize(n);
    times_.resize(n);
    for (int dir = 0; dir < 2; ++dir) {
      for (int i = 0; i < n; ++i) {
        const int a = host_of_rank[s * n + i], b = host_of_rank[(s + 1) * n + i];
        src_[i] = dir == 0 ? a : b;
        dst_[i] = dir == 0 ? b : a;
      }
      concurrent_times(src_.data(), dst_.data(), n, cost_.pp_message_bytes, times_.data());
      std::vector<double>& target = dir == 0 ? cf_ : cb_;
      for (int d = 0; d < D; ++d) {
        double worst = 0.0;
        for (int t = 0; t < T; ++t) worst = std::max(worst, times_[d * T + t]);
        target[s * D + d] = worst;
        out.pp_hop_s = std::max(out.pp_hop_s, worst);
      }
    }
  }

  // One critical-path computation per dp replica (approximation 6).
  std::fill(stage_done_.begin(), stage_done_.end(), 0.0);
  double busiest = 0.0;
  for (int d = 0; d < D; ++d) {
    for (int s = 0; s < P; ++s) {
      sf_[s] = fwd_[s * D + d];
      sb_[s] = bwd_[s * D + d];
      scf_[s] = cf_[s * D + d];
      scb_[s] = cb_[s * D + d];
      busiest = std::max(busiest, m * (sf_[s] + sb_[s]));
    }
    const double span = pipeline_makespan_s(schedule_, sf_.data(), sb_.data(), scf_.data(), scb_.data(),
                                            last_end_.data(), pipe_scratch_);
    out.pipeline_s = std::max(out.pipeline_s, span);
    for (int s = 0; s < P; ++s) stage_done_[s] = std::max(stage_done_[s], last_end_[s]);
  }
  out.bubble_s = std::max(0.0, out.pipeline_s - busiest);

  // DP all-reduce of each stage after its last backward; the iteration ends when the last one does.
  double end = 0.0;
  for (int s = 0; s < P; ++s) {
    const double dp = dp_allreduce_s(s, host_of_rank);
    if (stage_done_[s] + dp >= end) {
      end = stage_done_[s] + dp;
      out.dp_comm_s = dp;
    }
  }
  out.iteration_time_s = end;
  out.feasible = true;
  return out;
}

}  // namespace hulk
