#pragma once
/** @file route_model.hpp
 *  @brief THE route model: the links of a PlatformSpec and, for every ordered host pair, the links a message
 *  crosses, the route latency and the bottleneck bandwidth. Pure code (no SimGrid). The engine builds its SimGrid
 *  links and routes from this model (sim/engine/sg_platform.cpp), the analytic evaluator and the placers read its
 *  contention view, GNN features and traffic estimates its latency and bottleneck: one model, one answer.
 *
 *  Built platforms (regions, Hulk data):
 *  - every host has a full-duplex NIC (HostSpec::host_link): one split-duplex link "nic:<host>" whose UP half
 *    carries what the host sends and whose DOWN half what it receives, each of the NIC's bandwidth;
 *  - every host has one intra-host link "intra:<host>" shared by all its GPUs (both directions), bandwidth
 *    intra_link.bw * gpus, plus a per-GPU port "port:<host>" (FATPIPE: caps each flow at intra_link.bw, not
 *    shared) that carries intra_link.latency;
 *  - WAN, PlatformSpec::wan_capacity `pair` (default): every region pair a < b has one split-duplex WAN link
 *    "wan:<a>~<b>" of wan[a][b] (UP = from a to b), shared by all flows between the two regions (a leased line, a
 *    VPN tunnel between two sites); wan[b][a] is never read (the scenario loaders make wan symmetric);
 *  - WAN, capacity `host`: no region-pair pipe. Every host h has, toward every other region r that has hosts, its
 *    own SHARED link "wanout:<h>><r>" of wan[region(h)][r] carrying the WAN latency, shared only by h's flows to r
 *    (Linux tc/netem egress shaping per destination, a cloud VM's per-instance egress limit). Sender side only:
 *    egress shaping caps what a host sends, not what it receives, so a receiver is limited by its NIC DOWN half
 *    alone (N senders of region A into one host of B get min(N * wan, nic) together, as on a tc-shaped testbed).
 *    A receiving cap as well would need ingress policing (tc ingress / IFB), which such setups rarely add; it would
 *    be one more shared link per route (kMaxRouteLinks, kMaxSharedLinks + 1). As built, a route keeps at most
 *    three shared links either way. Links: hosts x (populated regions - 1), built eagerly (1,024 hosts x 16
 *    regions: 15,360 more links, ~1 MB; the H x H route table, 64 MB there, dominates under both models);
 *  - route a -> a: [intra, port]; a -> b in one region: [nic_a UP, nic_b DOWN]; across regions:
 *    [nic_a UP, wan or wanout(a, region(b)), nic_b DOWN]; route latency = nic_a + nic_b (+ wan);
 *  - if host_pair_latency_s is non-empty (measured data): NIC and WAN links get zero latency and every
 *    inter-host route ends with its own FATPIPE latency-only link "lat:<a>><b>" (bandwidth 1e18 B/s) whose latency
 *    is the pair's value when given, else the latency the route would have had. Bandwidth sharing is unchanged.
 *  - host_pair_bandwidth_Bps is ignored (the engine's links decide the bandwidth).
 *  SimGrid-XML platforms (simgrid_xml non-empty): the engine loads the file, so the model only describes it:
 *  every ordered host pair is its own private link of host_pair_bandwidth_Bps with route latency
 *  host_pair_latency_s (0 / 1 B/s when the pair is missing); a host to itself uses [intra, port] as above. */
#include <array>
#include <string>
#include <vector>

#include "sim/core/huge_page_allocator.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief What a link is (its SimGrid name is derived from it, see RouteModel::link_name). */
enum class LinkKind {
  nic_up,           ///< host a's NIC, sending half (split-duplex UP)
  nic_down,         ///< host a's NIC, receiving half (split-duplex DOWN)
  intra_aggregate,  ///< host a's intra-host link shared by its GPUs
  gpu_port,         ///< host a's per-GPU port (per-flow cap, latency of intra-host transfers)
  wan,              ///< WAN between regions a and b, direction a -> b (UP half if a < b)
  wan_host,         ///< WAN capacity `host`: host a's own cap toward region b (shared by a's flows to b only)
  pair_latency,     ///< latency-only link of the route host a -> host b (measured pair latency)
  xml_pair,         ///< description of an XML platform's route host a -> host b (not built by the engine)
};

/** @brief How concurrent flows use a link (SimGrid sharing policy). */
enum class LinkSharing {
  shared,   ///< flows share the bandwidth (SimGrid SHARED; split-duplex halves are SHARED each)
  fatpipe,  ///< every flow gets the full bandwidth (SimGrid FATPIPE): a per-flow cap
};

/** @brief Which half of a SimGrid split-duplex link a model link is. */
enum class Duplex { none, up, down };

