#include "sim/evaluate/transfer_fluid.hpp"

#include <algorithm>
#include <limits>

namespace hulk {

void TransferFluid::clear() {
  t_.clear();
  edges_.clear();
}

int TransferFluid::add(int src_host, int dst_host, double bytes, double ready_s) {
  t_.push_back({src_host, dst_host, bytes, ready_s});
  return static_cast<int>(t_.size()) - 1;
}

void TransferFluid::after(int later, int first, bool on_left) {
  if (first >= 0) edges_.push_back({first, later, on_left});
}

void TransferFluid::run(const RouteModel& net, double tcp_window_bytes, bool latency_at_receiver) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const int n = static_cast<int>(t_.size());
  // Successor lists (CSR), in insertion order.
  succ_begin_.assign(n + 1, 0);
  for (const auto& e : edges_) ++succ_begin_[e.first + 1];
  succ_on_left_.assign(edges_.size(), 0);
  for (int i = 0; i < n; ++i) succ_begin_[i + 1] += succ_begin_[i];
  succ_.assign(edges_.size(), 0);
  preds_left_.assign(n, 0);
  {
    std::vector<int>& fill = active_;  // scratch
    fill.assign(succ_begin_.begin(), succ_begin_.end() - 1);
    for (const auto& e : edges_) {
      succ_on_left_[fill[e.first]] = e.on_left;
      succ_[fill[e.first]++] = e.later;
      ++preds_left_[e.later];
    }
  }
  active_.clear();
  arrive_.assign(n, -1.0);
  remaining_.assign(n, 0.0);
  rate_.assign(n, 0.0);
  start_at_.assign(n, 0.0);
  state_.assign(n, 0);
  if (static_cast<int>(link_count_.size()) < net.links()) link_count_.assign(net.links(), 0);
  ready_.clear();
  for (int i = 0; i < n; ++i) {
    remaining_[i] = t_[i].bytes;
    start_at_[i] = t_[i].ready_s;
    if (preds_left_[i] == 0) ready_.push_back(i);
  }
  auto cap_of = [&](const Route& r) {
    double cap = r.flow_cap_Bps;
    if (tcp_window_bytes > 0 && r.latency_s > 0) cap = std::min(cap, tcp_window_bytes / (2.0 * r.latency_s));
    return cap;
  };
  auto refresh = [&]() {
    for (int i : active_) {
      const Route& r = net.route(t_[i].src, t_[i].dst);
      double rate = cap_of(r);
      for (int k = 0; k < r.n_links; ++k)
        rate = std::min(rate, net.link_bandwidth_Bps(r.links[k]) / link_count_[r.links[k]]);
      rate_[i] = rate;
    }
  };
  auto count = [&](int i, int delta) {
    const Route& r = net.route(t_[i].src, t_[i].dst);
    for (int k = 0; k < r.n_links; ++k) link_count_[r.links[k]] += delta;
  };
  double now = 0.0;
  int done = 0;
  while (done < n) {
    // Earliest event: a waiting transfer whose predecessors arrived starts (or, links carrying the latency, begins
    // using bandwidth), or a transfer's last byte leaves.
    double best_t = kInf;
    int best = -1;
    int best_ready = -1;
    for (size_t k = 0; k < ready_.size(); ++k) {
      const double t = std::max(now, start_at_[ready_[k]]);
      if (t < best_t) best_t = t, best = ready_[k], best_ready = static_cast<int>(k);
    }
    for (int i : active_) {
      const double t = now + remaining_[i] / rate_[i];
      if (t < best_t) best_t = t, best = i, best_ready = -1;
    }
    if (best < 0) break;  // a dependency cycle (not built by the callers)
    for (int i : active_) remaining_[i] = std::max(0.0, remaining_[i] - (best_t - now) * rate_[i]);
    now = best_t;
    if (state_[best] == 0 && !latency_at_receiver) {
      state_[best] = 1;
      start_at_[best] = now + net.route(t_[best].src, t_[best].dst).latency_s;
      continue;
    }
    if (state_[best] <= 1) {
      ready_.erase(ready_.begin() + best_ready);
      if (remaining_[best] > 0) {
        state_[best] = 2;
        active_.push_back(best);
        count(best, +1);
        refresh();
        continue;
      }
    } else {
      active_.erase(std::find(active_.begin(), active_.end(), best));
      count(best, -1);
      refresh();
    }
    state_[best] = 3;
    ++done;
    const double arrive = latency_at_receiver ? now + net.route(t_[best].src, t_[best].dst).latency_s : now;
    arrive_[best] = arrive;
    for (int k = succ_begin_[best]; k < succ_begin_[best + 1]; ++k) {
      const int s = succ_[k];
      start_at_[s] = std::max(start_at_[s], succ_on_left_[k] ? now : arrive);
      if (--preds_left_[s] == 0) ready_.push_back(s);
    }
  }
  for (int i : active_) count(i, -1);
  active_.clear();
}

}  // namespace hulk
