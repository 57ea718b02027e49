#include "sim/place/island_first.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/sync_evaluator.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

/** Island group of every host (-1: none), from island_group_hosts. */
std::vector<int> group_of_hosts(const Scenario& s, const std::vector<std::vector<int>>& groups) {
  std::vector<int> out(s.platform.hosts.size(), -1);
  for (int g = 0; g < static_cast<int>(groups.size()); ++g)
    for (int h : groups[g]) out[h] = g;
  return out;
}

/** What a group offers: how many whole replicas fit it, and the GPU speed each of them gets. */
struct GroupOffer {
  int capacity = 0;
  std::vector<double> replica_speed;  ///< the j-th replica's slowest GPU when the fastest GPUs go first
};

/** A group's offer. Stage memory sets are nested (a GPU fitting a heavier stage fits every lighter one), so k
 *  replicas fit iff, for the i heaviest stages, the GPUs fitting the i-th heaviest number at least k * tp * i. */
GroupOffer offer_of(const Scenario& s, const Evaluator& ev, const std::vector<int>& hosts) {
  const Parallelism& par = s.only_job().par;
  std::vector<int> stages(par.pp);
  std::iota(stages.begin(), stages.end(), 0);
  const auto& cost = ev.cost().stages;
  std::stable_sort(stages.begin(), stages.end(),
                   [&](int a, int b) { return cost[a].peak_memory_bytes > cost[b].peak_memory_bytes; });
  GroupOffer o;
  o.capacity = std::numeric_limits<int>::max();
  for (int i = 0; i < par.pp; ++i) {
    int fitting = 0;
    for (int h : hosts)
      if (ev.stage_fits(stages[i], h)) fitting += s.platform.hosts[h].gpus;
    o.capacity = std::min(o.capacity, fitting / (par.tp * (i + 1)));
  }
  std::vector<double> speeds;
  for (int h : hosts) speeds.insert(speeds.end(), s.platform.hosts[h].gpus, ev.gpu_speed_flops(h));
  std::sort(speeds.begin(), speeds.end(), std::greater<double>());
  const int n = par.tp * par.pp;
  for (int j = 0; j < o.capacity; ++j) o.replica_speed.push_back(speeds[static_cast<std::size_t>((j + 1) * n - 1)]);
  return o;
}

/** Replicas per group: the candidates of the file comment, distinct, in a fixed order. */
std::vector<std::vector<int>> count_candidates(const std::vector<GroupOffer>& offers, int dp) {
  const int G = static_cast<int>(offers.size());
  std::vector<int> usable;
  for (int g = 0; g < G; ++g)
    if (offers[g].capacity > 0) usable.push_back(g);
  std::stable_sort(usable.begin(), usable.end(), [&](int a, int b) {
    const double sa = offers[a].replica_speed[0], sb = offers[b].replica_speed[0];
    return sa != sb ? sa > sb : offers[a].capacity > offers[b].capacity;
  });
  std::vector<std::vector<int>> out;
  std::set<std::vector<int>> seen;
  const auto add = [&](const std::vector<int>& counts) {
    if (seen.insert(counts).second) out.push_back(counts);
  };
  // (a) m islands on the m fastest groups, as even as capacities allow. Every m up to 8, then powers of two and all
  // groups: enough island counts to find the right one without a placement per count on a thousand hosts.
  std::set<int> island_counts;
  const int most = static_cast<int>(usable.size());
  for (int m = 1; m <= std::min(most, 8); ++m) island_counts.insert(m);
  for (int m = 16; m < most; m *= 2) island_counts.insert(m);
  if (most > 0) island_counts.insert(most);
  for (int m : island_counts) {
    int room = 0;
    for (int i = 0; i < m; ++i) room += offers[usable[i]].capacity;
    if (room < dp || m > dp) continue;
    std::vector<int> counts(G, 0);
    for (int left = dp; left > 0; --left) {
      int pick = -1;
      for (int i = 0; i < m; ++i) {
        const int g = usable[i];
        if (counts[g] < offers[g].capacity && (pick < 0 || counts[g] < counts[pick])) pick = g;
      }
      ++counts[pick];
    }
    add(counts);
  }
  // (b) the dp fastest replica slots: the slowest island as fast as possible (equal speeds: spread first).
  std::vector<std::pair<double, std::pair<int, int>>> slots;  // (speed, (j, group))
  for (int g : usable)
    for (int j = 0; j < offers[g].capacity; ++j) slots.push_back({offers[g].replica_speed[j], {j, g}});
  if (static_cast<int>(slots.size()) >= dp) {
    std::stable_sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::vector<int> counts(G, 0);
    for (int i = 0; i < dp; ++i) ++counts[slots[i].second.second];
    add(counts);
  }
  return out;
}

/** The island of k replicas on group `hosts`: the job with dp k and every-step sync, on the group's GPUs. */
GpuShare island_share(const Scenario& s, const std::vector<int>& hosts, int k) {
  std::vector<GpuSlot> gpus;
  for (int h : hosts)
    for (int slot = 0; slot < s.platform.hosts[h].gpus; ++slot) gpus.push_back({h, slot});
  GpuShare share = make_gpu_share(s, 0, gpus);
  JobSpec& job = share.scenario.only_job();
  job.global_batch = k * job.micro_batch * s.only_job().micro_batches();
  job.par.dp = k;
  job.sync = SyncSpec{};
  return share;
}