/** @brief One link of the model. */
struct ModelLink {
  LinkKind kind = LinkKind::nic_up;
  int a = -1;                 ///< host (nic, intra, port, wan_host, pair links: source host) or source region (wan)
  int b = -1;                 ///< destination host (pair links) or destination region (wan, wan_host), else -1
  double bandwidth_Bps = 0;   ///< as the engine builds it (may be <= 0 if the spec says so)
  double latency_s = 0;       ///< link latency, seconds
  LinkSharing sharing = LinkSharing::shared;
  Duplex duplex = Duplex::none;
  int duplex_peer = -1;       ///< id of the other half of a split-duplex link (its UP half has the lower id)
};

/** @brief Most links on one route: nic up, wan (or wan_host), nic down, latency link. */
constexpr int kMaxRouteLinks = 4;
/** @brief Most shared (contended) links on one route: nic up, wan (or wan_host), nic down. */
constexpr int kMaxSharedLinks = 3;

/** @brief One route a -> b. */
struct Route {
  /** @brief Ids of the route's SHARED links (the ones concurrent flows divide), in route order: the contention
   *  view of the analytic evaluator. */
  std::array<int, kMaxSharedLinks> links{{-1, -1, -1}};
  int n_links = 0;                           ///< number of valid entries in links
  std::array<int, kMaxRouteLinks> path{{-1, -1, -1, -1}};  ///< every link id in route order (what SimGrid crosses)
  int n_path = 0;                            ///< number of valid entries in path
  double latency_s = 0;                      ///< one-way route latency, seconds
  double bandwidth_Bps = 0;                  ///< bottleneck: min capacity over the shared links and flow_cap_Bps
  double flow_cap_Bps = 0;                   ///< min capacity of the route's FATPIPE links, +inf if none
};

/** @brief Route a -> b straight from the spec, without building a RouteModel (O(log pairs)): its links in route order
 *  (per-route ones included), latency and bottleneck. RouteModel::route(a, b) is made of exactly these. */
struct RouteLinks {
  std::array<ModelLink, kMaxRouteLinks> links{};
  int n = 0;                  ///< number of valid entries in links
  double latency_s = 0;       ///< as Route::latency_s
  double bandwidth_Bps = 0;   ///< as Route::bandwidth_Bps
  double flow_cap_Bps = 0;    ///< as Route::flow_cap_Bps
};
/** @brief The one definition of a route (see the file comment). */
RouteLinks route_links(const PlatformSpec& platform, int a, int b);

/** @brief SimGrid's corrections of the links' figures under a network model (network/latency-factor and
 *  network/bandwidth-factor): CM02 none; LV08 latency x 13.01 and bandwidth x 0.97 (SimGrid 3.32's LV08 defaults,
 *  from Velho and Legrand's TCP measurements); SMPI and IB latency x 11.6436 and bandwidth x 0.940694 (its
 *  smpi/lat-factor and smpi/bw-factor for messages of 65,472 bytes and more, which training's messages are; smaller
 *  messages get other factors, not modelled). Not modelled either: LV08's weight-S, which gives flows of longer
 *  routes a smaller share of a link. */
struct NetworkFactors {
  double latency = 1;    ///< multiplies every latency
  double bandwidth = 1;  ///< multiplies every bandwidth
};

/** @brief The factors SimGrid applies under a network/model name ({1, 1} for CM02 and unknown names). */
NetworkFactors network_model_factors(const std::string& model);

/** @brief How RouteModel holds its routes. */
enum class RouteTable {
  automatic,  ///< factored wherever every route decomposes (see RouteModel), else the full table
  full,       ///< always the table of every host pair (what the factored form is checked against)
};

/** @brief Links and routes of a platform (all ordered host pairs, including a host to itself).
 *
 *  Built platforms without measured pair latencies are held factored: a route between distinct hosts is the
 *  source's NIC UP, the WAN link of the region pair (or the source's own link toward the destination's region, WAN
 *  capacity `host`) and the destination's NIC DOWN, so per-host and per-region-pair figures give every route, and
 *  memory grows with hosts + regions^2 instead of hosts^2 (64 bytes a pair: 4.3 GB at 8,192 hosts). route(a, b)
 *  composes it on each call with the same arithmetic, in the same order, as route_links(), so both forms give the
 *  same bits. Platforms with per-pair data (measured pair latencies, SimGrid XML) keep the table of every pair. */
