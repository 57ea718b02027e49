#include "sim/place/alternative_starts.hpp"

#include <numeric>

#include "sim/core/errors.hpp"
#include "sim/place/dp_clusters.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk {

std::vector<Placement> fastest_hosts_greedy_placements(const Evaluator& evaluator) {
  const Scenario& scenario = evaluator.scenario();
  const auto& hosts = scenario.platform.hosts;
  std::vector<int> order(hosts.size());
  std::iota(order.begin(), order.end(), 0);
  sort_hosts(order, evaluator, HostOrder::kSpeed);
  size_t prefix = 0;
  for (int gpus = 0; prefix < order.size() && gpus < scenario.job.par.ranks(); ++prefix)
    gpus += hosts[order[prefix]].gpus;
  // The shortest prefix whose GPUs fit the stages' memory; the whole platform is greedy's own problem. One greedy
  // run where the first fits: a second prefix (one host more) cost as much again (22-54 ms on the 47-host paper
  // scenarios) and, on the design seeds 20261221-20261222, found only placements the gnn method reached anyway.
  for (; prefix < order.size(); ++prefix) {
    std::vector<GpuSlot> gpus;
    for (size_t i = 0; i < prefix; ++i)
      for (int slot = 0; slot < hosts[order[i]].gpus; ++slot) gpus.push_back({order[i], slot});
    const GpuShare share = make_gpu_share(scenario, 0, gpus);
    try {
      return {share.to_original(GreedyPlacer().place(share.scenario))};
    } catch (const InputError&) {
      // The stages do not fit these GPUs' memory: one host more.
    }
  }
  return {};
}

AlternativeStart fastest_alternative_start(const Evaluator& evaluator, int stage_orders) {
  AlternativeStart best{fastest_dp_cluster(evaluator, stage_orders), ""};
  if (!best.timed.placement.gpu_of_rank.empty()) best.origin = "dp-cluster";
  for (Placement& placed : fastest_hosts_greedy_placements(evaluator)) {
    const double t = evaluator.iteration_time_s(placed);
    if (t < best.timed.time_s) best = {{std::move(placed), t}, "fastest-hosts"};
  }
  return best;
}

}  // namespace hulk
