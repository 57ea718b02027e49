#include "sim/evaluate/iteration_tail.hpp"

#include <algorithm>

namespace hulk {

namespace {

/** One transfer of `bytes` over a route alone: latency + bytes / its bandwidth. */
double transfer_s(const Route& r, double bytes) {
  const double bw = std::min(r.bandwidth_Bps, r.flow_cap_Bps > 0 ? r.flow_cap_Bps : r.bandwidth_Bps);
  return r.latency_s + (bw > 0 ? bytes / bw : 0.0);
}

}  // namespace

double iteration_end_with_tail(const TailContext& ctx, const std::vector<int>& host_of_rank,
                               const std::vector<double>& stage_end, IterationCosts* costs) {
  const Parallelism& par = ctx.job->par;
  const int P = par.pp, D = par.dp, T = par.tp;
  const ParallelPlan& plan = *ctx.plan;
  IterationCosts c;
  const double emb_bytes = ctx.cost->stages.front().embedding_grad_bytes;
  if (ctx.job->step_costs && P > 1 && emb_bytes > 0) {
    for (int d = 0; d < D; ++d)
      for (int t = 0; t < T; ++t) {
        const int a = host_of_rank[plan.rank_of(0, d, t)], b = host_of_rank[plan.rank_of(P - 1, d, t)];
        // Ring of two: each sends half, then the other half back (2 steps of S / 2).
        const double ring = transfer_s(ctx.routes->route(a, b), emb_bytes / 2) +
                            transfer_s(ctx.routes->route(b, a), emb_bytes / 2);
        c.embedding_allreduce_s = std::max(c.embedding_allreduce_s, ring);
      }
  }
  double done = 0.0;
  for (int s = 0; s < P; ++s)
    done = std::max(done, stage_end[s] + (s == 0 || s == P - 1 ? c.embedding_allreduce_s : 0.0));
  const int n = P * T;
  if (ctx.job->step_costs && n > 1) {
    for (int d = 0; d < D; ++d) {
      double slowest = 0.0;
      for (int i = 0; i < n; ++i) {
        const int a = host_of_rank[plan.rank_of(i / T, d, i % T)];
        const int b = host_of_rank[plan.rank_of(((i + 1) % n) / T, d, ((i + 1) % n) % T)];
        slowest = std::max(slowest, transfer_s(ctx.routes->route(a, b), 4.0 / n));
      }
      c.grad_norm_allreduce_s = std::max(c.grad_norm_allreduce_s, 2.0 * (n - 1) * slowest);
    }
  }
  for (int r = 0; r < plan.ranks(); ++r) {
    const int h = host_of_rank[r];
    c.optimizer_step_s =
        std::max(c.optimizer_step_s, ctx.stages->stage(h, plan.coord_of(r).pp).optimizer_flops / (*ctx.speed)[h]);
  }
  c.framework_overhead_s = ctx.job->framework_overhead_s;
  if (costs) *costs = c;
  return done + c.grad_norm_allreduce_s + c.optimizer_step_s + c.framework_overhead_s;
}

}  // namespace hulk
