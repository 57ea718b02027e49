#include "pipeline_critical_path.hpp"

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
  sc.fwd_link_free.assign(p, 0.0);
  sc.bwd_link_free.assign(p, 0.0);
  std::vector<double>& clock = sc.clock;
  const bool per_link = links.route_links_fwd && links.route_links_bwd && links.link_ids > 0;
  if (per_link) {
    if (static_cast<int>(sc.link_free.size()) < links.link_ids) sc.link_free.assign(links.link_ids, 0.0);
    for (int i = 0; i < 3 * (p - 1); ++i) {  // only these ids are used: resetting them resets the state
      if (links.route_links_fwd[i] >= 0) sc.link_free[links.route_links_fwd[i]] = 0.0;
      if (links.route_links_bwd[i] >= 0) sc.link_free[links.route_links_bwd[i]] = 0.0;
    }
  }
  // Messages are serialised on their links' bandwidth (FIFO), each then pays the latency.
  auto send = [&](double posted, double latency, double transfer, double& boundary_free, const int* route) {
    if (!per_link) {
      const double start = std::max(posted, boundary_free);
      boundary_free = start + transfer;
      return boundary_free + latency;
    }
    double start = posted;
    for (int k = 0; k < 3; ++k)
      if (route[k] >= 0) start = std::max(start, sc.link_free[route[k]]);
    for (int k = 0; k < 3; ++k)
      if (route[k] >= 0) sc.link_free[route[k]] = start + transfer;
    return start + transfer + latency;
  };
  size_t remaining = 2 * n;
  // Event order: always run next the op (among those whose input is known) that ENDS first. Its sends are then
  // posted in global time order, which the per-link FIFO needs (a link can carry messages of several stages).
  // Safe: an op whose input is still unknown waits for an op that has not run, which ends no earlier.
  auto ready_of = [&](int s, const StageOp& op) {
    const size_t idx = static_cast<size_t>(s) * m + op.mb;
    if (!op.backward) return s == 0 ? 0.0 : sc.act_at[idx];
    return s == p - 1 ? sc.f_end[idx] : sc.grad_at[idx];
  };
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
    if (best < 0) throw std::logic_error("pipeline schedule deadlocked (bug in stage_op_orders)");
    const int s = best;
    const StageOp op = schedule[s][sc.next[s]++];
    const size_t idx = static_cast<size_t>(s) * m + op.mb;
    const double end = best_end;
    clock[s] = end;
    if (!op.backward) {
      sc.f_end[idx] = end;
      if (s + 1 < p)
        sc.act_at[idx + m] = send(end, links.latency_fwd_s[s], links.transfer_fwd_s[s], sc.fwd_link_free[s],
                                  per_link ? links.route_links_fwd + 3 * s : nullptr);
    } else if (s > 0) {
      sc.grad_at[idx - m] = send(end, links.latency_bwd_s[s - 1], links.transfer_bwd_s[s - 1],
                                 sc.bwd_link_free[s - 1], per_link ? links.route_links_bwd + 3 * (s - 1) : nullptr);
    }
    --remaining;
  }
  double makespan = 0.0;
  for (int s = 0; s < p; ++s) {
    if (last_end_s) last_end_s[s] = clock[s];
    makespan = std::max(makespan, clock[s]);
  }
  return makespan;
}

}  // namespace hulk
