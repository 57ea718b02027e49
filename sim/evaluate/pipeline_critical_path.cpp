#include "sim/evaluate/pipeline_critical_path.hpp"

#include <algorithm>
#include <stdexcept>

namespace hulk {

std::vector<std::vector<StageOp>> stage_op_orders(const std::string& schedule, int stages, int micro_batches) {
  const int p = stages, m = micro_batches;
  std::vector<std::vector<StageOp>> out(p);
  for (int s = 0; s < p; ++s) {
    auto& ops = out[s];
    ops.reserve(2 * static_cast<size_t>(m));
    if (schedule == "gpipe") {
      for (int j = 0; j < m; ++j) ops.push_back({false, j});
      for (int j = 0; j < m; ++j) ops.push_back({true, j});
    } else {
      const int w = std::min(p - s - 1, m);
      for (int j = 0; j < w; ++j) ops.push_back({false, j});
      for (int i = 0; i < m - w; ++i) {
        ops.push_back({false, w + i});
        ops.push_back({true, i});
      }
      for (int j = m - w; j < m; ++j) ops.push_back({true, j});
    }
  }
  return out;
}

double pipeline_makespan_s(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
                           const PipelineLinks& links, double* last_end_s, PipelineScratch& sc) {
  const int p = static_cast<int>(schedule.size());
  if (p == 0) return 0.0;
  const int m = static_cast<int>(schedule[0].size() / 2);
  const size_t n = static_cast<size_t>(p) * m;
  // act_at[s*m+j]: activation j available at stage s; grad_at[s*m+j]: gradient j available at stage s.
  sc.act_at.assign(n, -1.0);
  sc.grad_at.assign(n, -1.0);
  sc.f_end.assign(n, -1.0);
  sc.next.assign(p, 0);
  sc.clock.assign(p, 0.0);
  sc.active.clear();
  std::vector<double>& clock = sc.clock;
  const bool shared = links.route_links_fwd && links.route_links_bwd && links.link_ids > 0;
  if (shared && static_cast<int>(sc.flows_on_link.size()) < links.link_ids) sc.flows_on_link.assign(links.link_ids, 0);

  // Messages in flight (SimGrid CM02 order): first the route latency, during which they use no bandwidth, then
  // the transfer, progressing in "alone seconds": alone on its links a message needs transfer_*; with k active
  // messages of this pipeline on its busiest link it progresses at 1/k (processor sharing, as SimGrid's fair
  // sharing). Rates change only at events, so progress is linear between events.
  double now = 0.0;
  auto rate_of = [&](const PipelineScratch::Flight& f) {
    int k = 1;
    for (int i = 0; i < 3; ++i)
      if (f.links[i] >= 0) k = std::max(k, sc.flows_on_link[f.links[i]]);
    return 1.0 / k;
  };
  auto count = [&](const PipelineScratch::Flight& f, int delta) {
    for (int i = 0; i < 3; ++i)
      if (f.links[i] >= 0) sc.flows_on_link[f.links[i]] += delta;
  };
  // Rates are cached per flight and refreshed whenever a link's flow count changes.
  auto refresh = [&]() {
    for (auto& f : sc.active)
      if (f.transferring) f.rate = rate_of(f);
  };
  auto advance = [&](double t) {
    if (t > now)
      for (auto& f : sc.active)
        if (f.transferring) f.remaining_s -= (t - now) * f.rate;
    now = std::max(now, t);
  };
  auto post = [&](double t, double latency, double transfer, const int* route, double* target, int sender) {
    if (!shared || transfer <= 0.0) {  // no sharing model: independent transfers
      *target = t + latency + transfer;
      return;
    }
    advance(t);
    PipelineScratch::Flight f{transfer, latency, {route[0], route[1], route[2]}, target, sender, t + latency, false, 1.0};
    sc.active.push_back(f);
  };

  size_t remaining = 2 * n;
  auto ready_of = [&](int s, const StageOp& op) {
    const size_t idx = static_cast<size_t>(s) * m + op.mb;
    if (!op.backward) return s == 0 ? 0.0 : sc.act_at[idx];
    return s == p - 1 ? sc.f_end[idx] : sc.grad_at[idx];
  };
  // Event loop: the earliest of (a) an op end, among ops whose input is known, and (b) a transfer end. An op whose
  // input is unknown waits for a message not yet delivered, so it cannot end before the events considered.
  while (remaining > 0) {
    int best = -1;
    double best_end = 0.0;
    for (int s = 0; s < p; ++s) {
      if (sc.next[s] >= schedule[s].size()) continue;
      const StageOp& op = schedule[s][sc.next[s]];
      const double ready = ready_of(s, op);
      if (ready < 0) continue;
      const double end = std::max(clock[s], ready) + (op.backward ? bwd_s[s] : fwd_s[s]);
      if (best < 0 || end < best_end) {
        best = s;
        best_end = end;
      }
    }
    // Next flight event: a message whose latency (or DP-drain pause) elapsed starts transferring, or one ends.
    int flight = -1;
    double flight_t = 0.0;
    for (size_t i = 0; i < sc.active.size(); ++i) {
      const auto& f = sc.active[i];
      const double t = f.transferring ? now + std::max(0.0, f.remaining_s) / f.rate : std::max(now, f.start_at);
      if (flight < 0 || t < flight_t) {
        flight = static_cast<int>(i);
        flight_t = t;
      }
    }
    if (flight >= 0 && (best < 0 || flight_t <= best_end)) {
      advance(flight_t);
      PipelineScratch::Flight& f = sc.active[flight];
      if (!f.transferring) {
        f.transferring = true;
        count(f, +1);
      } else {
        count(f, -1);
        *f.target = flight_t;
        sc.active.erase(sc.active.begin() + flight);
      }
      refresh();
      continue;
    }
    if (best < 0) throw std::logic_error("pipeline schedule deadlocked (bug in stage_op_orders)");
    const int s = best;
    const StageOp op = schedule[s][sc.next[s]++];
    const size_t idx = static_cast<size_t>(s) * m + op.mb;
    const double end = best_end;
    clock[s] = end;
    if (!op.backward) {
      sc.f_end[idx] = end;
      if (s + 1 < p)
        post(end, links.latency_fwd_s[s], links.transfer_fwd_s[s], shared ? links.route_links_fwd + 3 * s : nullptr,
             &sc.act_at[idx + m], s);
    } else if (s > 0) {
      post(end, links.latency_bwd_s[s - 1], links.transfer_bwd_s[s - 1],
           shared ? links.route_links_bwd + 3 * (s - 1) : nullptr, &sc.grad_at[idx - m], s);
    }
    if (sc.next[s] == schedule[s].size() && links.drain_pause_s && links.drain_pause_s[s] > 0) {
      // The stage's DP all-reduce starts now and starves its long-latency messages still in flight.
      for (auto& f : sc.active)
        if (f.sender == s && f.latency_s > links.drain_latency_threshold_s[s]) {
          if (f.transferring) {  // stops using bandwidth until the all-reduce ends
            count(f, -1);
            f.transferring = false;
          }
          f.start_at = std::max(f.start_at, end + links.drain_pause_s[s]);
        }
      refresh();
    }
    --remaining;
  }
  // Drain (the last messages only matter for the link state; the ops are all done).
  for (const auto& f : sc.active)
    if (f.transferring) count(f, -1);
  sc.active.clear();
  double makespan = 0.0;
  for (int s = 0; s < p; ++s) {
    if (last_end_s) last_end_s[s] = clock[s];
    makespan = std::max(makespan, clock[s]);
  }
  return makespan;
}

}  // namespace hulk