class RouteModel {
 public:
  /** @brief Builds links and routes. Link ids are in the order the engine creates the links: per host NIC UP,
   *  NIC DOWN, intra, port; then per region pair a < b the WAN UP and DOWN halves (capacity `pair`) or per host,
   *  per other region that has a host, its wan_host link (capacity `host`); then the per-route latency links
   *  (or XML pair links) in route order (a-major).
   *  @param factors scales every latency and bandwidth (links and routes) for analytic use, as SimGrid does under
   *  a network model; the engine builds its links from an unscaled model (SimGrid applies the factors itself).
   *  @param table RouteTable::full forces the table of every host pair (tests compare both forms). */
  explicit RouteModel(const PlatformSpec& platform, NetworkFactors factors = {},
                      RouteTable table = RouteTable::automatic);
  /** @brief The factors this model was built with. */
  const NetworkFactors& factors() const { return factors_; }

  /** @brief Number of hosts. */
  int hosts() const { return hosts_; }
  /** @brief Number of regions (at least 1, and covers every host's region). */
  int regions() const { return regions_; }
  /** @brief Region of a host. */
  int region_of(int host) const { return region_[host]; }
  /** @brief True for SimGrid-XML platforms: the engine loads the file and builds none of these links. */
  bool from_xml() const { return from_xml_; }

  /** @brief Number of link ids. */
  int links() const { return static_cast<int>(links_.size()); }
  /** @brief One link. */
  const ModelLink& link(int id) const { return links_[id]; }
  /** @brief Capacity of a link for analytic use, bytes/s: its bandwidth, or 1 B/s if that is not positive (a
   *  placement using it then looks terrible rather than dividing by zero). */
  double link_bandwidth_Bps(int id) const { return capacity_Bps_[id]; }
  /** @brief SimGrid name of a link (split-duplex halves share the name; SimGrid suffixes _UP/_DOWN). */
  std::string link_name(int id) const;

  /** @brief The route from host a to host b (a == b: inside host a). By value: a factored model composes it. */
  Route route(int a, int b) const {
    if (!factored_) return routes_[static_cast<size_t>(a) * hosts_ + b];
    return a == b ? self_routes_[a] : factored_route(a, b);
  }
  /** @brief True if routes are composed from per-host and per-region-pair parts (no table of every pair). */
  bool factored() const { return factored_; }

  /** @brief Mean route latency (s) between hosts of region a and hosts of region b (a != b: inter-region routes;
   *  a == b: routes between distinct hosts of a, or the intra-host latency if a has one host). 0 if a region has
   *  no host. */
  double region_latency_s(int a, int b) const { return region_latency_s_[static_cast<size_t>(a) * regions_ + b]; }
  /** @brief Mean bottleneck bandwidth (bytes/s) of the routes counted in region_latency_s. */
  double region_bandwidth_Bps(int a, int b) const {
    return region_bandwidth_Bps_[static_cast<size_t>(a) * regions_ + b];
  }

 private:
  int add_link(const ModelLink& l);
  void add_host_links(const PlatformSpec& platform);
  void add_wan_links(const PlatformSpec& platform);
  int link_id(const ModelLink& l);
  Route make_route(const PlatformSpec& platform, int a, int b);
  void build_routes(const PlatformSpec& platform);
  void build_factored(const PlatformSpec& platform);
  Route factored_route(int a, int b) const;
  void scale_route(Route& r) const;
  void summarise_regions();
  void apply_factors();

  int hosts_ = 0;
  int regions_ = 0;
  bool from_xml_ = false;
  NetworkFactors factors_;
  std::vector<int> region_;
  std::vector<std::string> host_names_, region_names_;
  std::vector<ModelLink> links_;
  std::vector<double> capacity_Bps_;
  std::vector<int> wan_up_;  ///< [a * R + b] for a < b: id of the WAN UP half, else -1 (capacity `pair`)
  std::vector<int> wan_host_;  ///< [h * R + r]: id of host h's link toward region r, else -1 (capacity `host`)
  HugePageVector<Route> routes_;  ///< hosts^2, a-major (empty when factored)
  bool factored_ = false;
  // The factored form: unscaled spec figures, combined and scaled per call exactly as route_links() and
  // apply_factors() do.
  std::vector<Route> self_routes_;     ///< per host: its route to itself (scaled)
  std::vector<double> nic_latency_s_;  ///< per host: NIC latency
  std::vector<double> nic_cap_Bps_;    ///< per host: NIC bandwidth, positive
  std::vector<int> middle_link_;       ///< [ra * R + rb]: WAN link id between the regions (capacity `pair`), else -1
  std::vector<double> wan_latency_s_;  ///< [ra * R + rb]: WAN latency
  std::vector<double> wan_cap_Bps_;    ///< [ra * R + rb]: WAN bandwidth, positive
  std::vector<double> region_latency_s_;
  std::vector<double> region_bandwidth_Bps_;
};

}  // namespace hulk
