#include "sim/topology/route_model.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace hulk {
namespace {

// A zero or negative bandwidth would divide by zero in the evaluator; a tiny one makes such routes look awful,
// which is the right signal for a placer.
double positive_bw(double bw) { return bw > 0 ? bw : 1.0; }

// Bandwidth of latency-only links: large enough never to be a bottleneck, finite for SimGrid's LMM solver.
constexpr double kLatencyLinkBps = 1e18;

// wan[lo][hi] as the engine reads it (lo < hi); a missing entry (malformed spec) is an empty link.
LinkSpec wan_between(const PlatformSpec& platform, int ra, int rb) {
  const int lo = std::min(ra, rb), hi = std::max(ra, rb);
  const auto& wan = platform.wan;
  if (hi < static_cast<int>(wan.size()) && hi < static_cast<int>(wan[lo].size())) return wan[lo][hi];
  return LinkSpec{};
}

template <typename Map>
const typename Map::mapped_type* pair_value(const Map& map, int a, int b) {
  auto it = map.find(std::make_pair(std::min(a, b), std::max(a, b)));
  return it == map.end() ? nullptr : &it->second;
}

// With measured pair latencies the route's latency link carries all of it: NIC and WAN links carry none.
bool has_pair_latency(const PlatformSpec& p) { return p.simgrid_xml.empty() && !p.host_pair_latency_s.empty(); }

// --- The one definition of each link (the model's ids and the engine's SimGrid links come from these) ---

ModelLink nic_link(const PlatformSpec& p, int h, Duplex half) {
  const LinkSpec& nic = p.hosts[h].host_link;
  return {half == Duplex::up ? LinkKind::nic_up : LinkKind::nic_down, h, -1, nic.bandwidth_Bps,
          has_pair_latency(p) ? 0.0 : nic.latency_s, LinkSharing::shared, half, -1};
}

ModelLink intra_link(const PlatformSpec& p, int h) {
  const HostSpec& hs = p.hosts[h];
  return {LinkKind::intra_aggregate, h, -1, hs.intra_link.bandwidth_Bps * hs.gpus, 0.0, LinkSharing::shared,
          Duplex::none, -1};
}

ModelLink port_link(const PlatformSpec& p, int h) {
  const LinkSpec& intra = p.hosts[h].intra_link;
  return {LinkKind::gpu_port, h, -1, intra.bandwidth_Bps, intra.latency_s, LinkSharing::fatpipe, Duplex::none, -1};
}

// WAN from region `from` to region `to`: the UP half of the split-duplex link if from < to.
ModelLink wan_link(const PlatformSpec& p, int from, int to) {
  const LinkSpec w = wan_between(p, from, to);
  return {LinkKind::wan, from, to, w.bandwidth_Bps, has_pair_latency(p) ? 0.0 : w.latency_s, LinkSharing::shared,
          from < to ? Duplex::up : Duplex::down, -1};
}

// WAN capacity `host`: host h's own cap toward region `to` (its egress shaping), the WAN latency, shared only by
// h's flows to that region.
ModelLink wan_host_link(const PlatformSpec& p, int h, int to) {
  const LinkSpec w = wan_between(p, p.hosts[h].region, to);
  return {LinkKind::wan_host, h, to, w.bandwidth_Bps, has_pair_latency(p) ? 0.0 : w.latency_s, LinkSharing::shared,
          Duplex::none, -1};
}

// Route latency from the spec: a pair's measured or described value, else NIC + NIC (+ WAN) (XML: 0 if missing).
double route_latency_s(const PlatformSpec& p, int a, int b) {
  const HostSpec& ha = p.hosts[a];
  const HostSpec& hb = p.hosts[b];
  if (a == b) return ha.intra_link.latency_s;
  if (const double* lat = pair_value(p.host_pair_latency_s, a, b)) return *lat;
  if (!p.simgrid_xml.empty()) return 0.0;
  double latency_s = ha.host_link.latency_s + hb.host_link.latency_s;
  if (ha.region != hb.region) latency_s += wan_between(p, ha.region, hb.region).latency_s;
  return latency_s;
}

}  // namespace

