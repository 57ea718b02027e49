#include "sim/engine/sg_platform.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <string>

#include <simgrid/Exception.hpp>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>

#include "sim/core/errors.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {
namespace {

namespace sg4 = simgrid::s4u;
using Dir = sg4::LinkInRoute::Direction;

SgPlatform load_xml(const PlatformSpec& platform, const JobSpec& job) {
  auto* engine = sg4::Engine::get_instance();
  // SimGrid carries a message between two GPUs of one host over the host's route to itself, or, in zones that give
  // it none (Full routing), over its loopback link: that one is platform.simgrid.intra_host (the intra_link of every
  // host but those whose own route the importer found, sim/engine/simgrid_xml.cpp). Set before loading.
  const auto exact = [](double v) {  // std::to_string keeps 6 decimals: a 0.5 us latency would become 0
    std::ostringstream text;
    text << std::setprecision(17) << v;
    return text.str();
  };
  sg4::Engine::set_config("network/loopback-bw:" + exact(platform.xml_loopback.bandwidth_Bps));
  sg4::Engine::set_config("network/loopback-lat:" + exact(platform.xml_loopback.latency_s));
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

/** Route latencies of the loaded XML platform (SimGrid's own routing), then, if asked, every link's latency set
 *  to 0 so that the receiver applies it (see sg_build_platform). A host's route to itself only for hosts of
 *  several GPUs (one GPU sends nothing to itself; SimGrid crashes on it in a Full zone without routes); over the
 *  loopback (no link on the route) the latency stays on the link, as intra-host links do on generated platforms. */
void xml_route_latencies(const PlatformSpec& platform, SgPlatform& out, bool latency_at_receiver) {
  const std::size_t n = out.hosts.size();
  out.route_latency_s.assign(n * n, 0.0);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b && platform.hosts[a].gpus < 2) continue;
      std::vector<sg4::Link*> links;
      double latency = 0;
      out.hosts[a]->route_to(out.hosts[b], links, &latency);
      out.route_latency_s[a * n + b] = a == b && links.empty() ? 0.0 : latency;
    }
  if (!latency_at_receiver) return;
  for (sg4::Link* link : sg4::Engine::get_instance()->get_all_links())
    if (link->get_name() != "__loopback__") link->set_latency(0);
  out.latency_at_receiver = true;
}

}  // namespace

