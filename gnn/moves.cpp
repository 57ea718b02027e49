#include "gnn/moves.hpp"

#include <algorithm>
#include <cmath>

#include "gnn/decode.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"

namespace hulk::gnn {

std::vector<std::vector<double>> role_shares(const Scenario& scenario, const Placement& p) {
  const int pp = scenario.only_job().par.pp, per_stage = scenario.only_job().par.dp * scenario.only_job().par.tp;
  const auto& hosts = scenario.platform.hosts;
  std::vector<std::vector<double>> share(hosts.size(), std::vector<double>(static_cast<std::size_t>(pp) + 1, 0.0));
  std::vector<int> used(hosts.size(), 0);
  for (std::size_t r = 0; r < p.gpu_of_rank.size(); ++r) {
    const int h = p.gpu_of_rank[r].host;
    share[h][static_cast<std::size_t>(r) / per_stage] += 1.0;
    ++used[h];
  }
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const double gpus = std::max(1, hosts[h].gpus);
    share[h][pp] = std::max(0, hosts[h].gpus - used[h]);
    for (double& v : share[h]) v /= gpus;
  }
  return share;
}

bool exchange_hosts(const Scenario& scenario, Placement& p, int a, int b) {
  std::vector<std::size_t> on_a, on_b;
  for (std::size_t r = 0; r < p.gpu_of_rank.size(); ++r) {
    if (p.gpu_of_rank[r].host == a) on_a.push_back(r);
    if (p.gpu_of_rank[r].host == b) on_b.push_back(r);
  }
  if (static_cast<int>(on_a.size()) > scenario.platform.hosts[b].gpus ||
      static_cast<int>(on_b.size()) > scenario.platform.hosts[a].gpus)
    return false;
  for (std::size_t i = 0; i < on_a.size(); ++i) p.gpu_of_rank[on_a[i]] = {b, static_cast<int>(i)};
  for (std::size_t i = 0; i < on_b.size(); ++i) p.gpu_of_rank[on_b[i]] = {a, static_cast<int>(i)};
  return true;
}

namespace {

/** What decides whether exchanging two hosts of a valid placement gives a valid one: the ranks each host holds and
 *  the largest stage memory among them. The exchange keeps every other host's GPUs, and each of the two hosts' ranks
 *  lands on distinct slots of the other (exchange_hosts), so the result is valid iff the counts fit and, when the job
 *  checks memory, each host's GPUs hold the other's largest stage. */
struct HostLoads {
  std::vector<int> ranks;
  std::vector<double> peak_bytes;  ///< largest peak memory of a stage with a rank on the host (0 when none)
};

HostLoads host_loads(const Scenario& scenario, const Placement& placement) {
  const JobSpec& job = scenario.only_job();
  const JobCost cost = compute_job_cost(job);
  const ParallelPlan plan(job.par);
  const std::size_t hosts = scenario.platform.hosts.size();
  HostLoads loads{std::vector<int>(hosts, 0), std::vector<double>(hosts, 0.0)};
  for (std::size_t r = 0; r < placement.gpu_of_rank.size(); ++r) {
    const auto h = static_cast<std::size_t>(placement.gpu_of_rank[r].host);
    ++loads.ranks[h];
    const double need = cost.stages[plan.coord_of(static_cast<int>(r)).pp].peak_memory_bytes;
    loads.peak_bytes[h] = std::max(loads.peak_bytes[h], need);
  }
  return loads;
}

}  // namespace

std::vector<std::pair<int, int>> candidate_exchanges(const Scenario& scenario, const Placement& placement) {
  const std::vector<std::vector<double>> share = role_shares(scenario, placement);
  const int n = static_cast<int>(share.size());
  std::vector<std::pair<int, int>> out;
  // An invalid start: each exchange checked in full, as the fast test below assumes a valid one.
  const bool valid_start = placement_violation(scenario, placement).empty();
  const HostLoads loads = valid_start ? host_loads(scenario, placement) : HostLoads{};
  const bool memory = scenario.only_job().check_memory;
  const auto& hosts = scenario.platform.hosts;
  const auto fits = [&](int from, int to) {
    return loads.ranks[from] <= hosts[to].gpus && (!memory || !(loads.peak_bytes[from] > hosts[to].gpu.memory_bytes));
  };
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (share[a] == share[b]) continue;
      if (valid_start) {
        if (fits(a, b) && fits(b, a)) out.emplace_back(a, b);
        continue;
      }
      Placement p = placement;
      if (exchange_hosts(scenario, p, a, b) && placement_violation(scenario, p).empty()) out.emplace_back(a, b);
    }
  return out;
}

namespace {

/** Mean pipeline position (0 = first stage, 1 = last) of a host's used GPUs, 0.5 when it holds none. */
double stage_position(const std::vector<double>& share) {
  const int pp = static_cast<int>(share.size()) - 1;
  double used = 0, pos = 0;
  for (int k = 0; k < pp; ++k) {
    used += share[k];
    pos += share[k] * (pp > 1 ? static_cast<double>(k) / (pp - 1) : 0.5);
  }
  return used > 0 ? pos / used : 0.5;
}

}  // namespace

std::array<float, kPairFeatures> pair_features(const Scenario& scenario, const RouteModel& network,
                                               const std::vector<std::vector<double>>& shares, int a, int b) {
  // Both directions, so that the features of (a, b) and (b, a) are the same numbers.
  const Route& ab = network.route(a, b);
  const Route& ba = network.route(b, a);
  const double latency_s = 0.5 * (ab.latency_s + ba.latency_s);
  const double bandwidth = std::min(ab.bandwidth_Bps, ba.bandwidth_Bps);
  const HostSpec& ha = scenario.platform.hosts[a];
  const HostSpec& hb = scenario.platform.hosts[b];
  const double used_a = 1.0 - shares[a].back(), used_b = 1.0 - shares[b].back();
  double l1 = 0;
  for (std::size_t k = 0; k < shares[a].size(); ++k) l1 += std::abs(shares[a][k] - shares[b][k]);
  const auto flops = [](const HostSpec& h) { return std::max(1.0, h.gpu.peak_flops("fp16")); };
  // Log scales with fixed offsets, as the graph's features (sim/features/cluster_graph.hpp): typical values in [-3, 3].
  return {static_cast<float>(std::log10(std::max(latency_s, 1e-7) / 1e-3) / 2.0),
          static_cast<float>(std::log10(std::max(bandwidth, 1.0) / 1e9)),
          ha.region == hb.region ? 1.0f : 0.0f,
          static_cast<float>(std::abs(stage_position(shares[a]) - stage_position(shares[b]))),
          static_cast<float>(std::abs(used_a - used_b)),
          static_cast<float>(l1 / 2.0),
          static_cast<float>(std::abs(std::log2(std::max(1, ha.gpus) / static_cast<double>(std::max(1, hb.gpus))))),
          static_cast<float>(std::abs(std::log2(flops(ha) / flops(hb))))};
}

double move_label(double before_s, double after_s) {
  if (!(before_s > 0) || !std::isfinite(before_s)) return 0.0;
  if (!std::isfinite(after_s)) return kMoveLabelClip;
  return std::clamp(after_s / before_s - 1.0, -kMoveLabelClip, kMoveLabelClip);
}

}  // namespace hulk::gnn
