// Bounds of scenario quantities. The numbers and their reasons are the table "Bounds" of scenarios/README.md; a
// change here changes that table.
#include "sim/scenario/bounds.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hulk {
namespace bounds {
// Light in fibre needs ~0.1 s for the longest great-circle route and a geostationary hop ~0.25 s; 10 s is far
// beyond any real link, and SimGrid deadlocks on latencies near 1e308.
const Bound kLatency{0.0, 10.0, "a latency", "0s .. 10s", "no real link is slower than 10 s one way"};
// 1 kbps (an acoustic modem) to 10 Tbps (ten times the fastest NVLink/NVSwitch port per GPU today).
const Bound kBandwidth{1e3 / 8, 1e13 / 8, "a bandwidth", "1kbps .. 10Tbps",
                       "slower links make an iteration last years, faster ones do not exist"};
const Bound kMemoryBandwidth{1e6, 1e14, "a memory bandwidth", "1MBps .. 100TBps",
                             "HBM3e reaches 8 TB/s; 100 TB/s is beyond any GPU memory"};
// 1 Gflop/s (a laptop CPU core) to 10 Pflop/s (five times a B200's dense fp16 peak).
const Bound kFlops{1e9, 1e16, "a compute rate", "1Gf .. 10Pf", "from a CPU core to 5x the fastest GPU"};
// 1 MB to 10 TB of device memory (the largest GPUs have 192 GB).
const Bound kMemory{1e6, 1e13, "a memory size", "1MB .. 10TB", "no GPU has less than 1 MB or more than 10 TB"};
// SimGrid's TCP-gamma: 1 kB to 1 GB (Linux caps windows far below 1 GB).
const Bound kTcpWindow{1e3, 1e9, "a TCP window", "1kB .. 1GB", "real TCP windows are KB to hundreds of MB"};
}  // namespace bounds

std::string bound_problem(double value, const Bound& b, const std::string& shown) {
  if (std::isfinite(value) && value >= b.min && value <= b.max) return "";
  return "'" + shown + "' is out of range (expected " + b.what + " in " + b.range + ": " + b.why + ")";
}

namespace {
std::string text(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// SI values of derived data have no user spelling: show them in the SI unit.
void check(std::vector<std::string>& out, const std::string& where, double value, const Bound& b, const char* unit) {
  const std::string p = bound_problem(value, b, text(value) + unit);
  if (!p.empty()) out.push_back(where + ": " + p);
}
}  // namespace

std::vector<std::string> platform_bound_problems(const PlatformSpec& p) {
  std::vector<std::string> out;
  const bool pair_table =
      !p.simgrid_xml.empty() || !p.host_pair_latency_s.empty() || p.wan_capacity == WanCapacity::host;
  if (pair_table && static_cast<long long>(p.hosts.size()) > bounds::kMaxHostsPairTable)
    return {std::to_string(p.hosts.size()) + " servers (expected at most " +
            std::to_string(bounds::kMaxHostsPairTable) +
            " in all with measured pair latencies, a SimGrid XML file or per-host WAN capacity: routes are kept for "
            "every pair of servers, and memory grows with the square)"};
  if (static_cast<long long>(p.hosts.size()) > bounds::kMaxHosts)
    return {std::to_string(p.hosts.size()) + " servers (expected at most " + std::to_string(bounds::kMaxHosts) +
            " in all)"};
  for (const HostSpec& h : p.hosts) {
    const std::string w = "host " + h.name;
    if (h.gpus < 0 || h.gpus > bounds::kMaxGpusPerHost)
      out.push_back(w + ": " + std::to_string(h.gpus) + " GPUs (expected at most " +
                    std::to_string(bounds::kMaxGpusPerHost) + " per host)");
    if (h.gpus > 0) {
      // The peak of either precision: an inline GPU's fp32 defaults to half its fp16, which may be below 1 Gf.
      check(out, w + " GPU flops", std::max(h.gpu.fp16_flops, h.gpu.fp32_flops), bounds::kFlops, " flop/s");
      check(out, w + " GPU memory", h.gpu.memory_bytes, bounds::kMemory, " B");
    }
    // A bandwidth of 0 is "not described" (XML platforms route over their own links); it is never used then.
    if (h.host_link.bandwidth_Bps != 0)
      check(out, w + " link bandwidth", h.host_link.bandwidth_Bps, bounds::kBandwidth, " B/s");
    check(out, w + " link latency", h.host_link.latency_s, bounds::kLatency, " s");
    check(out, w + " intra-host bandwidth", h.intra_link.bandwidth_Bps, bounds::kBandwidth, " B/s");
    check(out, w + " intra-host latency", h.intra_link.latency_s, bounds::kLatency, " s");
  }
  for (std::size_t a = 0; a < p.wan.size(); ++a)
    for (std::size_t b = a + 1; b < p.wan[a].size() && b < p.regions.size(); ++b) {
      const std::string w = "WAN " + p.regions[a] + "-" + p.regions[b];
      if (p.wan[a][b].bandwidth_Bps != 0) check(out, w + " bandwidth", p.wan[a][b].bandwidth_Bps, bounds::kBandwidth, " B/s");
      check(out, w + " latency", p.wan[a][b].latency_s, bounds::kLatency, " s");
    }
  const auto host = [&](int i) { return i >= 0 && i < static_cast<int>(p.hosts.size()) ? p.hosts[i].name : "?"; };
  for (const auto& [k, v] : p.host_pair_latency_s)
    check(out, "latency " + host(k.first) + " - " + host(k.second), v, bounds::kLatency, " s");
  for (const auto& [k, v] : p.host_pair_bandwidth_Bps)
    check(out, "bandwidth " + host(k.first) + " - " + host(k.second), v, bounds::kBandwidth, " B/s");
  if (!p.fastest_link.empty())
    check(out, "link " + p.fastest_link + " bandwidth", p.fastest_link_Bps, bounds::kBandwidth, " B/s");
  return out;
}

}  // namespace hulk
