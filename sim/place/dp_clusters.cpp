#include "sim/place/dp_clusters.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "sim/place/placer_common.hpp"

namespace hulk {
namespace {

enum class FirstRegion { kBestFit, kLargest, kBestConnected };

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
    if (gpus >= ev.scenario().only_job().par.ranks()) break;
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
    const std::vector<int> stages = stages_by_memory();
    if (first_ != FirstRegion::kBestConnected) {
      std::vector<int> host_of_rank(sc_.only_job().par.ranks(), -1);
      for (int s : stages) {
        int have = 0;
        const std::vector<int> cluster = grow_cluster(first_region(s, need()), s, have);
        if (have < need()) return {};
        take(cluster, s, host_of_rank);
      }
      return host_of_rank;
    }
    // kBestConnected looks one stage ahead: the first stage's cluster is each of the clusters grown from one of its
    // regions, the other stages then take the best-connected cluster left; the construction whose slowest cluster
    // link is the cheapest wins (the first on ties). Why: the stages' gradient all-reduces run side by side and the
    // slowest ends the iteration, so the best pair for the first stage may leave the next only a slow one (a first
    // stage on a 6.6 Gbit/s pair leaving the second 1.2 Gbit/s runs far slower than pairs of 5.4 and 6.9 Gbit/s;
    // DpClusters.TheFirstStageLeavesTheNextAFastPair).
    std::vector<int> best;
    double best_cost = std::numeric_limits<double>::infinity();
    for (const std::vector<int>& first : grown_clusters(stages.front())) {
      ClusterBuilder trial = *this;
      std::vector<int> host_of_rank(sc_.only_job().par.ranks(), -1);
      trial.take(first, stages.front(), host_of_rank);
      double cost = trial.cluster_cost(first, stages.front());
      for (size_t k = 1; k < stages.size() && std::isfinite(cost); ++k) {
        const std::vector<int> cluster = trial.best_connected_cluster(stages[k]);
        if (cluster.empty()) cost = std::numeric_limits<double>::infinity();
        else cost = std::max(cost, trial.cluster_cost(cluster, stages[k]));
        if (std::isfinite(cost)) trial.take(cluster, stages[k], host_of_rank);
      }
      if (cost < best_cost) {
        best = std::move(host_of_rank);
        best_cost = cost;
      }
    }
    return best;
  }

 private:
  /** Free GPUs of the region that fit the stage, in whole TP groups (a TP group never spans two regions). */
  int free_fitting(int region, int stage) const {
    int n = 0;
    for (int h : region_hosts_[region])
      if (ev_.stage_fits(stage, h)) n += free_[h];
    return n - n % sc_.only_job().par.tp;
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

  int need() const { return sc_.only_job().par.dp * sc_.only_job().par.tp; }

  /** Stages by decreasing peak memory (greedy's memory safety net: the heaviest take the GPUs they fit first). */
  std::vector<int> stages_by_memory() const {
    std::vector<int> stages(sc_.only_job().par.pp);
    std::iota(stages.begin(), stages.end(), 0);
    const auto& cost = ev_.cost().stages;
    std::stable_sort(stages.begin(), stages.end(),
                     [&](int a, int b) { return cost[a].peak_memory_bytes > cost[b].peak_memory_bytes; });
    return stages;
  }

  /** The cluster grown from region `first` for stage s: while it lacks GPUs, the region with the cheapest DP link to
   *  it (ties: the most free GPUs); `have` = its GPUs fitting the stage (fewer than need() when it runs out). */
  std::vector<int> grow_cluster(int first, int s, int& have) const {
    const double bytes = ev_.cost().stages[s].dp_grad_bytes;
    std::vector<int> cluster;
    have = 0;
    for (int r = first; r >= 0 && have < need();) {
      cluster.push_back(r);
      have += free_fitting(r, s);
      int next = -1, next_free = 0;
      double next_cost = std::numeric_limits<double>::infinity();
      for (int c = 0; c < static_cast<int>(region_hosts_.size()) && have < need(); ++c) {
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
    return cluster;
  }

  /** The distinct clusters grown from each region with GPUs fitting stage s that hold the stage, in region order. */
  std::vector<std::vector<int>> grown_clusters(int s) const {
    std::vector<std::vector<int>> out;
    std::set<std::vector<int>> seen;
    for (int r = 0; r < static_cast<int>(region_hosts_.size()); ++r) {
      if (free_fitting(r, s) <= 0) continue;
      int have = 0;
      std::vector<int> cluster = grow_cluster(r, s, have);
      std::vector<int> key = cluster;
      std::sort(key.begin(), key.end());
      if (have >= need() && seen.insert(key).second) out.push_back(std::move(cluster));
    }
    return out;
  }

  /** The cluster's slowest DP link for stage s (latency + gradient bytes / bandwidth; 0 for one region). */
  double cluster_cost(const std::vector<int>& cluster, int s) const {
    const double bytes = ev_.cost().stages[s].dp_grad_bytes;
    double cost = 0;
    for (size_t i = 1; i < cluster.size(); ++i)
      cost = std::max(cost, link_cost(cluster[i], std::vector<int>(cluster.begin(), cluster.begin() + i), bytes));
    return cost;
  }

  /** Of grown_clusters(s), the one whose slowest link is the cheapest, ties to the fewest free GPUs, then the first
   *  (empty when none holds the stage). */
  std::vector<int> best_connected_cluster(int s) const {
    std::vector<int> best;
    double best_cost = std::numeric_limits<double>::infinity();
    int best_free = 0;
    for (std::vector<int>& cluster : grown_clusters(s)) {
      const double cost = cluster_cost(cluster, s);
      int n = 0;
      for (int r : cluster) n += free_fitting(r, s);
      if (cost < best_cost || (cost == best_cost && n < best_free)) {
        best = std::move(cluster);
        best_cost = cost;
        best_free = n;
      }
    }
    return best;
  }

  /** Gives stage s the dp x tp GPUs of `cluster` (which holds them), host by host in the host order, TP groups
   *  consecutive, into host_of_rank. */
  void take(const std::vector<int>& cluster, int s, std::vector<int>& host_of_rank) {
    const Parallelism& par = sc_.only_job().par;
    std::vector<int> hosts;
    for (int r : cluster) {
      int quota = std::min(free_fitting(r, s), need() - static_cast<int>(hosts.size()));
      for (int h : region_hosts_[r]) {
        if (!ev_.stage_fits(s, h)) continue;
        for (; free_[h] > 0 && quota > 0; --quota) {
          hosts.push_back(h);
          --free_[h];
        }
      }
    }
    for (int d = 0; d < par.dp; ++d)
      for (int t = 0; t < par.tp; ++t) host_of_rank[ev_.plan().rank_of(s, d, t)] = hosts[d * par.tp + t];
  }

  const Evaluator& ev_;
  const Scenario& sc_;
  const FirstRegion first_;
  std::vector<int> free_;
  std::vector<std::vector<int>> region_hosts_;  ///< per region, in the host order
};

}  // namespace

std::vector<Placement> dp_cluster_placements(const Evaluator& evaluator) {
  if (evaluator.scenario().only_job().par.dp < 2) return {};
  std::vector<Placement> out;
  std::set<std::vector<int>> seen;
  for (bool fastest_only : {false, true}) {
    const std::vector<bool> usable = usable_hosts(evaluator, fastest_only);
    for (FirstRegion first : {FirstRegion::kBestFit, FirstRegion::kLargest, FirstRegion::kBestConnected})
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