RouteLinks route_links(const PlatformSpec& p, int a, int b) {
  RouteLinks r;
  auto cross = [&r](const ModelLink& l) { r.links[r.n++] = l; };
  r.latency_s = route_latency_s(p, a, b);
  if (a == b) {
    cross(intra_link(p, a));
    cross(port_link(p, a));
  } else if (!p.simgrid_xml.empty()) {
    const double* bw = pair_value(p.host_pair_bandwidth_Bps, a, b);
    cross({LinkKind::xml_pair, a, b, bw ? *bw : 0.0, r.latency_s, LinkSharing::shared, Duplex::none, -1});
  } else {
    cross(nic_link(p, a, Duplex::up));
    const int ra = p.hosts[a].region, rb = p.hosts[b].region;
    if (ra != rb) cross(p.wan_capacity == WanCapacity::host ? wan_host_link(p, a, rb) : wan_link(p, ra, rb));
    cross(nic_link(p, b, Duplex::down));
    if (has_pair_latency(p))
      cross({LinkKind::pair_latency, a, b, kLatencyLinkBps, r.latency_s, LinkSharing::fatpipe, Duplex::none, -1});
  }
  // Shared links divide their capacity between flows, FATPIPE links cap each flow: the bottleneck is the smaller.
  r.flow_cap_Bps = std::numeric_limits<double>::infinity();
  for (int i = 0; i < r.n; ++i)
    if (r.links[i].sharing == LinkSharing::fatpipe)
      r.flow_cap_Bps = std::min(r.flow_cap_Bps, positive_bw(r.links[i].bandwidth_Bps));
  r.bandwidth_Bps = r.flow_cap_Bps;
  for (int i = 0; i < r.n; ++i)
    if (r.links[i].sharing == LinkSharing::shared)
      r.bandwidth_Bps = std::min(r.bandwidth_Bps, positive_bw(r.links[i].bandwidth_Bps));
  return r;
}

int RouteModel::add_link(const ModelLink& l) {
  links_.push_back(l);
  capacity_Bps_.push_back(positive_bw(l.bandwidth_Bps));
  return static_cast<int>(links_.size()) - 1;
}

// Per host, in the engine's creation order: NIC UP, NIC DOWN (ids 4h, 4h+1), intra (4h+2), port (4h+3).
void RouteModel::add_host_links(const PlatformSpec& platform) {
  for (int h = 0; h < hosts_; ++h) {
    const int up = add_link(nic_link(platform, h, Duplex::up));
    const int down = add_link(nic_link(platform, h, Duplex::down));
    links_[up].duplex_peer = down;
    links_[down].duplex_peer = up;
    add_link(intra_link(platform, h));
    add_link(port_link(platform, h));
  }
}

void RouteModel::add_wan_links(const PlatformSpec& platform) {
  const int R = regions_;
  if (platform.wan_capacity == WanCapacity::host) {
    // Only toward regions that have a host: a link no route crosses would only cost the engine a SimGrid link.
    std::vector<bool> populated(R, false);
    for (int h = 0; h < hosts_; ++h) populated[region_[h]] = true;
    wan_host_.assign(static_cast<size_t>(hosts_) * R, -1);
    for (int h = 0; h < hosts_; ++h)
      for (int r = 0; r < R; ++r)
        if (r != region_[h] && populated[r])
          wan_host_[static_cast<size_t>(h) * R + r] = add_link(wan_host_link(platform, h, r));
    return;
  }
  wan_up_.assign(static_cast<size_t>(R) * R, -1);
  for (int a = 0; a < R; ++a)
    for (int b = a + 1; b < R; ++b) {
      const int up = add_link(wan_link(platform, a, b));
      const int down = add_link(wan_link(platform, b, a));
      links_[up].duplex_peer = down;
      links_[down].duplex_peer = up;
      wan_up_[static_cast<size_t>(a) * R + b] = up;
    }
}

// Id of a link of route_links(): host and WAN links exist already; a per-route link is created now (route order).
int RouteModel::link_id(const ModelLink& l) {
  switch (l.kind) {
    case LinkKind::nic_up: return 4 * l.a;
    case LinkKind::nic_down: return 4 * l.a + 1;
    case LinkKind::intra_aggregate: return 4 * l.a + 2;
    case LinkKind::gpu_port: return 4 * l.a + 3;
    case LinkKind::wan: {
      const int up = wan_up_[static_cast<size_t>(std::min(l.a, l.b)) * regions_ + std::max(l.a, l.b)];
      return l.a < l.b ? up : links_[up].duplex_peer;
    }
    case LinkKind::wan_host: return wan_host_[static_cast<size_t>(l.a) * regions_ + l.b];
    case LinkKind::pair_latency:
    case LinkKind::xml_pair: return add_link(l);
  }
  return -1;
}

