#include "sim/place/greedy_placer.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/fastest_candidate.hpp"
#include "sim/place/island_first.hpp"
#include "sim/place/jobs_placement.hpp"
#include "sim/place/placer.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk {
namespace {

enum class UnitOrder { kStageMajor, kStageMajorReversed, kReplicaMajor, kHeaviestFirst };

/** One greedy construction (rules 1-3, 5 of the header) for a given chain, host policy and unit order. */
class Builder {
 public:
  Builder(const Scenario& sc, const Evaluator& ev, const std::vector<int>& chain, HostOrder policy)
      : sc_(sc), ev_(ev), chain_(chain) {
    const auto& hosts = sc.platform.hosts;
    free_.resize(hosts.size());
    for (size_t h = 0; h < hosts.size(); ++h) free_[h] = hosts[h].gpus;
    region_hosts_.resize(chain.size());
    for (size_t c = 0; c < chain.size(); ++c) {
      auto& list = region_hosts_[c];
      for (size_t h = 0; h < hosts.size(); ++h)
        if (hosts[h].region == chain[c] && hosts[h].gpus > 0) list.push_back(static_cast<int>(h));
      sort_hosts(list, ev, policy);  // ties broken by host index: deterministic
    }
    host_of_rank_.assign(sc.only_job().par.ranks(), -1);
  }

  /** @brief Builds the placement; false if some TP group found no room. */
  bool build(UnitOrder order) {
    const Parallelism& par = sc_.only_job().par;
    size_t cur = 0;
    if (order == UnitOrder::kStageMajor || order == UnitOrder::kStageMajorReversed) {
      for (int k = 0; k < par.pp; ++k) {
        const int s = order == UnitOrder::kStageMajor ? k : par.pp - 1 - k;
        jump_to_region_holding(s, par.dp, cur);
        for (int d = 0; d < par.dp; ++d)
          if (!place_group(s, d, cur)) return false;
      }
    } else if (order == UnitOrder::kHeaviestFirst) {
      // Stages by decreasing peak memory: with nested "fits" sets this never blocks a feasible job.
      std::vector<int> stages(par.pp);
      std::iota(stages.begin(), stages.end(), 0);
      const auto& st = ev_.cost().stages;
      std::stable_sort(stages.begin(), stages.end(),
                       [&](int a, int b) { return st[a].peak_memory_bytes > st[b].peak_memory_bytes; });
      for (int s : stages) {
        jump_to_region_holding(s, par.dp, cur);
        for (int d = 0; d < par.dp; ++d)
          if (!place_group(s, d, cur)) return false;
      }
    } else {
      for (int d = 0; d < par.dp; ++d)
        for (int s = 0; s < par.pp; ++s)
          if (!place_group(s, d, cur)) return false;
    }
    return true;
  }

  const std::vector<int>& hosts() const { return host_of_rank_; }

 private:
  // Free GPUs of region c usable for stage s: whole TP groups on single hosts (clean) or any (raw).
  void capacity(size_t c, int s, int& clean, int& raw) const {
    const int T = sc_.only_job().par.tp;
    clean = raw = 0;
    for (int h : region_hosts_[c]) {
      if (!ev_.stage_fits(s, h)) continue;
      raw += free_[h];
      clean += (free_[h] / T) * T;
    }
  }

  // Rule 2: move the cursor to the first region (chain order from cur, wrapping) holding all `groups` TP groups
  // of stage s, preferring a region where they need no split.
  void jump_to_region_holding(int s, int groups, size_t& cur) const {
    const int need = groups * sc_.only_job().par.tp;
    for (int pass = 0; pass < 2; ++pass)
      for (size_t k = 0; k < chain_.size(); ++k) {
        const size_t c = (cur + k) % chain_.size();
        int clean, raw;
        capacity(c, s, clean, raw);
        if ((pass == 0 ? clean : raw) >= need) {
          cur = c;
          return;
        }
      }
  }