namespace {

// A model link as SimGrid sees it: the link object and, for a split-duplex half, its direction.
struct SgLink {
  sg4::Link* link = nullptr;
  Dir dir = Dir::NONE;
};

/** Creates every model link in id order (the order SimGrid's solver meets them in). A split-duplex link is created
 *  once, at its UP half; its DOWN half is the same SimGrid link used in the other direction. */
/** A SimGrid bandwidth profile from its text, not repeated. */
simgrid::kernel::profile::Profile* profile_of(const std::string& name, const std::string& text) {
  return simgrid::kernel::profile::ProfileBuilder::from_string(name, text, -1);
}

/** The profile of link `id` onto a SimGrid link before it is sealed (SimGrid refuses profiles after). */
void set_profile(sg4::Link* link, int id, const std::map<int, LinkProfile>& profiles) {
  const auto p = profiles.find(id);
  if (p == profiles.end()) return;
  link->set_bandwidth(p->second.initial_Bps);
  if (!p->second.text.empty()) link->set_bandwidth_profile(profile_of("bw:" + std::to_string(id), p->second.text));
}

std::vector<SgLink> create_links(sg4::NetZone* zone, const RouteModel& model, bool latency_at_receiver,
                                 const std::map<int, LinkProfile>& profiles) {
  std::vector<SgLink> out(model.links());
  for (int id = 0; id < model.links(); ++id) {
    const ModelLink& l = model.link(id);
    // Intra-host links keep their latency (microseconds): tensor-parallel steps are most of all messages, a
    // receiver-side wait for each would cost a SimGrid activity apiece, and a queued intra-host message is then off
    // by one such latency at most.
    const bool intra_host = l.kind == LinkKind::intra_aggregate || l.kind == LinkKind::gpu_port;
    const double latency_s = latency_at_receiver && !intra_host ? 0.0 : l.latency_s;
    if (l.duplex == Duplex::down) {
      out[id] = SgLink{out[l.duplex_peer].link, Dir::DOWN};
    } else if (l.duplex == Duplex::up) {
      sg4::SplitDuplexLink* link = zone->create_split_duplex_link(model.link_name(id), l.bandwidth_Bps);
      link->set_latency(latency_s);
      set_profile(link->get_link_up(), id, profiles);  // each half its own; the DOWN half's id is the peer's
      set_profile(link->get_link_down(), l.duplex_peer, profiles);
      out[id] = SgLink{link->seal(), Dir::UP};
    } else {
      const auto policy =
          l.sharing == LinkSharing::fatpipe ? sg4::Link::SharingPolicy::FATPIPE : sg4::Link::SharingPolicy::SHARED;
      sg4::Link* link = zone->create_link(model.link_name(id), l.bandwidth_Bps)->set_latency(latency_s)->set_sharing_policy(policy);
      set_profile(link, id, profiles);
      out[id] = SgLink{link->seal(), Dir::NONE};
    }
  }
  return out;
}

/** SimGrid's route of model link ids. */
std::vector<sg4::LinkInRoute> sg_path(const std::vector<SgLink>& links, const int* ids, int count) {
  std::vector<sg4::LinkInRoute> path;
  for (int i = 0; i < count; ++i) {
    const SgLink& l = links[ids[i]];
    path.push_back(l.dir == Dir::NONE ? sg4::LinkInRoute(l.link) : sg4::LinkInRoute(l.link, l.dir));
  }
  return path;
}

/** How the routes between regions decompose, when they do: every route from host a to a host b of another region
 *  is exit[a], then middle[region(a), region(b)], then entry[b]. SimGrid's route between two zones is exactly that
 *  concatenation (the source's route to its zone's gateway, the zones' route, the gateway's route to the
 *  destination), so a zone per region with a gateway carries the same links in the same order, and SimGrid holds
 *  sum(hosts per region^2) + regions^2 routes instead of hosts^2. */
struct RegionSplit {
  bool applies = false;
  std::vector<char> populated;            ///< per region: has hosts
  std::vector<int> exit, entry;           ///< per host: its first / last link toward other regions
  std::vector<std::vector<int>> middle;   ///< per region pair (a-major): the links between exit and entry
};

/** The split of the model's routes, or applies = false if some route between regions does not decompose (per-pair
 *  latency links, per-host WAN links) or there is a single populated region (nothing to split). */
RegionSplit region_split(const RouteModel& model) {
  const int H = model.hosts(), R = model.regions();
  RegionSplit s;
  s.populated.assign(R, 0);
  for (int h = 0; h < H; ++h) s.populated[model.region_of(h)] = 1;
  if (std::count(s.populated.begin(), s.populated.end(), 1) < 2) return s;
  s.exit.assign(H, -1);
  s.entry.assign(H, -1);
  s.middle.assign(static_cast<std::size_t>(R) * R, {});
  std::vector<char> middle_known(static_cast<std::size_t>(R) * R, 0);
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b) {
      const int ra = model.region_of(a), rb = model.region_of(b);
      if (ra == rb) continue;
      const Route r = model.route(a, b);
      if (r.n_path < 2) return s;
      int& exit = s.exit[a];
      int& entry = s.entry[b];
      if (exit < 0) exit = r.path[0];
      if (entry < 0) entry = r.path[r.n_path - 1];
      const int* mid_begin = r.path.data() + 1;
      const int* mid_end = r.path.data() + r.n_path - 1;
      const std::size_t pair = static_cast<std::size_t>(ra) * R + rb;
      if (!middle_known[pair]) {
        s.middle[pair].assign(mid_begin, mid_end);
        middle_known[pair] = 1;
      }
      const std::vector<int>& known = s.middle[pair];
      if (exit != r.path[0] || entry != r.path[r.n_path - 1] ||
          !std::equal(known.begin(), known.end(), mid_begin, mid_end))
        return s;
    }
  s.applies = true;
  return s;
}

/** The routes of a split platform: inside each region every host pair (a host to itself included) and each host's
 *  routes to and from its zone's gateway; between regions, one route per zone pair. */
