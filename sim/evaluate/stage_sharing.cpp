#include "sim/evaluate/stage_sharing.hpp"

#include <algorithm>
#include <limits>

namespace hulk {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

void StageBundles::clear() {
  capacity.clear();
  first.assign(1, 0);
  link.clear();
  flows.clear();
  rate_cap.clear();
  start.clear();
  alone.clear();
  fixed.clear();
}

void max_min_stage_rates(const StageBundles& b, const std::vector<char>& active, StageSharingScratch& x,
                         std::vector<double>& rate) {
  // Progressive filling: every unfrozen stage's rate grows by the same step until a link is full or a stage reaches
  // its cap; the stages on a full link (or at their cap) keep their rate. Each round freezes at least one stage.
  const int P = b.stages();
  x.room = b.capacity;
  x.load.assign(b.capacity.size(), 0.0);
  x.frozen.assign(P, 1);
  rate.assign(P, 0.0);
  int unfrozen = 0;
  for (int s = 0; s < P; ++s) {
    if (!active[s]) continue;
    x.frozen[s] = 0;
    ++unfrozen;
    for (int e = b.first[s]; e < b.first[s + 1]; ++e) x.load[b.link[e]] += b.flows[e];
  }
  while (unfrozen > 0) {
    double step = kInf;
    for (int s = 0; s < P; ++s)
      if (!x.frozen[s]) step = std::min(step, b.rate_cap[s] - rate[s]);
    for (std::size_t l = 0; l < x.load.size(); ++l)
      if (x.load[l] > 0) step = std::min(step, x.room[l] / x.load[l]);
    if (!(step < kInf)) {  // no link and no cap: unbounded (the caller's stage has no bandwidth part)
      for (int s = 0; s < P; ++s)
        if (!x.frozen[s]) rate[s] = kInf;
      return;
    }
    step = std::max(0.0, step);
    for (int s = 0; s < P; ++s)
      if (!x.frozen[s]) rate[s] += step;
    for (std::size_t l = 0; l < x.load.size(); ++l) x.room[l] -= step * x.load[l];
    for (int s = 0; s < P; ++s) {
      if (x.frozen[s]) continue;
      bool full = rate[s] >= b.rate_cap[s] * (1 - 1e-12);
      for (int e = b.first[s]; e < b.first[s + 1] && !full; ++e)
        full = x.room[b.link[e]] <= 1e-12 * b.capacity[b.link[e]];
      if (!full) continue;
      x.frozen[s] = 1;
      --unfrozen;
      for (int e = b.first[s]; e < b.first[s + 1]; ++e) x.load[b.link[e]] -= b.flows[e];
    }
  }
}

void shared_stage_times(const StageBundles& b, StageSharingScratch& x, std::vector<double>& out) {
  const int P = b.stages();
  out.assign(P, 0.0);
  x.alone_rate.assign(P, kInf);
  x.left.assign(P, 0.0);
  x.active.assign(P, 0);
  std::vector<char> pending(P, 0);
  int waiting = 0;
  for (int s = 0; s < P; ++s) {
    if (b.alone[s] <= 0) continue;
    double r = b.rate_cap[s];
    for (int e = b.first[s]; e < b.first[s + 1]; ++e) r = std::min(r, b.capacity[b.link[e]] / b.flows[e]);
    x.alone_rate[s] = r;
    x.left[s] = b.alone[s];
    out[s] = b.alone[s];
    pending[s] = 1;
    ++waiting;
  }
  double now = kInf;
  for (int s = 0; s < P; ++s)
    if (pending[s]) now = std::min(now, b.start[s]);
  std::vector<double> speed(P, 0.0);
  int running = 0;
  while (waiting > 0 || running > 0) {
    for (int s = 0; s < P; ++s)
      if (pending[s] && b.start[s] <= now) pending[s] = 0, --waiting, x.active[s] = 1, ++running;
    max_min_stage_rates(b, x.active, x, x.rate);
    // The next event: a stage starts, or the first active one to finish its progress.
    double next = kInf;
    for (int s = 0; s < P; ++s)
      if (pending[s]) next = std::min(next, b.start[s]);
    int finishing = -1;
    for (int s = 0; s < P; ++s) {
      if (!x.active[s]) continue;
      const double fixed = std::clamp(b.fixed[s] / b.alone[s], 0.0, 1.0);
      const double slow = x.rate[s] >= x.alone_rate[s] ? 1.0 : x.alone_rate[s] / x.rate[s];
      speed[s] = 1.0 / (fixed + (1 - fixed) * slow);
      const double t = now + x.left[s] / speed[s];
      if (t < next) next = t, finishing = s;
    }
    for (int s = 0; s < P; ++s)
      if (x.active[s]) x.left[s] -= (next - now) * speed[s];
    now = next;
    for (int s = 0; s < P; ++s) {
      if (!x.active[s] || (s != finishing && x.left[s] > 1e-12 * b.alone[s])) continue;
      x.active[s] = 0;
      --running;
      out[s] = std::max(b.alone[s], now - b.start[s]);
    }
  }
}

}  // namespace hulk