  // Rule 1: one TP group, a single host if possible, else split inside one region, else the next region.
  bool place_group(int s, int d, size_t& cur) {
    const int T = sc_.only_job().par.tp;
    const ParallelPlan& plan = ev_.plan();
    for (size_t k = 0; k < chain_.size(); ++k) {
      const size_t c = (cur + k) % chain_.size();
      for (int h : region_hosts_[c]) {
        if (free_[h] >= T && ev_.stage_fits(s, h)) {
          for (int t = 0; t < T; ++t) host_of_rank_[plan.rank_of(s, d, t)] = h;
          free_[h] -= T;
          cur = c;
          return true;
        }
      }
      int clean, raw;
      capacity(c, s, clean, raw);
      if (raw >= T) {
        int t = 0;
        for (int h : region_hosts_[c]) {
          if (!ev_.stage_fits(s, h)) continue;
          while (free_[h] > 0 && t < T) {
            host_of_rank_[plan.rank_of(s, d, t++)] = h;
            --free_[h];
          }
        }
        cur = c;
        return true;
      }
    }
    // Last resort: no region holds the whole group; take any fitting free GPUs along the chain.
    int total = 0;
    for (size_t c = 0; c < chain_.size(); ++c)
      for (int h : region_hosts_[c])
        if (ev_.stage_fits(s, h)) total += free_[h];
    if (total < T) return false;
    int t = 0;
    for (size_t k = 0; k < chain_.size() && t < T; ++k) {
      const size_t c = (cur + k) % chain_.size();
      for (int h : region_hosts_[c]) {
        if (!ev_.stage_fits(s, h)) continue;
        while (free_[h] > 0 && t < T) {
          host_of_rank_[plan.rank_of(s, d, t++)] = h;
          --free_[h];
        }
      }
    }
    return true;
  }

  const Scenario& sc_;
  const Evaluator& ev_;
  std::vector<int> chain_;
  std::vector<std::vector<int>> region_hosts_;  // per chain position, ordered by policy
  std::vector<int> free_;
  std::vector<int> host_of_rank_;
};

// Rule 3: nearest-neighbour chain over regions holding GPUs, starting at `start`.
std::vector<int> region_chain(const Evaluator& ev, const std::vector<int>& regions, int start) {
  const RouteModel& net = ev.network();
  const double bytes = ev.cost().pp_message_bytes;
  auto dist = [&](int a, int b) {
    const double bw = net.region_bandwidth_Bps(a, b);
    return net.region_latency_s(a, b) + (bw > 0 ? bytes / bw : 0.0);
  };
  std::vector<int> chain{start};
  std::vector<bool> used(net.regions(), false);
  used[start] = true;
  while (chain.size() < regions.size()) {
    int best = -1;
    double best_d = std::numeric_limits<double>::infinity();
    for (int r : regions) {
      if (used[r]) continue;
      const double dd = dist(chain.back(), r);
      if (dd < best_d) {
        best_d = dd;
        best = r;
      }
    }
    used[best] = true;
    chain.push_back(best);
  }
  return chain;
}

// Rule 4: inside each region, re-deal the slot sets of the TP groups lying wholly in it so that heavier stages
// get faster slot sets. Returns false if nothing changed or memory would break.
bool redeal_by_speed(const Evaluator& ev, std::vector<int>& hosts) {
  const Parallelism& par = ev.scenario().only_job().par;
  const ParallelPlan& plan = ev.plan();
  const RouteModel& net = ev.network();
  struct Group {
    int s, d;
    std::vector<int> slots;
    double weight, speed;
  };
  // The groups lying wholly in one region, bucketed by region in (stage, replica) order: one pass over the ranks
  // (a pass per region cost regions x ranks, 14 s of greedy's time at 16,384 GPUs in 64 regions).
  std::vector<std::vector<Group>> groups_in(net.regions());
  for (int s = 0; s < par.pp; ++s)
    for (int d = 0; d < par.dp; ++d) {
      Group g{s, d, {}, ev.cost().stages[s].fwd_flops_per_mb(), std::numeric_limits<double>::infinity()};
      const int region = net.region_of(hosts[plan.rank_of(s, d, 0)]);
      bool inside = true;
      for (int t = 0; t < par.tp; ++t) {
        const int h = hosts[plan.rank_of(s, d, t)];
        inside = inside && net.region_of(h) == region;
        g.slots.push_back(h);
        g.speed = std::min(g.speed, ev.gpu_speed_flops(h));
      }
      if (inside) groups_in[region].push_back(std::move(g));
    }
  bool changed = false;
  for (int region = 0; region < net.regions(); ++region) {
    const std::vector<Group>& groups = groups_in[region];
    if (groups.size() < 2) continue;
    std::vector<size_t> by_weight(groups.size()), by_speed(groups.size());
    std::iota(by_weight.begin(), by_weight.end(), 0);
    std::iota(by_speed.begin(), by_speed.end(), 0);
    std::stable_sort(by_weight.begin(), by_weight.end(),
                     [&](size_t a, size_t b) { return groups[a].weight > groups[b].weight; });
    std::stable_sort(by_speed.begin(), by_speed.end(),
                     [&](size_t a, size_t b) { return groups[a].speed > groups[b].speed; });
    // Only this region's groups change: the trial is the current placement with their ranks re-dealt.
    bool ok = true, differs = false;
    std::vector<std::pair<int, int>> moves;  // (rank, new host)
    for (size_t i = 0; i < groups.size() && ok; ++i) {
      const Group& g = groups[by_weight[i]];
      const Group& slot = groups[by_speed[i]];
      for (int t = 0; t < par.tp; ++t) {
        ok = ok && ev.stage_fits(g.s, slot.slots[t]);
        const int r = plan.rank_of(g.s, g.d, t);
        moves.emplace_back(r, slot.slots[t]);
        differs = differs || hosts[r] != slot.slots[t];
      }
    }
    if (ok && differs) {
      for (const auto& [r, h] : moves) hosts[r] = h;
      changed = true;
    }
  }
  return changed;
}

}  // namespace