void add_region_routes(const RouteModel& model, const RegionSplit& split, const std::vector<SgLink>& links,
                       const std::vector<sg4::Host*>& hosts, sg4::NetZone* top,
                       const std::vector<sg4::NetZone*>& zone_of_region,
                       const std::vector<simgrid::kernel::routing::NetPoint*>& gateway) {
  const int H = model.hosts(), R = model.regions();
  std::vector<std::vector<int>> hosts_of_region(R);
  for (int h = 0; h < H; ++h) hosts_of_region[model.region_of(h)].push_back(h);
  for (int r = 0; r < R; ++r) {
    sg4::NetZone* z = zone_of_region[r];
    for (int a : hosts_of_region[r]) {
      for (int b : hosts_of_region[r]) {
        const Route& route = model.route(a, b);
        z->add_route(hosts[a]->get_netpoint(), hosts[b]->get_netpoint(), nullptr, nullptr,
                     sg_path(links, route.path.data(), route.n_path), false);
      }
      z->add_route(hosts[a]->get_netpoint(), gateway[r], nullptr, nullptr, sg_path(links, &split.exit[a], 1), false);
      z->add_route(gateway[r], hosts[a]->get_netpoint(), nullptr, nullptr, sg_path(links, &split.entry[a], 1), false);
    }
  }
  for (int ra = 0; ra < R; ++ra)
    for (int rb = 0; rb < R; ++rb) {
      if (ra == rb || !split.populated[ra] || !split.populated[rb]) continue;
      const std::vector<int>& mid = split.middle[static_cast<std::size_t>(ra) * R + rb];
      top->add_route(zone_of_region[ra]->get_netpoint(), zone_of_region[rb]->get_netpoint(), gateway[ra],
                     gateway[rb], sg_path(links, mid.data(), static_cast<int>(mid.size())), false);
    }
}

}  // namespace

void dense_route_latencies(SgPlatform& sg) {
  if (!sg.route_latency_s.empty()) return;
  const std::size_t n = sg.hosts.size();
  std::vector<double> table(n * n, 0.0);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) table[a * n + b] = sg.latency_s(static_cast<int>(a), static_cast<int>(b));
  sg.route_latency_s = std::move(table);
}

SgPlatform sg_build_platform(const PlatformSpec& platform, const JobSpec& job, bool latency_at_receiver,
                             const std::map<int, LinkProfile>& bandwidth_profiles, bool region_zones) {
  if (!platform.simgrid_xml.empty()) {
    SgPlatform out = load_xml(platform, job);
    xml_route_latencies(platform, out, latency_at_receiver);
    return out;
  }

  const auto routes = std::make_shared<const RouteModel>(platform);
  const RouteModel& model = *routes;
  // Per-region zones only where the receiver applies latencies: SimGrid's links then carry none on the routes the
  // zones compose, so composing them cannot even change a latency's rounding.
  const RegionSplit split = region_zones && latency_at_receiver ? region_split(model) : RegionSplit{};
  sg4::NetZone* zone = sg4::create_full_zone("hulk");
  std::vector<sg4::NetZone*> zone_of_region(model.regions(), zone);
  std::vector<simgrid::kernel::routing::NetPoint*> gateway(model.regions(), nullptr);
  if (split.applies)
    for (int r = 0; r < model.regions(); ++r) {
      if (!split.populated[r]) continue;
      zone_of_region[r] = sg4::create_full_zone("hulk/region" + std::to_string(r))->set_parent(zone);
      gateway[r] = zone_of_region[r]->create_router("hulk/gateway" + std::to_string(r));
    }
  SgPlatform out;
  for (int h = 0; h < model.hosts(); ++h) {
    const HostSpec& spec = platform.hosts[h];
    sg4::Host* host =
        zone_of_region[model.region_of(h)]->create_host(spec.name, spec.gpu.peak_flops(job.precision) * job.utilisation);
    host->set_core_count(spec.gpus);
    out.hosts.push_back(host);
    out.flops_scale.push_back(1.0);
    out.exec_bound.push_back(0.0);
  }
  const std::vector<SgLink> links = create_links(zone, model, latency_at_receiver, bandwidth_profiles);
  // Each model link's own SimGrid link: a split-duplex half is the half itself (a profile set on it changes that
  // direction only).
  for (const SgLink& l : links) {
    auto* split_link = static_cast<sg4::SplitDuplexLink*>(l.link);
    out.model_links.push_back(l.dir == Dir::UP ? split_link->get_link_up()
                              : l.dir == Dir::DOWN ? split_link->get_link_down()
                                                   : l.link);
  }
  out.routes = routes;
  out.latency_at_receiver = latency_at_receiver;
  if (split.applies) {
    add_region_routes(model, split, links, out.hosts, zone, zone_of_region, gateway);
  } else {
    for (int a = 0; a < model.hosts(); ++a)
      for (int b = 0; b < model.hosts(); ++b) {
        const Route& r = model.route(a, b);
        zone->add_route(out.hosts[a]->get_netpoint(), out.hosts[b]->get_netpoint(), nullptr, nullptr,
                        sg_path(links, r.path.data(), r.n_path), false);
      }
  }
  for (sg4::NetZone* z : zone_of_region)
    if (z != zone) z->seal();
  zone->seal();
  return out;
}

}  // namespace hulk