// A route of route_links() with the model's link ids (per-route links are created now, in route order).
Route RouteModel::make_route(const PlatformSpec& platform, int a, int b) {
  const RouteLinks rl = route_links(platform, a, b);
  Route r;
  for (int i = 0; i < rl.n; ++i) {
    const int id = link_id(rl.links[i]);
    r.path[r.n_path++] = id;
    if (rl.links[i].sharing == LinkSharing::shared) r.links[r.n_links++] = id;
  }
  r.latency_s = rl.latency_s;
  r.bandwidth_Bps = rl.bandwidth_Bps;
  r.flow_cap_Bps = rl.flow_cap_Bps;
  return r;
}

void RouteModel::build_routes(const PlatformSpec& platform) {
  const int H = hosts_;
  routes_.assign(static_cast<size_t>(H) * H, Route{});
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b) routes_[static_cast<size_t>(a) * H + b] = make_route(platform, a, b);
}

// The parts of every route (see the class comment): per host its NIC and its route to itself, per region pair the
// WAN between them. Figures are kept unscaled so that a route's sums are those of route_links().
void RouteModel::build_factored(const PlatformSpec& platform) {
  const int H = hosts_, R = regions_;
  for (int h = 0; h < H; ++h) {
    self_routes_.push_back(make_route(platform, h, h));
    scale_route(self_routes_.back());
    nic_latency_s_.push_back(platform.hosts[h].host_link.latency_s);
    nic_cap_Bps_.push_back(positive_bw(platform.hosts[h].host_link.bandwidth_Bps));
  }
  middle_link_.assign(static_cast<size_t>(R) * R, -1);
  wan_latency_s_.assign(static_cast<size_t>(R) * R, 0.0);
  wan_cap_Bps_.assign(static_cast<size_t>(R) * R, 1.0);
  for (int ra = 0; ra < R; ++ra)
    for (int rb = 0; rb < R; ++rb) {
      if (ra == rb) continue;
      const size_t k = static_cast<size_t>(ra) * R + rb;
      const LinkSpec w = wan_between(platform, ra, rb);
      wan_latency_s_[k] = w.latency_s;
      wan_cap_Bps_[k] = positive_bw(w.bandwidth_Bps);
      if (platform.wan_capacity != WanCapacity::host) middle_link_[k] = link_id(wan_link(platform, ra, rb));
    }
}

// route_links() for distinct hosts of a built platform without pair latencies: [nic_a UP, (WAN), nic_b DOWN], every
// link shared; latency nic_a + nic_b (+ WAN); bottleneck the smallest capacity; then scaled as apply_factors() does.
Route RouteModel::factored_route(int a, int b) const {
  const int ra = region_[a], rb = region_[b];
  Route r;
  int n = 0;
  r.path[n++] = 4 * a;
  double latency_s = nic_latency_s_[a] + nic_latency_s_[b];
  double bandwidth_Bps = std::min(nic_cap_Bps_[a], nic_cap_Bps_[b]);
  if (ra != rb) {
    const size_t k = static_cast<size_t>(ra) * regions_ + rb;
    r.path[n++] = middle_link_[k] >= 0 ? middle_link_[k] : wan_host_[static_cast<size_t>(a) * regions_ + rb];
    latency_s += wan_latency_s_[k];
    bandwidth_Bps = std::min(bandwidth_Bps, wan_cap_Bps_[k]);
  }
  r.path[n++] = 4 * b + 1;
  r.n_path = r.n_links = n;
  for (int i = 0; i < n; ++i) r.links[i] = r.path[i];
  r.latency_s = latency_s;
  r.bandwidth_Bps = bandwidth_Bps;
  r.flow_cap_Bps = std::numeric_limits<double>::infinity();
  scale_route(r);
  return r;
}