Placement GreedyPlacer::place(const Scenario& scenario) { return place_with(scenario, JobsEvaluator(scenario)); }

Placement GreedyPlacer::place_with(const Scenario& scenario, const JobsEvaluator& ev) {
  // The jobs (one or more) largest first, each by the rules above on the GPUs left (one job: the whole cluster, on
  // the evaluator's route model: no share to build); other orders if that leaves a job without room; round-robin's
  // placement of the jobs if faster (jobs_placement.hpp).
  Placement first_fit;
  std::optional<InputError> error;
  try {
    first_fit = ev.jobs() == 1 ? place_with(scenario, ev.job_evaluator(0)) : greedy_jobs_first_fit(scenario);
  } catch (const InputError& e) {
    error = e;
  }
  // With one job, the rules weighed round-robin's placement among their candidates already (rule 8), so the check
  // keeps their answer (two more estimates). A DiLoCo job keeps its island-first placement, as the search does.
  if (!runs_diloco(scenario)) {
    const double first_fit_s = error ? std::numeric_limits<double>::infinity() : ev.objective_s(first_fit);
    if (std::optional<Placement> round_robin = faster_round_robin_jobs(scenario, ev, first_fit_s))
      return *round_robin;
  }
  if (error) throw *error;
  return first_fit;
}

Placement GreedyPlacer::place_with(const Scenario& scenario, const Evaluator& ev) {
  // DiLoCo: islands first (island_first.hpp), each island by these rules as an every-step job on its group's GPUs.
  if (runs_diloco(scenario)) {
    if (std::optional<Placement> islands = island_first_placement(
            scenario, [](const Scenario& island) { return GreedyPlacer::place_with(island, Evaluator(island)); }))
      return *islands;
  }
  std::vector<int> regions;
  for (const auto& h : scenario.platform.hosts)
    if (h.gpus > 0 && std::find(regions.begin(), regions.end(), h.region) == regions.end())
      regions.push_back(h.region);
  std::sort(regions.begin(), regions.end());

  // Many constructions give the same placement (e.g. both host policies on identical hosts): each distinct one is a
  // candidate once, in construction order.
  std::vector<std::vector<int>> candidates;
  std::set<std::vector<int>> seen, built;
  auto add = [&](const std::vector<int>& hosts) {
    if (seen.insert(hosts).second) candidates.push_back(hosts);
  };
  for (int start : regions) {
    const std::vector<int> chain = region_chain(ev, regions, start);
    for (HostOrder policy : {HostOrder::kSpeed, HostOrder::kSize})
      for (UnitOrder order : {UnitOrder::kStageMajor, UnitOrder::kStageMajorReversed, UnitOrder::kReplicaMajor,
                              UnitOrder::kHeaviestFirst}) {
        Builder b(scenario, ev, chain, policy);
        if (!b.build(order)) continue;
        std::vector<int> hosts = b.hosts();
        if (!built.insert(hosts).second) continue;  // built before: it and its re-deal were added then
        add(hosts);
        if (redeal_by_speed(ev, hosts)) add(hosts);
      }
  }
  // Round-robin's placement too: the rules above keep a TP group on one host, which is slower than spreading it
  // where a host reaches itself over a slower link than its NIC (a SimGrid <cluster> node's private link, PCIe
  // against a 400 Gbit/s NIC): there greedy's rules alone can be slower than round-robin.
  const std::vector<int> round_robin = hosts_of(round_robin_placement(scenario));
  bool fits = true;
  for (size_t r = 0; r < round_robin.size() && fits; ++r) fits = ev.fits(static_cast<int>(r), round_robin[r]);
  if (fits) add(round_robin);
  const int best = fastest_candidate(ev, candidates).index;
  if (best < 0)
    throw InputError(scenario.file, 0, "job",
                     "greedy placement: the job's stages do not fit in the platform's GPU memory");
  return placement_from_hosts(candidates[best]);
}

}  // namespace hulk
