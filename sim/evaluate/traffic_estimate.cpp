#include "sim/evaluate/traffic_estimate.hpp"

#include "sim/evaluate/interleaved.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/core/errors.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

namespace {

/** Adds `messages` messages carrying `bytes` in total between hosts a and b. */
void add_traffic(TrafficMatrix& t, const PlatformSpec& platform, CommKind kind, int a, int b, double bytes,
                 double messages) {
  const HostRoute route = route_between(platform, a, b);
  const double busy = messages * route.latency_s + (route.bandwidth_Bps > 0 ? bytes / route.bandwidth_Bps : 0.0);
  const int k = static_cast<int>(kind);
  const std::size_t ab = static_cast<std::size_t>(a) * t.hosts + b, ba = static_cast<std::size_t>(b) * t.hosts + a;
  t.bytes[k][ab] += bytes;
  t.busy_s[k][ab] += busy;
  if (ab != ba) {
    t.bytes[k][ba] += bytes;
    t.busy_s[k][ba] += busy;
  }
}

/** Ring all-reduce of `bytes` over `hosts` (ring order), `count` times: 2(n-1) chunks of bytes/n per ring edge. */
void add_ring(TrafficMatrix& t, const PlatformSpec& platform, CommKind kind, const std::vector<int>& hosts,
              double bytes, double count) {
  const int n = static_cast<int>(hosts.size());
  if (n < 2) return;
  const double steps = 2.0 * (n - 1);
  for (int i = 0; i < n; ++i)
    add_traffic(t, platform, kind, hosts[i], hosts[(i + 1) % n], count * steps * bytes / n, count * steps);
}

}  // namespace

TrafficMatrix estimate_traffic(const Scenario& scenario, const Placement& placement) {
  const PlatformSpec& platform = scenario.platform;
  const int H = static_cast<int>(platform.hosts.size());
  const Parallelism& par = scenario.only_job().par;
  const ParallelPlan plan(par);
  const JobCost cost = compute_job_cost(scenario.only_job());
  if (static_cast<int>(placement.gpu_of_rank.size()) != plan.ranks())
    throw InputError(scenario.file, 0, "placement",
                     "placement has " + std::to_string(placement.gpu_of_rank.size()) + " ranks, the job has " +
                         std::to_string(plan.ranks()));
  auto host = [&](int rank) {
    const int h = placement.gpu_of_rank[rank].host;
    if (h < 0 || h >= H)
      throw InputError(scenario.file, 0, "placement",
                       "rank " + std::to_string(rank) + " is on host " + std::to_string(h) + ", outside the platform");
    return h;
  };
  TrafficMatrix t = TrafficMatrix::zeros(H);
  const double m = cost.micro_batches;
  std::vector<int> ring;
  for (int s = 0; s < par.pp; ++s) {
    const StageCost& stage = cost.stages[s];
    for (int d = 0; d < par.dp; ++d) {
      ring.clear();
      for (int k = 0; k < par.tp; ++k) ring.push_back(host(plan.rank_of(s, d, k)));
      // 2 all-reduces per layer forward, 2 backward, plus those full recomputation repeats in backward.
      add_ring(t, platform, CommKind::tp, ring, cost.tp_allreduce_bytes,
               (4.0 + cost.recompute_tp_allreduces) * stage.layers * m);
      // Interleaved 1F1B: v model chunks cross each boundary, v - 1 cross back from the last stage to the first.
      const int v = scenario.only_job().virtual_stages, crossings = s + 1 < par.pp ? v : v - 1;
      if (s < handoff_boundaries(scenario.only_job()) && crossings > 0)
        for (int k = 0; k < par.tp; ++k)
          add_traffic(t, platform, CommKind::pp, host(plan.rank_of(s, d, k)),
                      host(plan.rank_of(boundary_receiver(s, par.pp), d, k)),
                      2.0 * crossings * m * cost.pp_message_bytes, 2.0 * crossings * m);
    }
    for (int k = 0; k < par.tp; ++k) {
      ring.clear();
      for (int d = 0; d < par.dp; ++d) ring.push_back(host(plan.rank_of(s, d, k)));
      add_ring(t, platform, CommKind::dp, ring, stage.dp_grad_bytes, 1.0);
    }
  }
  return t;
}

}  // namespace hulk
