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

void TransferFluid::build_successors() {
  // Successor lists (CSR), in insertion order.
  const int n = static_cast<int>(t_.size());
  succ_begin_.assign(n + 1, 0);
  for (const auto& e : edges_) ++succ_begin_[e.first + 1];
  succ_on_left_.assign(edges_.size(), 0);
  for (int i = 0; i < n; ++i) succ_begin_[i + 1] += succ_begin_[i];
  succ_.assign(edges_.size(), 0);
  preds_left_.assign(n, 0);
  std::vector<int>& fill = active_;  // scratch
  fill.assign(succ_begin_.begin(), succ_begin_.end() - 1);
  for (const auto& e : edges_) {
    succ_on_left_[fill[e.first]] = e.on_left;
    succ_[fill[e.first]++] = e.later;
    ++preds_left_[e.later];
  }
  active_.clear();
}

namespace {

// Heap orders (std heaps keep the largest first, so these compare "later").
bool later_start(const TransferFluid::Pending& a, const TransferFluid::Pending& b) {
  return a.start_at != b.start_at ? a.start_at > b.start_at : a.seq > b.seq;
}
bool later_seq(const TransferFluid::Pending& a, const TransferFluid::Pending& b) { return a.seq > b.seq; }

}  // namespace

void TransferFluid::prepare(const RouteModel& net, double tcp_window_bytes) {
  const int n = static_cast<int>(t_.size());
  build_successors();
  arrive_.assign(n, -1.0);
  remaining_.assign(n, 0.0);
  rate_.assign(n, 0.0);
  start_at_.assign(n, 0.0);
  state_.assign(n, 0);
  route_.resize(n);
  cap_.resize(n);
  if (static_cast<int>(link_count_.size()) < net.links()) {
    link_count_.assign(net.links(), 0);
    on_link_.resize(net.links());
  }
  waiting_.clear();
  due_.clear();
  next_seq_ = 0;
  for (int i = 0; i < n; ++i) {
    remaining_[i] = t_[i].bytes;
    start_at_[i] = t_[i].ready_s;
    route_[i] = net.route(t_[i].src, t_[i].dst);
    double cap = route_[i].flow_cap_Bps;
    if (tcp_window_bytes > 0 && route_[i].latency_s > 0)
      cap = std::min(cap, tcp_window_bytes / (2.0 * route_[i].latency_s));
    cap_[i] = cap;
    if (preds_left_[i] == 0) make_ready(i);
  }
}

void TransferFluid::make_ready(int i) {
  waiting_.push_back({start_at_[i], next_seq_++, i});
  std::push_heap(waiting_.begin(), waiting_.end(), later_start);
}

double TransferFluid::rate_of(int i) const {
  const Route& r = route_[i];
  double rate = cap_[i];
  for (int k = 0; k < r.n_links; ++k) {
    const int l = r.links[k];
    // Without divisors the expression is the one-job one, bit for bit.
    const double capacity = divisors_ ? net_->link_bandwidth_Bps(l) / (*divisors_)[l] : net_->link_bandwidth_Bps(l);
    rate = std::min(rate, capacity / link_count_[l]);
  }
  return rate;
}

void TransferFluid::refresh(int changed) {
  // Link counts changed on `changed`'s links only: only the flows on one of them get a new rate (the others' would
  // be recomputed to the same value).
  const Route& c = route_[changed];
  for (int k = 0; k < c.n_links; ++k)
    for (int i : on_link_[c.links[k]]) rate_[i] = rate_of(i);
}

void TransferFluid::count(int i, int delta) {
  const Route& r = route_[i];
  for (int k = 0; k < r.n_links; ++k) {
    const int l = r.links[k];
    link_count_[l] += delta;
    std::vector<int>& flows = on_link_[l];
    if (delta > 0)
      flows.push_back(i);
    else
      flows.erase(std::find(flows.begin(), flows.end(), i));
  }
}

int TransferFluid::next_ready(double now, double& t, bool& from_due) {
  // Ready transfers (predecessors all arrived), in the order they became ready (seq): the next to start is the
  // first whose start time has come (due_, by seq) or else the earliest start (waiting_, by start time then seq):
  // what a scan of the ready list in that order finds, without scanning it at every event.
  while (!waiting_.empty() && waiting_.front().start_at <= now) {
    due_.push_back(waiting_.front());
    std::pop_heap(waiting_.begin(), waiting_.end(), later_start);
    waiting_.pop_back();
    std::push_heap(due_.begin(), due_.end(), later_seq);
  }
  from_due = !due_.empty();
  if (from_due) {
    t = now;
    return due_.front().i;
  }
  if (!waiting_.empty() && waiting_.front().start_at < std::numeric_limits<double>::infinity()) {
    t = waiting_.front().start_at;
    return waiting_.front().i;
  }
  return -1;
}

TransferFluid::Pending TransferFluid::take_ready(bool from_due) {
  std::vector<Pending>& heap = from_due ? due_ : waiting_;
  const Pending p = heap.front();
  std::pop_heap(heap.begin(), heap.end(), from_due ? later_seq : later_start);
  heap.pop_back();
  return p;
}

void TransferFluid::run(const RouteModel& net, double tcp_window_bytes, bool latency_at_receiver,
                        const std::vector<double>* link_divisors) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  net_ = &net;
  divisors_ = link_divisors;
  prepare(net, tcp_window_bytes);
  const int n = static_cast<int>(t_.size());
  double now = 0.0;
  int done = 0;
  while (done < n) {
    // Earliest event: a ready transfer starts (or, links carrying the latency, begins using bandwidth), or a
    // transfer's last byte leaves. Ready transfers win ties, then the earlier active one.
    double best_t = kInf;
    bool from_due = false;
    int best = next_ready(now, best_t, from_due);
    bool chose_ready = best >= 0;
    for (int i : active_) {
      const double t = now + remaining_[i] / rate_[i];
      if (t < best_t) best_t = t, best = i, chose_ready = false;
    }
    if (best < 0) break;  // a dependency cycle (not built by the callers)
    for (int i : active_) remaining_[i] = std::max(0.0, remaining_[i] - (best_t - now) * rate_[i]);
    now = best_t;
    if (chose_ready) {
      Pending p = take_ready(from_due);
      if (state_[best] == 0 && !latency_at_receiver) {  // the latency first: ready again at its new start time
        state_[best] = 1;
        start_at_[best] = now + route_[best].latency_s;
        p.start_at = start_at_[best];
        waiting_.push_back(p);
        std::push_heap(waiting_.begin(), waiting_.end(), later_start);
        continue;
      }
      if (remaining_[best] > 0) {
        state_[best] = 2;
        active_.push_back(best);
        count(best, +1);
        refresh(best);
        rate_[best] = rate_of(best);
        continue;
      }
    } else {
      active_.erase(std::find(active_.begin(), active_.end(), best));
      count(best, -1);
      refresh(best);
    }
    state_[best] = 3;
    ++done;
    const double arrive = latency_at_receiver ? now + route_[best].latency_s : now;
    arrive_[best] = arrive;
    for (int k = succ_begin_[best]; k < succ_begin_[best + 1]; ++k) {
      const int s = succ_[k];
      start_at_[s] = std::max(start_at_[s], succ_on_left_[k] ? now : arrive);
      if (--preds_left_[s] == 0) make_ready(s);
    }
  }
  for (int i : active_) count(i, -1);
  active_.clear();
}

}  // namespace hulk
