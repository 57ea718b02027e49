#include "sim/place/dp_clusters.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

#include "sim/place/placer_common.hpp"

namespace hulk {
namespace {

enum class FirstRegion { kBestFit, kLargest };

/** The hosts a construction may use: all, or (fastest_only) those whose GPUs are at least as fast as the slowest
 *  GPU the job needs when it takes the fastest first, so that spare slower GPUs are left out (hosts of equal speed
 *  all stay). */
std::vector<bool> usable_hosts(const Evaluator& ev, bool fastest_only) {
  const auto& hosts = ev.scenario().platform.hosts;
  std::vector<bool> usable(hosts.size(), true);
  if (!fastest_only) return usable;
  std::vector<int> order(hosts.size());
  std::iota(order.begin(), order.end(), 0);
  sort_hosts(order, ev, HostOrder::kSpeed);
  int gpus = 0;
  double slowest_needed = 0;
  for (int h : order) {
    if (gpus >= ev.scenario().job.par.ranks()) break;
    gpus += hosts[h].gpus;
    slowest_needed = ev.gpu_speed_flops(h);
  }
  for (size_t h = 0; h < hosts.size(); ++h) usable[h] = ev.gpu_speed_flops(static_cast<int>(h)) >= slowest_needed;
  return usable;
}

/** One construction (file comment of dp_clusters.hpp) with its free GPUs per host. */
class ClusterBuilder {
 public:
  ClusterBuilder(const Evaluator& ev, FirstRegion first, HostOrder order, const std::vector<bool>& usable)
      : ev_(ev), sc_(ev.scenario()), first_(first) {
    const auto& hosts = sc_.platform.hosts;
    free_.resize(hosts.size());
    region_hosts_.resize(ev.network().regions());
    for (size_t h = 0; h < hosts.size(); ++h) {
      free_[h] = usable[h] ? hosts[h].gpus : 0;
      if (free_[h] > 0) region_hosts_[hosts[h].region].push_back(static_cast<int>(h));
    }
    for (auto& list : region_hosts_) sort_hosts(list, ev, order);
  }

  /** The hosts of every rank; empty when some stage finds too few GPUs that fit it. */
  std::vector<int> build() {
    const Parallelism& par = sc_.job.par;
    std::vector<int> stages(par.pp);
    std::iota(stages.begin(), stages.end(), 0);
    const auto& cost = ev_.cost().stages;
    std::stable_sort(stages.begin(), stages.end(),
                     [&](int a, int b) { return cost[a].peak_memory_bytes > cost[b].peak_memory_bytes; });
    std::vector<int> host_of_rank(par.ranks(), -1);
    for (int s : stages) {
      const std::vector<int> hosts = take_cluster(s);
      if (hosts.empty()) return {};
      for (int d = 0; d < par.dp; ++d)
        for (int t = 0; t < par.tp; ++t) host_of_rank[ev_.plan().rank_of(s, d, t)] = hosts[d * par.tp + t];
    }
    return host_of_rank;
  }

 private:
  /** Free GPUs of the region that fit the stage, in whole TP groups (a TP group never spans two regions). */
  int free_fitting(int region, int stage) const {
    int n = 0;
    for (int h : region_hosts_[region])
      if (ev_.stage_fits(stage, h)) n += free_[h];
    return n - n % sc_.job.par.tp;
  }

  int first_region(int stage, int need) const {
    int best = -1, best_free = 0;
    for (int r = 0; r < static_cast<int>(region_hosts_.size()); ++r) {
      const int n = free_fitting(r, stage);
      if (n <= 0) continue;
      const bool fits = n >= need, best_fits = best_free >= need;
      bool better = best < 0 || n > best_free;
      if (first_ == FirstRegion::kBestFit && best >= 0 && (fits || best_fits))
        better = fits && (!best_fits || n < best_free);  // the tightest region holding the whole stage
      if (better) {
        best = r;
        best_free = n;
      }
    }
    return best;
  }

