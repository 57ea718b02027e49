#include "sim/core/traffic_matrix.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "sim/core/errors.hpp"

namespace hulk {
namespace {

std::size_t idx(int hosts, int a, int b) { return static_cast<std::size_t>(a) * hosts + b; }

// Total length of the union of intervals (sorted in place).
double union_length(std::vector<std::pair<double, double>>& iv) {
  std::sort(iv.begin(), iv.end());
  double total = 0, cur_s = 0, cur_e = 0;
  bool open = false;
  for (const auto& [s, e] : iv) {
    if (!open) {
      cur_s = s;
      cur_e = e;
      open = true;
    } else if (s <= cur_e) {
      cur_e = std::max(cur_e, e);
    } else {
      total += cur_e - cur_s;
      cur_s = s;
      cur_e = e;
    }
  }
  if (open) total += cur_e - cur_s;
  return total;
}

}  // namespace

CommKind comm_kind_from_string(const std::string& kind) {
  if (kind == "dp") return CommKind::dp;
  if (kind == "tp") return CommKind::tp;
  if (kind == "pp") return CommKind::pp;
  throw InputError("", 0, "kind", "unknown communication kind '" + kind + "' (expected dp, tp or pp)");
}

TrafficMatrix TrafficMatrix::zeros(int hosts) {
  TrafficMatrix t;
  t.hosts = hosts;
  for (int k = 0; k < kCommKinds; ++k) {
    t.bytes[k].assign(static_cast<std::size_t>(hosts) * hosts, 0.0);
    t.busy_s[k].assign(static_cast<std::size_t>(hosts) * hosts, 0.0);
  }
  return t;
}

bool TrafficMatrix::any_between(int a, int b) const {
  for (int k = 0; k < kCommKinds; ++k)
    if (bytes[k][idx(hosts, a, b)] > 0) return true;
  return false;
}

TrafficMatrix traffic_from_events(const PlatformSpec& platform, const std::vector<CommEvent>& events) {
  const int H = static_cast<int>(platform.hosts.size());
  TrafficMatrix t = TrafficMatrix::zeros(H);
  // Intervals per (kind, unordered pair); std::map keeps the aggregation order deterministic.
  std::map<std::pair<int, std::pair<int, int>>, std::vector<std::pair<double, double>>> intervals;
  std::vector<int> iterations;
  for (const CommEvent& e : events) {
    const int k = static_cast<int>(comm_kind_from_string(e.kind));
    if (e.src_host < 0 || e.src_host >= H || e.dst_host < 0 || e.dst_host >= H)
      throw InputError("", 0, "src_host/dst_host",
                       "communication event between hosts " + std::to_string(e.src_host) + " and " +
                           std::to_string(e.dst_host) + " outside the platform (expected 0.." +
                           std::to_string(H - 1) + ")");
    const int a = std::min(e.src_host, e.dst_host), b = std::max(e.src_host, e.dst_host);
    t.bytes[k][idx(H, a, b)] += e.bytes;
    intervals[{k, {a, b}}].push_back({e.start_s, std::max(e.start_s, e.end_s)});
    iterations.push_back(e.iteration);
  }
  std::sort(iterations.begin(), iterations.end());
  const double n_iter =
      std::max<double>(1.0, static_cast<double>(std::unique(iterations.begin(), iterations.end()) - iterations.begin()));
  for (auto& [key, iv] : intervals) t.busy_s[key.first][idx(H, key.second.first, key.second.second)] = union_length(iv);
  for (int k = 0; k < kCommKinds; ++k) {
    for (int a = 0; a < H; ++a) {
      for (int b = a; b < H; ++b) {
        const double by = t.bytes[k][idx(H, a, b)] / n_iter, bu = t.busy_s[k][idx(H, a, b)] / n_iter;
        t.bytes[k][idx(H, a, b)] = t.bytes[k][idx(H, b, a)] = by;
        t.busy_s[k][idx(H, a, b)] = t.busy_s[k][idx(H, b, a)] = bu;
      }
    }
  }
  return t;
}

}  // namespace hulk
