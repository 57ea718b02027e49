#include "sim/engine/sg_platform.hpp"

#include <string>

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "sim/core/errors.hpp"

namespace hulk {
namespace {

namespace sg4 = simgrid::s4u;
using Dir = sg4::LinkInRoute::Direction;

// Bandwidth of latency-only links: large enough never to be a bottleneck, finite for the LMM solver.
constexpr double kLatencyLinkBps = 1e18;

SgPlatform load_xml(const PlatformSpec& platform, const JobSpec& job) {
  auto* engine = sg4::Engine::get_instance();
  try {
    engine->load_platform(platform.simgrid_xml);
  } catch (const std::exception& e) {
    throw InputError(platform.simgrid_xml, 0, "platform.simgrid.file",
                     std::string("SimGrid rejected the platform: ") + e.what());
  }
  SgPlatform out;
  for (const HostSpec& h : platform.hosts) {
    sg4::Host* host = engine->host_by_name_or_null(h.name);
    if (!host)
      throw InputError(platform.simgrid_xml, 0, "platform.simgrid.gpus." + h.name,
                       "host '" + h.name + "' is not in the SimGrid XML file");
    const double gpu_speed = h.gpu.peak_flops(job.precision) * job.utilisation;
    out.hosts.push_back(host);
    // The XML fixes the host's speed and core count (a CPU's core count cannot change once sealed, and SimGrid
    // seals it while parsing). Each GPU is therefore a 1/gpus share of the host: every exec is bounded to
    // speed/gpus, so up to `gpus` concurrent execs never slow each other down, and its flop count is scaled so that
    // the time is flops / (peak * utilisation).
    const double share = host->get_speed() / h.gpus;
    out.flops_scale.push_back(share / gpu_speed);
    out.exec_bound.push_back(share);
  }
  return out;
}

}  // namespace

void sg_configure_engine(const NetworkSpec& network) {
  // Normal runs print nothing; real SimGrid problems (warnings and worse) still show.
  xbt_log_control_set("root.thresh:warning");
  sg4::Engine::set_config("network/model:" + network.model);
  sg4::Engine::set_config("network/TCP-gamma:" + std::to_string(network.tcp_window_bytes));
  sg4::Engine::set_config(std::string("network/crosstraffic:") + (network.crosstraffic ? "1" : "0"));
  // KiB. Rank actors recurse only a few frames deep; 10k actors x 128 KiB = 1.3 GB virtual, pages touched only
  // when used (measured: see the simulator benchmark in the report).
  sg4::Engine::set_config("contexts/stack-size:128");
}

SgPlatform sg_build_platform(const PlatformSpec& platform, const JobSpec& job) {
  if (!platform.simgrid_xml.empty()) return load_xml(platform, job);

  sg4::NetZone* zone = sg4::create_full_zone("hulk");
  SgPlatform out;
  const size_t H = platform.hosts.size();
  const bool pair_latency = !platform.host_pair_latency_s.empty();
  std::vector<sg4::Link*> nic(H);
  for (size_t i = 0; i < H; ++i) {
    const HostSpec& h = platform.hosts[i];
    sg4::Host* host = zone->create_host(h.name, h.gpu.peak_flops(job.precision) * job.utilisation);
    host->set_core_count(h.gpus);
    out.hosts.push_back(host);
    out.flops_scale.push_back(1.0);
    out.exec_bound.push_back(0.0);
    nic[i] = zone->create_split_duplex_link("nic:" + h.name, h.host_link.bandwidth_Bps)
                 ->set_latency(pair_latency ? 0.0 : h.host_link.latency_s)
                 ->seal();
    // Loopback: the aggregate of all GPU ports (shared) and one GPU's port (fat pipe = per-flow cap).
    sg4::Link* agg = zone->create_link("intra:" + h.name, h.intra_link.bandwidth_Bps * h.gpus)
                         ->set_sharing_policy(sg4::Link::SharingPolicy::SHARED)
                         ->seal();
    sg4::Link* port = zone->create_link("port:" + h.name, h.intra_link.bandwidth_Bps)
                          ->set_latency(h.intra_link.latency_s)
                          ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                          ->seal();
    zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                    {sg4::LinkInRoute(agg), sg4::LinkInRoute(port)}, false);
  }
  const size_t R = platform.regions.size();
  std::vector<std::vector<sg4::Link*>> wan(R, std::vector<sg4::Link*>(R, nullptr));
  for (size_t a = 0; a < R; ++a)
    for (size_t b = a + 1; b < R; ++b)
      wan[a][b] = wan[b][a] =
          zone->create_split_duplex_link("wan:" + platform.regions[a] + "~" + platform.regions[b],
                                         platform.wan[a][b].bandwidth_Bps)
              ->set_latency(pair_latency ? 0.0 : platform.wan[a][b].latency_s)
              ->seal();
  for (size_t a = 0; a < H; ++a) {
    for (size_t b = 0; b < H; ++b) {
      if (a == b) continue;
      const int ra = platform.hosts[a].region, rb = platform.hosts[b].region;
      std::vector<sg4::LinkInRoute> links{sg4::LinkInRoute(nic[a], Dir::UP)};
      double latency_s = platform.hosts[a].host_link.latency_s + platform.hosts[b].host_link.latency_s;
      if (ra != rb) {
        links.emplace_back(wan[ra][rb], ra < rb ? Dir::UP : Dir::DOWN);
        latency_s += platform.wan[ra][rb].latency_s;
      }
      links.emplace_back(nic[b], Dir::DOWN);
      if (pair_latency) {
        auto it = platform.host_pair_latency_s.find({std::min(a, b), std::max(a, b)});
        if (it != platform.host_pair_latency_s.end()) latency_s = it->second;
        sg4::Link* lat = zone->create_link("lat:" + platform.hosts[a].name + ">" + platform.hosts[b].name,
                                           kLatencyLinkBps)
                             ->set_latency(latency_s)
                             ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                             ->seal();
        links.emplace_back(lat);
      }
      zone->add_route(out.hosts[a]->get_netpoint(), out.hosts[b]->get_netpoint(), nullptr, nullptr, links, false);
    }
  }
  zone->seal();
  return out;
}

}  // namespace hulk