  /** Slowest DP link (latency + the stage's gradient bytes over its bandwidth) between region r and the cluster. */
  double link_cost(int r, const std::vector<int>& cluster, double bytes) const {
    const RouteModel& net = ev_.network();
    double worst = 0;
    for (int m : cluster) {
      const double bw = net.region_bandwidth_Bps(r, m);
      worst = std::max(worst, net.region_latency_s(r, m) + (bw > 0 ? bytes / bw : 0.0));
    }
    return worst;
  }

  /** Takes the dp x tp GPUs of stage s from a cluster of regions; their hosts in rank order (empty: too few). */
  std::vector<int> take_cluster(int s) {
    const Parallelism& par = sc_.job.par;
    const int need = par.dp * par.tp;
    const double bytes = ev_.cost().stages[s].dp_grad_bytes;
    std::vector<int> cluster;
    int have = 0;
    for (int r = first_region(s, need); r >= 0 && have < need;) {
      cluster.push_back(r);
      have += free_fitting(r, s);
      int next = -1, next_free = 0;
      double next_cost = std::numeric_limits<double>::infinity();
      for (int c = 0; c < static_cast<int>(region_hosts_.size()) && have < need; ++c) {
        const int n = free_fitting(c, s);
        if (n <= 0 || std::find(cluster.begin(), cluster.end(), c) != cluster.end()) continue;
        const double cost = link_cost(c, cluster, bytes);
        if (cost < next_cost || (cost == next_cost && n > next_free)) {
          next = c;
          next_cost = cost;
          next_free = n;
        }
      }
      r = next;
    }
    if (have < need) return {};
    std::vector<int> hosts;
    for (int r : cluster) {
      int quota = std::min(free_fitting(r, s), need - static_cast<int>(hosts.size()));
      for (int h : region_hosts_[r]) {
        if (!ev_.stage_fits(s, h)) continue;
        for (; free_[h] > 0 && quota > 0; --quota) {
          hosts.push_back(h);
          --free_[h];
        }
      }
    }
    return hosts;
  }

  const Evaluator& ev_;
  const Scenario& sc_;
  const FirstRegion first_;
  std::vector<int> free_;
  std::vector<std::vector<int>> region_hosts_;  ///< per region, in the host order
};

}  // namespace

std::vector<Placement> dp_cluster_placements(const Evaluator& evaluator) {
  if (evaluator.scenario().job.par.dp < 2) return {};
  std::vector<Placement> out;
  std::set<std::vector<int>> seen;
  for (bool fastest_only : {false, true}) {
    const std::vector<bool> usable = usable_hosts(evaluator, fastest_only);
    for (FirstRegion first : {FirstRegion::kBestFit, FirstRegion::kLargest})
      for (HostOrder order : {HostOrder::kSpeed, HostOrder::kSize}) {
        const std::vector<int> hosts = ClusterBuilder(evaluator, first, order, usable).build();
        if (!hosts.empty() && seen.insert(hosts).second) out.push_back(placement_from_hosts(hosts));
      }
  }
  return out;
}

TimedPlacement fastest_dp_cluster(const Evaluator& evaluator, int stage_orders, double beat) {
  const auto time_s = [&evaluator](const Placement& p) { return evaluator.iteration_time_s(p); };
  const auto bound = [&evaluator](const Placement& p) { return evaluator.time_lower_bound(p); };
  TimedPlacement best{Placement{}, std::numeric_limits<double>::infinity()};
  for (const Placement& cluster : dp_cluster_placements(evaluator)) {
    const double limit = std::min(beat, best.time_s);
    // A cluster that cannot win still lends its stage blocks to the reorderings, judged against the limit: the one
    // it would have given is the fastest reordering, kept by the loop only when faster than the limit anyway.
    const bool ruled_out = cannot_beat(bound(cluster), limit);
    TimedPlacement ordered = fastest_stage_order(evaluator.scenario(), cluster, ruled_out ? limit : time_s(cluster),
                                                 stage_orders, time_s, &evaluator.network(), bound);
    if (ruled_out && ordered.placement.gpu_of_rank == cluster.gpu_of_rank) continue;
    if (ordered.time_s < best.time_s) best = std::move(ordered);
  }
  return best;
}

}  // namespace hulk
