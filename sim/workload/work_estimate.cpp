// Message and micro-batch counts of a simulated run, mirroring the engine's actors message for message (a message
// is counted when its receiver completes it, as Endpoint does). A change of the engine's message pattern must
// change this file; tests/sim/work_estimate_test.cpp fails otherwise.
#include "sim/workload/work_estimate.hpp"

#include <map>
#include <string>

#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

// Messages received by all n members of one ring all-reduce: 2 (n-1) steps each.
double ring_allreduce_messages(double n) { return n < 2 ? 0 : n * 2 * (n - 1); }

// One data-parallel all-reduce over `members` (ranks), as collectives.cpp runs it.
double dp_allreduce_messages(const std::string& algorithm, const std::vector<int>& members,
                             const std::vector<int>& region_of_rank) {
  const double n = static_cast<double>(members.size());
  if (n < 2) return 0;
  if (algorithm == "tree") return 2 * (n - 1);  // every non-root: one up to its parent, one down from it
  if (algorithm == "hierarchical" && !region_of_rank.empty()) {
    std::map<int, int> per_region;
    for (int r : members) ++per_region[region_of_rank.at(static_cast<std::size_t>(r))];
    const int k = per_region.begin()->second;
    bool balanced = true;
    for (const auto& [region, count] : per_region) balanced = balanced && count == k;
    const double R = static_cast<double>(per_region.size());
    // Reduce-scatter (k-1 steps) and all-gather (k-1) inside the region, all-reduce of a shard across regions
    // (2 ); each step received by every member.
    if (balanced) return n * (2.0 * (k - 1) + 2 * (R - 1));
  }
  return ring_allreduce_messages(n);  // ring, or hierarchical over unequal regions (the engine falls back to a ring)
}

}  // namespace

WorkEstimate estimate_work(const JobSpec& job, const std::vector<int>& region_of_rank) {
  WorkEstimate w;
  const Parallelism& par = job.par;
  // A job that was never validated may have zero degrees: there is no run to estimate (and no division by zero).
  if (par.dp < 1 || par.tp < 1 || par.pp < 1 || job.micro_batch < 1 || job.iterations < 1) return w;
  const double dp = par.dp, tp = par.tp, pp = par.pp;
  const double m = job.micro_batches();
  const double iterations = job.iterations;
  w.micro_batches_per_pipeline = m;
  w.micro_batches = m * dp * iterations;
  // One hand-off per micro-batch and direction across each boundary between virtual stages (pp x v - 1 of them).
  w.pp_messages = iterations * 2 * m * (pp * job.virtual_stages - 1) * dp * tp;
  // 2 TP all-reduces per layer forward, 2 backward, and the ones full recomputation repeats in backward.
  const double tp_allreduces_per_layer = 4.0 + recompute_tp_allreduces(job);
  w.tp_messages = iterations * tp_allreduces_per_layer * job.model.layers * m * dp * ring_allreduce_messages(tp);
  double dp_per_iteration = 0;
  if (job.collective != "hierarchical" || region_of_rank.empty()) {
    // Every (stage, tp) group has the same count: no need to visit the groups.
    dp_per_iteration = pp * tp * dp_allreduce_messages(job.collective, std::vector<int>(par.dp > 1 ? par.dp : 0), {});
  } else if (par.dp > 1 && par.tp > 0 && par.pp > 0) {
    const ParallelPlan plan(par);
    // Every (stage, tp) group: with the hierarchical collective each group may span regions differently.
    for (int s = 0; s < par.pp; ++s)
      for (int t = 0; t < par.tp; ++t)
        dp_per_iteration += dp_allreduce_messages(job.collective, plan.dp_group(plan.rank_of(s, 0, t)), region_of_rank);
  }
  w.dp_messages = iterations * dp_per_iteration;
  w.messages = w.pp_messages + w.tp_messages + w.dp_messages;
  return w;
}

WorkEstimate estimate_work(const JobSpec& job, const PlatformSpec& platform, const Placement& placement) {
  std::vector<int> region_of_rank;
  for (const GpuSlot& g : placement.gpu_of_rank)
    region_of_rank.push_back(platform.hosts.at(static_cast<std::size_t>(g.host)).region);
  return estimate_work(job, region_of_rank);
}

}  // namespace hulk
