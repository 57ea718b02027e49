#include "sim/evaluate/iteration_tail.hpp"

#include <algorithm>
#include <cstring>

namespace hulk {

namespace {

/** Time of one hop of `bytes` over route r alone: latency + bytes / its bandwidth. */
double hop_s(const Route& r, double bytes) {
  const double bw = std::min(r.bandwidth_Bps, r.flow_cap_Bps > 0 ? r.flow_cap_Bps : r.bandwidth_Bps);
  return r.latency_s + (bw > 0 ? bytes / bw : 0.0);
}

/** Whether a and b hold the same values bit for bit (-0.0 and 0.0 differ, as they may in the recurrence). */
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

/** The ring all-reduce of `bytes` over `hosts` (in ring order) as the engine runs it (ring_steps.hpp): member j
 *  enters at s.start[j] and is done at s.end[j]. hop_s: each hop's time for bytes / n, or null to take the hops
 *  alone on their links. */
void ring_allreduce_from(const TailContext& ctx, double bytes, const double* hop_times, TailScratch& s) {
  const int n = static_cast<int>(s.hosts.size());
  s.hop.resize(n);
  s.lat.resize(n);
  for (int j = 0; j < n; ++j) {
    const Route& r = ctx.routes->route(s.hosts[j], s.hosts[(j + 1) % n]);
    s.hop[j] = hop_times ? hop_times[j] : hop_s(r, bytes / n);
    s.lat[j] = r.latency_s;
  }
  // The same inputs give the same ends (the recurrence is a function of them): reuse the last ring's.
  if (same_bits(s.hop, s.memo_hop) && same_bits(s.lat, s.memo_lat) && same_bits(s.start, s.memo_start)) {
    s.end = s.memo_end;
    return;
  }
  s.end.resize(n);
  ring_steps_from(s.hop.data(), s.lat.data(), n, 2 * (n - 1), ctx.ring, s.start.data(), s.end.data(), s.ring);
  s.memo_hop = s.hop;
  s.memo_lat = s.lat;
  s.memo_start = s.start;
  s.memo_end = s.end;
}

}  // namespace

double iteration_end_with_tail(const TailContext& ctx, const std::vector<int>& host_of_rank,
                               const std::vector<double>& stage_end, TailScratch& s, IterationCosts* costs) {
  const Parallelism& par = ctx.job->par;
  const int P = par.pp, D = par.dp, T = par.tp;
  const ParallelPlan& plan = *ctx.plan;
  IterationCosts c;
  s.memo_hop.clear();  // the ring model and the routes may differ between calls
  s.memo_lat.clear();
  s.memo_start.clear();
  // Each rank's time entering the norm's all-reduce: its stage's DP end, then the embedding all-reduce on the first
  // and the last stage (a ring of two per replica and tensor index).
  std::vector<double>& ready = s.ready;
  ready.assign(plan.ranks(), 0.0);
  for (int r = 0; r < plan.ranks(); ++r) ready[r] = stage_end[plan.coord_of(r).pp];
  const double emb_bytes = ctx.cost->stages.front().embedding_grad_bytes;
  if (ctx.job->step_costs && P > 1 && emb_bytes > 0 && ctx.embedding_hop_s) {
    for (int d = 0; d < D; ++d)
      for (int t = 0; t < T; ++t) {
        const int a = plan.rank_of(0, d, t), b = plan.rank_of(P - 1, d, t);
        s.hosts.assign({host_of_rank[a], host_of_rank[b]});
        s.start.assign({ready[a], ready[b]});
        ring_allreduce_from(ctx, emb_bytes, ctx.embedding_hop_s + 2 * (d * T + t), s);
        // The member that joined last waited for no one: its time is the collective's own (as the engine reports).
        c.embedding_allreduce_s = std::max(c.embedding_allreduce_s, std::max(s.end[0], s.end[1]) -
                                                                        std::max(s.start[0], s.start[1]));
        ready[a] = s.end[0];
        ready[b] = s.end[1];
      }
  }
  // The norm's all-reduce of one fp32 value over each replica's model-parallel group, stage-major as the rank actors
  // build it; then each rank's optimizer step.
  const int n = P * T;
  double end = 0.0;
  for (int d = 0; d < D; ++d) {
    s.hosts.resize(n);
    s.start.resize(n);
    s.ranks.resize(n);
    for (int i = 0; i < n; ++i) {
      s.ranks[i] = plan.rank_of(i / T, d, i % T);
      s.hosts[i] = host_of_rank[s.ranks[i]];
      s.start[i] = ready[s.ranks[i]];
    }
    if (ctx.job->step_costs && n > 1) {
      ring_allreduce_from(ctx, 4.0, nullptr, s);
      const double last_in = *std::max_element(s.start.begin(), s.start.end());
      c.grad_norm_allreduce_s =
          std::max(c.grad_norm_allreduce_s, *std::max_element(s.end.begin(), s.end.end()) - last_in);
    } else {
      s.end = s.start;
    }
    for (int i = 0; i < n; ++i) {
      const int h = s.hosts[i];
      const double step = ctx.stages->stage(h, i / T).optimizer_flops / (*ctx.speed)[h];
      c.optimizer_step_s = std::max(c.optimizer_step_s, step);
      end = std::max(end, s.end[i] + step);
    }
  }
  c.framework_overhead_s = ctx.job->framework_overhead_s;
  if (costs) *costs = c;
  return end + c.framework_overhead_s;
}

}  // namespace hulk