// Region-level summaries for placers (chain ordering): means over host pairs.
void RouteModel::summarise_regions() {
  const int H = hosts_, R = regions_;
  region_latency_s_.assign(static_cast<size_t>(R) * R, 0.0);
  region_bandwidth_Bps_.assign(static_cast<size_t>(R) * R, 0.0);
  std::vector<double> count(static_cast<size_t>(R) * R, 0.0);
  for (int a = 0; a < H; ++a)
    for (int b = 0; b < H; ++b) {
      if (a == b) continue;
      const size_t k = static_cast<size_t>(region_[a]) * R + region_[b];
      const Route r = route(a, b);
      region_latency_s_[k] += r.latency_s;
      region_bandwidth_Bps_[k] += r.bandwidth_Bps;
      count[k] += 1;
    }
  for (size_t k = 0; k < count.size(); ++k) {
    if (count[k] > 0) {
      region_latency_s_[k] /= count[k];
      region_bandwidth_Bps_[k] /= count[k];
    }
  }
  // A region with a single host has no distinct host pair inside: use that host's intra-host route.
  for (int h = 0; h < H; ++h) {
    const size_t k = static_cast<size_t>(region_[h]) * R + region_[h];
    if (count[k] == 0) {
      const Route r = route(h, h);
      region_latency_s_[k] = r.latency_s;
      region_bandwidth_Bps_[k] = r.bandwidth_Bps;
    }
  }
}

NetworkFactors network_model_factors(const std::string& model) {
  if (model == "LV08") return {13.01, 0.97};
  if (model == "SMPI" || model == "IB") return {11.6436, 0.940694};
  return {};
}

void RouteModel::scale_route(Route& r) const {
  if (factors_.latency == 1 && factors_.bandwidth == 1) return;  // CM02: the same bits
  r.latency_s *= factors_.latency;
  r.bandwidth_Bps *= factors_.bandwidth;
  r.flow_cap_Bps *= factors_.bandwidth;  // +inf stays +inf
}

void RouteModel::apply_factors() {
  if (factors_.latency == 1 && factors_.bandwidth == 1) return;  // CM02: the same bits
  for (size_t id = 0; id < links_.size(); ++id) {
    links_[id].latency_s *= factors_.latency;
    links_[id].bandwidth_Bps *= factors_.bandwidth;
    capacity_Bps_[id] *= factors_.bandwidth;
  }
  for (Route& r : routes_) scale_route(r);
}

RouteModel::RouteModel(const PlatformSpec& platform, NetworkFactors factors, RouteTable table) : factors_(factors) {
  hosts_ = static_cast<int>(platform.hosts.size());
  regions_ = std::max<int>(1, static_cast<int>(platform.regions.size()));
  for (const auto& h : platform.hosts) regions_ = std::max(regions_, h.region + 1);
  from_xml_ = !platform.simgrid_xml.empty();
  region_.resize(hosts_);
  for (int h = 0; h < hosts_; ++h) {
    region_[h] = platform.hosts[h].region;
    host_names_.push_back(platform.hosts[h].name);
  }
  for (int r = 0; r < regions_; ++r)
    region_names_.push_back(r < static_cast<int>(platform.regions.size()) ? platform.regions[r] : std::to_string(r));
  add_host_links(platform);
  if (!from_xml_) add_wan_links(platform);
  // Per-pair data (measured latencies, XML descriptions) is what a route table holds and the parts cannot.
  factored_ = table == RouteTable::automatic && !from_xml_ && platform.host_pair_latency_s.empty();
  if (factored_) {
    build_factored(platform);  // routes are scaled as they are composed; links below
  } else {
    build_routes(platform);
  }
  apply_factors();
  summarise_regions();
}

std::string RouteModel::link_name(int id) const {
  const ModelLink& l = links_[id];
  switch (l.kind) {
    case LinkKind::nic_up:
    case LinkKind::nic_down: return "nic:" + host_names_[l.a];
    case LinkKind::intra_aggregate: return "intra:" + host_names_[l.a];
    case LinkKind::gpu_port: return "port:" + host_names_[l.a];
    case LinkKind::wan: return "wan:" + region_names_[std::min(l.a, l.b)] + "~" + region_names_[std::max(l.a, l.b)];
    case LinkKind::wan_host: return "wanout:" + host_names_[l.a] + ">" + region_names_[l.b];
    case LinkKind::pair_latency: return "lat:" + host_names_[l.a] + ">" + host_names_[l.b];
    case LinkKind::xml_pair: return "xml:" + host_names_[l.a] + ">" + host_names_[l.b];
  }
  return "";
}

}  // namespace hulk
