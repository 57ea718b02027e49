#include "gnn/move_deltas.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/workload/cost_model.hpp"

namespace hulk::gnn {

namespace {

/** Flop per rank per iteration of each stage: forward, backward (twice the forward) and recomputation. */
std::vector<double> stage_work(const Scenario& scenario) {
  const JobCost cost = compute_job_cost(scenario.only_job());
  std::vector<double> out;
  for (const StageCost& s : cost.stages)
    out.push_back(cost.micro_batches *
                  (s.layers * (3.0 * s.layer_fwd_flops + s.recompute_layer_flops) + 3.0 * s.extra_fwd_flops));
  return out;
}

/** Compression of a scaled change: linear near 0 (a few % of an iteration), logarithmic far from it. */
float squash(double x) { return static_cast<float>(std::asinh(20.0 * x) / 2.0); }

}  // namespace

MoveDeltaContext::MoveDeltaContext(const Scenario& scenario, const RouteModel& network, const Placement& placement)
    : hosts_(static_cast<int>(scenario.platform.hosts.size())) {
  const TrafficMatrix t = estimate_traffic(scenario, placement);
  const std::size_t n = static_cast<std::size_t>(hosts_) * hosts_;
  for (auto& b : bytes_) b.assign(n, 0.0);
  inv_bw_.assign(n, 0.0);
  busy_.assign(n, 0.0);
  load_.assign(hosts_, 0.0);
  for (int a = 0; a < hosts_; ++a) {
    const HostSpec& h = scenario.platform.hosts[a];
    region_.push_back(h.region);
    flops_.push_back(std::max(1.0, h.gpu.peak_flops("fp16")));
    for (int c = 0; c < hosts_; ++c) {
      if (a == c) continue;
      const std::size_t i = static_cast<std::size_t>(a) * hosts_ + c;
      const double bw = std::min(network.route(a, c).bandwidth_Bps, network.route(c, a).bandwidth_Bps);
      inv_bw_[i] = 1.0 / std::max(bw, 1.0);
      for (int k = 0; k < 3; ++k) {
        bytes_[k][i] = t.bytes[k][i];
        busy_[i] += t.bytes[k][i] * inv_bw_[i];
        if (a < c) total_bytes_ += t.bytes[k][i];
      }
      load_[a] += busy_[i];
      if (a < c) pair_order_.emplace_back(a, c);
    }
  }
  // Most loaded first; ties by (a, c), so the order is the same on any machine.
  std::stable_sort(pair_order_.begin(), pair_order_.end(),
                   [this](const auto& x, const auto& y) { return busy(x.first, x.second) > busy(y.first, y.second); });
  max_pair_ = pair_order_.empty() ? 0.0 : busy(pair_order_.front().first, pair_order_.front().second);
  max_load_ = load_.empty() ? 0.0 : *std::max_element(load_.begin(), load_.end());
  stage_work_ = stage_work(scenario);
  const int per_stage = scenario.only_job().par.dp * scenario.only_job().par.tp;
  stage_hosts_.assign(stage_work_.size(), {});
  for (std::size_t r = 0; r < placement.gpu_of_rank.size(); ++r) {
    auto& hs = stage_hosts_[r / static_cast<std::size_t>(per_stage)];
    const int h = placement.gpu_of_rank[r].host;
    if (std::find(hs.begin(), hs.end(), h) == hs.end()) hs.push_back(h);
  }
  const std::array<double, 2> compute = stage_compute_after(-1, -1);
  max_stage_ = compute[0];
  mean_stage_ = compute[1];
  scale_s_ = std::max(max_stage_ + max_load_, 1e-9);
}

double MoveDeltaContext::max_pair_without(int a, int b) const {
  for (const auto& [x, y] : pair_order_)
    if (x != a && x != b && y != a && y != b) return busy(x, y);
  return 0.0;
}

std::array<double, 2> MoveDeltaContext::stage_compute_after(int a, int b) const {
  double worst = 0, sum = 0;
  for (std::size_t s = 0; s < stage_hosts_.size(); ++s) {
    double slowest = std::numeric_limits<double>::infinity();
    for (const int h : stage_hosts_[s]) slowest = std::min(slowest, flops_[h == a ? b : h == b ? a : h]);
    const double t = stage_hosts_[s].empty() ? 0.0 : stage_work_[s] / slowest;
    worst = std::max(worst, t);
    sum += t;
  }
  return {worst, stage_hosts_.empty() ? 0.0 : sum / static_cast<double>(stage_hosts_.size())};
}

std::array<double, kMoveDeltaFeatures> MoveDeltaContext::raw_deltas(int a, int b) const {
  std::array<double, kMoveDeltaFeatures> d{};
  double max_pair = std::max(max_pair_without(a, b), busy(a, b));
  double load_a = busy(a, b), load_b = busy(a, b), max_other = 0, wan = 0;
  for (int c = 0; c < hosts_; ++c) {
    if (c == a || c == b) continue;
    double new_ac = 0, new_bc = 0;  // a now holds b's ranks: b's traffic with c on the route (a, c), and the reverse
    for (int k = 0; k < 3; ++k) {
      const double ac = bytes(k, a, c), bc = bytes(k, b, c);
      new_ac += bc * inv_bw(a, c);
      new_bc += ac * inv_bw(b, c);
      d[2 + k] += bc * inv_bw(a, c) + ac * inv_bw(b, c) - ac * inv_bw(a, c) - bc * inv_bw(b, c);
      wan += bc * (region_[a] != region_[c]) + ac * (region_[b] != region_[c]) - ac * (region_[a] != region_[c]) -
             bc * (region_[b] != region_[c]);
    }
    max_pair = std::max({max_pair, new_ac, new_bc});
    load_a += new_ac;
    load_b += new_bc;
    max_other = std::max(max_other, load_[c] - busy(a, c) - busy(b, c) + new_ac + new_bc);
  }
  d[0] = max_pair - max_pair_;
  d[1] = std::max({load_a, load_b, max_other}) - max_load_;
  d[5] = wan;
  const std::array<double, 2> compute = stage_compute_after(a, b);
  d[6] = compute[0] - max_stage_;
  d[7] = compute[1] - mean_stage_;
  return d;
}

std::array<float, kMoveDeltaFeatures> MoveDeltaContext::features(int a, int b) const {
  const std::array<double, kMoveDeltaFeatures> d = raw_deltas(a, b);
  std::array<float, kMoveDeltaFeatures> f{};
  for (int k = 0; k < kMoveDeltaFeatures; ++k)
    f[k] = squash(k == 5 ? d[k] / std::max(total_bytes_, 1.0) : d[k] / scale_s_);
  return f;
}

}  // namespace hulk::gnn
