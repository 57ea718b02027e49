// Stage co-busy shares (stage_co_busy.hpp): the schedule's pipeline with unit ops, then the overlap of every pair
// of stages' busy intervals. In GPipe, stages k apart share m - k of their m forward slots (and as many backward);
// in 1F1B's steady state every stage is busy at once. One share for all pairs (busy m / (m + p - 1)) overweighs far
// stages of GPipe and underweighs 1F1B's.
#include "sim/evaluate/stage_co_busy.hpp"

#include <algorithm>

namespace hulk {
namespace {

struct Span {
  double begin, end;
};

/** Busy intervals of every stage (in op order) of the unit pipeline; empty if an op waits forever. */
std::vector<std::vector<Span>> unit_pipeline(const std::vector<std::vector<StageOp>>& schedule, double backward_cost) {
  const int P = static_cast<int>(schedule.size());
  int m = 0;
  for (const auto& ops : schedule)
    for (const StageOp& op : ops) m = std::max(m, op.mb + 1);
  // Done time of every (stage, micro-batch) forward and backward; -1 until it ran.
  std::vector<double> fwd(static_cast<size_t>(P) * m, -1.0), bwd(fwd);
  std::vector<std::vector<Span>> busy(P);
  std::vector<size_t> next(P, 0);
  std::vector<double> free_at(P, 0.0);
  for (bool progress = true; progress;) {
    progress = false;
    for (int s = 0; s < P; ++s)
      while (next[s] < schedule[s].size()) {
        const StageOp& op = schedule[s][next[s]];
        const size_t at = static_cast<size_t>(s) * m + op.mb;
        // A forward needs the previous stage's; a backward the next stage's (the last stage: its own forward).
        const double dep = op.backward ? (s + 1 < P ? bwd[at + m] : fwd[at]) : (s > 0 ? fwd[at - m] : 0.0);
        if (dep < 0) break;
        const double begin = std::max(free_at[s], dep);
        free_at[s] = begin + (op.backward ? backward_cost : 1.0);
        (op.backward ? bwd : fwd)[at] = free_at[s];
        busy[s].push_back({begin, free_at[s]});
        ++next[s];
        progress = true;
      }
  }
  for (int s = 0; s < P; ++s)
    if (next[s] < schedule[s].size()) return {};
  return busy;
}

/** Total length of the intersection of two sorted lists of disjoint intervals. */
double overlap(const std::vector<Span>& a, const std::vector<Span>& b) {
  double total = 0.0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    total += std::max(0.0, std::min(a[i].end, b[j].end) - std::max(a[i].begin, b[j].begin));
    (a[i].end < b[j].end ? i : j)++;
  }
  return total;
}

}  // namespace

std::vector<double> stage_co_busy(const std::vector<std::vector<StageOp>>& schedule, double backward_cost) {
  const int P = static_cast<int>(schedule.size());
  if (P < 2) return {};
  for (const auto& ops : schedule)
    for (const StageOp& op : ops)
      if (op.chunk != 0) return {};
  const std::vector<std::vector<Span>> busy = unit_pipeline(schedule, backward_cost);
  if (busy.empty()) return {};
  std::vector<double> co(static_cast<size_t>(P) * P, 0.0);
  for (int s = 0; s < P; ++s) {
    double own = 0.0;
    for (const Span& x : busy[s]) own += x.end - x.begin;
    for (int o = 0; o < P; ++o)
      co[static_cast<size_t>(s) * P + o] = own > 0 && o != s ? overlap(busy[s], busy[o]) / own : 0.0;
  }
  return co;
}

}  // namespace hulk
