#include "sim/place/alternative_starts.hpp"

#include <algorithm>
#include <numeric>

#include "sim/core/errors.hpp"
#include "sim/place/dp_clusters.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk {

namespace {

/** Greedy's placement on the shortest prefix of `order` (hosts, fastest first) that holds the job's ranks and fits
 *  its stages' memory, each host counting `usable(host)` of its GPUs; none when only every GPU of the platform
 *  does (greedy's own problem). */
template <typename Usable>
std::vector<Placement> greedy_on_shortest_prefix(const Scenario& scenario, const std::vector<int>& order,
                                                 Usable usable) {
  size_t prefix = 0;
  for (int gpus = 0; prefix < order.size() && gpus < scenario.only_job().par.ranks(); ++prefix)
    gpus += usable(order[prefix]);
  // The shortest prefix whose GPUs fit the stages' memory. One greedy run where the first fits: a second prefix
  // (one host more) cost as much again (22-54 ms on the 47-host paper scenarios) and, on the design seeds
  // 20261221-20261222, found only placements the gnn method reached anyway.
  for (; prefix <= order.size(); ++prefix) {
    std::vector<GpuSlot> gpus;
    for (size_t i = 0; i < prefix; ++i)
      for (int slot = 0; slot < usable(order[i]); ++slot) gpus.push_back({order[i], slot});
    if (static_cast<int>(gpus.size()) < scenario.only_job().par.ranks()) return {};
    if (static_cast<int>(gpus.size()) == scenario.platform.total_gpus()) return {};
    const GpuShare share = make_gpu_share(scenario, 0, gpus);
    try {
      return {share.to_original(GreedyPlacer().place(share.scenario))};
    } catch (const InputError&) {
      // The stages do not fit these GPUs' memory: one host more.
    }
  }
  return {};
}

}  // namespace

std::vector<Placement> fastest_hosts_greedy_placements(const Evaluator& evaluator) {
  const Scenario& scenario = evaluator.scenario();
  const auto& hosts = scenario.platform.hosts;
  std::vector<int> order(hosts.size());
  std::iota(order.begin(), order.end(), 0);
  sort_hosts(order, evaluator, HostOrder::kSpeed);
  std::vector<Placement> out =
      greedy_on_shortest_prefix(scenario, order, [&](int h) { return hosts[h].gpus; });
  // Counting only the GPUs of whole TP groups per host too: a fast host smaller than a TP group makes greedy split
  // groups over hosts, and TP rings across hosts are far slower than the hosts' speed can repay.
  const int tp = std::max(1, scenario.only_job().par.tp);
  std::vector<int> whole_groups;
  for (int h : order)
    if (hosts[h].gpus >= tp) whole_groups.push_back(h);
  if (tp > 1 && whole_groups.size() < order.size())
    for (Placement& p : greedy_on_shortest_prefix(scenario, whole_groups,
                                                  [&](int h) { return hosts[h].gpus / tp * tp; }))
      if (out.empty() || p.gpu_of_rank != out[0].gpu_of_rank) out.push_back(std::move(p));
  return out;
}

AlternativeStart fastest_alternative_start(const Evaluator& evaluator, int stage_orders, double beat) {
  AlternativeStart best{fastest_dp_cluster(evaluator, stage_orders, beat), ""};
  if (!best.timed.placement.gpu_of_rank.empty()) best.origin = "dp-cluster";
  for (Placement& placed : fastest_hosts_greedy_placements(evaluator)) {
    if (cannot_beat(evaluator.time_lower_bound(placed), std::min(beat, best.timed.time_s))) continue;
    const double t = evaluator.iteration_time_s(placed);
    if (t < best.timed.time_s) best = {{std::move(placed), t}, "fastest-hosts"};
  }
  return best;
}

}  // namespace hulk
