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
                           const double* comm_fwd_s, const double* comm_bwd_s, double* last_end_s,
                           PipelineScratch& sc) {
  const int p = static_cast<int>(schedule.size());
  if (p == 0) return 0.0;
  const int m = static_cast<int>(schedule[0].size() / 2);
  const size_t n = static_cast<size_t>(p) * m;
  sc.f_end.assign(n, -1.0);
  sc.b_end.assign(n, -1.0);
  sc.next.assign(p, 0);
  sc.clock.assign(p, 0.0);
  std::vector<double>& clock = sc.clock;
  size_t remaining = 2 * n;
  // Sweep the stages, each advancing while its next op's input is available. Both schedules are deadlock-free,
  // so every sweep makes progress; O((m + p) * p) sweeps in the worst case, each cheap.
  while (remaining > 0) {
    bool progress = false;
    for (int s = 0; s < p; ++s) {
      const auto& ops = schedule[s];
      size_t& k = sc.next[s];
      while (k < ops.size()) {
        const StageOp op = ops[k];
        double ready;
        if (!op.backward) {
          if (s == 0) {
            ready = 0.0;
          } else {
            const double prev = sc.f_end[static_cast<size_t>(s - 1) * m + op.mb];
            if (prev < 0) break;
            ready = prev + comm_fwd_s[s - 1];
          }
        } else {
          if (s == p - 1) {
            ready = sc.f_end[static_cast<size_t>(s) * m + op.mb];
            if (ready < 0) break;  // cannot happen with the schedules above (F(j) precedes B(j))
          } else {
            const double next = sc.b_end[static_cast<size_t>(s + 1) * m + op.mb];
            if (next < 0) break;
            ready = next + comm_bwd_s[s];
          }
        }
        const double start = std::max(clock[s], ready);
        const double end = start + (op.backward ? bwd_s[s] : fwd_s[s]);
        clock[s] = end;
        (op.backward ? sc.b_end : sc.f_end)[static_cast<size_t>(s) * m + op.mb] = end;
        ++k;
        --remaining;
        progress = true;
      }
    }
    if (!progress) throw std::logic_error("pipeline schedule deadlocked (bug in stage_op_orders)");
  }
  double makespan = 0.0;
  for (int s = 0; s < p; ++s) {
    if (last_end_s) last_end_s[s] = clock[s];
    makespan = std::max(makespan, clock[s]);
  }
  return makespan;
}

}  // namespace hulk