/** One warning line per process and scenario (a method may ask several times, from several threads). */
void warn_no_island_first(const Scenario& s, const std::string& why) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  const std::lock_guard<std::mutex> lock(mutex);
  if (!warned.insert(s.file + "\n" + s.name).second) return;
  std::cerr << "hulk: warning: job.sync.islands: " << why
            << "; the job is placed as if it synchronised every step (islands not placed first)\n";
}

}  // namespace

std::vector<std::vector<int>> island_group_hosts(const Scenario& s) {
  const PlatformSpec& p = s.platform;
  const SyncSpec& sync = s.only_job().sync;
  std::vector<std::vector<int>> groups;
  if (sync.islands == "region") groups.resize(p.regions.size());
  if (sync.islands == "groups") groups.resize(sync.island_groups.size());
  for (int h = 0; h < static_cast<int>(p.hosts.size()); ++h) {
    if (p.hosts[h].gpus <= 0) continue;
    if (sync.islands == "region") groups[p.hosts[h].region].push_back(h);
    if (sync.islands == "host") groups.push_back({h});
    if (sync.islands == "groups")
      for (std::size_t g = 0; g < sync.island_groups.size(); ++g)
        for (const std::string& name : sync.island_groups[g])
          if (name == p.hosts[h].name) groups[g].push_back(h);
  }
  return groups;
}

std::optional<Placement> island_first_placement(const Scenario& s, const IslandPlacer& place_island) {
  const Parallelism& par = s.only_job().par;
  const std::vector<std::vector<int>> groups = island_group_hosts(s);
  const Evaluator ev(s);
  std::vector<GroupOffer> offers;
  for (const std::vector<int>& hosts : groups) offers.push_back(offer_of(s, ev, hosts));
  const std::vector<std::vector<int>> candidates = count_candidates(offers, par.dp);
  if (candidates.empty()) {
    warn_no_island_first(s, "the island groups hold fewer than dp " + std::to_string(par.dp) + " whole replicas of " +
                                std::to_string(par.tp * par.pp) + " GPUs (tp x pp) whose stages fit memory");
    return std::nullopt;
  }
  // Each (group, replicas) island is placed once: candidates share most of them.
  std::map<std::pair<int, int>, std::optional<Placement>> islands;
  const auto island = [&](int g, int k) -> const std::optional<Placement>& {
    auto [it, added] = islands.try_emplace(std::make_pair(g, k));
    if (added) {
      const GpuShare share = island_share(s, groups[g], k);
      try {
        it->second = share.to_original(place_island(share.scenario));
      } catch (const InputError&) {  // the island's stages do not fit its GPUs after all: drop the candidate
      }
    }
    return it->second;
  };
  const SyncEvaluator sync(s);
  std::optional<Placement> best;
  double best_s = std::numeric_limits<double>::infinity();
  for (const std::vector<int>& counts : candidates) {
    Placement p;
    p.gpu_of_rank.resize(static_cast<std::size_t>(par.ranks()));
    const ParallelPlan plan(par);
    bool ok = true;
    for (int g = 0, base = 0; g < static_cast<int>(counts.size()) && ok; base += counts[g], ++g) {
      if (counts[g] == 0) continue;
      const std::optional<Placement>& placed = island(g, counts[g]);
      ok = placed.has_value();
      if (!ok) break;
      const ParallelPlan sub({counts[g], par.tp, par.pp});
      for (int st = 0; st < par.pp; ++st)
        for (int d = 0; d < counts[g]; ++d)
          for (int t = 0; t < par.tp; ++t)
            p.gpu_of_rank[plan.rank_of(st, base + d, t)] = placed->gpu_of_rank[sub.rank_of(st, d, t)];
    }
    if (!ok) continue;
    const double t = sync.step_time_s(p);
    if (t < best_s || !best) {
      best_s = t;
      best = std::move(p);
    }
  }
  if (!best)
    warn_no_island_first(s, "no island group's GPUs hold its replicas' stages (memory)");
  return best;
}

std::optional<IslandKeeper> IslandKeeper::of(const Scenario& s, const std::vector<int>& host_of_rank) {
  IslandKeeper k;
  k.group_of_host_ = group_of_hosts(s, island_group_hosts(s));
  k.tp_ = s.only_job().par.tp;
  k.dp_ = s.only_job().par.dp;
  const ParallelPlan plan(s.only_job().par);
  for (int d = 0; d < k.dp_; ++d) k.group_of_replica_.push_back(k.group_of_host_[host_of_rank[plan.rank_of(0, d, 0)]]);
  for (int g : k.group_of_replica_)
    if (g < 0) return std::nullopt;
  if (!k.keeps(host_of_rank)) return std::nullopt;
  return k;
}

bool IslandKeeper::keeps(const std::vector<int>& host_of_rank) const {
  for (std::size_t r = 0; r < host_of_rank.size(); ++r) {
    const int d = static_cast<int>(r / tp_) % dp_;
    if (group_of_host_[host_of_rank[r]] != group_of_replica_[d]) return false;
  }
  return true;
}

}  // namespace hulk
