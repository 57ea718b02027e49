#include "sim/methods/plan_cost.hpp"

#include <algorithm>
#include <cmath>

#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk {
namespace {

constexpr double kSecondsPerHour = 3600;
constexpr double kBytesPerGB = 1e9;

}  // namespace

bool prices_complete(const Scenario& s) {
  for (const HostSpec& h : s.platform.hosts)
    if (!s.prices.gpu_hour.count(h.gpu.name)) return false;
  const std::size_t n = s.platform.regions.size();
  if (n > 1 && s.prices.egress_gb.size() != n) return false;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (std::isnan(s.prices.egress_gb[a][b])) return false;
  return true;
}

PlacementCost placement_cost(const Scenario& s, const Placement& placement) {
  PlacementCost c;
  if (!prices_complete(s)) return c;
  c.gpu_usd_per_s = 0;
  for (const GpuSlot& g : placement.gpu_of_rank)
    c.gpu_usd_per_s += s.prices.gpu_hour.at(s.platform.hosts[g.host].gpu.name) / kSecondsPerHour;
  c.egress_usd_per_iteration = c.egress_gb_per_iteration = 0;
  if (s.platform.regions.size() < 2) return c;
  const TrafficMatrix t = estimate_traffic(s, placement);
  for (int a = 0; a < t.hosts; ++a)
    for (int b = a + 1; b < t.hosts; ++b) {
      const int ra = s.platform.hosts[a].region, rb = s.platform.hosts[b].region;
      if (ra == rb) continue;
      double bytes = 0;
      for (int k = 0; k < kCommKinds; ++k) bytes += t.bytes_between(static_cast<CommKind>(k), a, b);
      c.egress_gb_per_iteration += bytes / kBytesPerGB;
      c.egress_usd_per_iteration += bytes / kBytesPerGB * s.prices.egress_gb[ra][rb];
    }
  return c;
}

std::function<double(const std::vector<int>&, double)> cost_objective(const Scenario& s) {
  const double tokens = static_cast<double>(s.only_job().global_batch) * s.only_job().model.seq_len;
  return [s, tokens](const std::vector<int>& hosts, double time_s) {
    return placement_cost(s, placement_from_hosts(hosts)).usd_per_mtokens(time_s, tokens);
  };
}

double cheapest_gpu_usd_per_s(const Scenario& s) {
  if (!prices_complete(s)) return std::nan("");
  double cheapest = INFINITY;
  for (const HostSpec& h : s.platform.hosts) cheapest = std::min(cheapest, s.prices.gpu_hour.at(h.gpu.name));
  return cheapest / kSecondsPerHour;
}

}  // namespace hulk
