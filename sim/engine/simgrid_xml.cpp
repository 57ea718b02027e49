#include "sim/engine/simgrid_xml.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <regex>
#include <set>
#include <stdexcept>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include "sim/core/errors.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/engine/engine_startup.hpp"

namespace hulk {
namespace {

namespace sg4 = simgrid::s4u;

/** Runs in the child: loads the XML and returns every host (creation order = XML document order, because
 *  SimGrid creates hosts while parsing; Engine::get_all_hosts() would give name order instead), its englobing
 *  netzone, and for every ordered host pair the route latency and bottleneck bandwidth. */
/** Written to the describing child's log before each host's route to itself is asked for. */
constexpr const char* kSelfRouteMarker = "hulk: route to itself of ";

/** The host named by the last kSelfRouteMarker line of the log ("" if none). */
std::string last_self_route_host(const std::string& log_path) {
  std::ifstream in(log_path);
  std::string line, host;
  while (std::getline(in, line))
    if (line.rfind(kSelfRouteMarker, 0) == 0) host = line.substr(std::string(kSelfRouteMarker).size());
  return host;
}

/** GPUs the options give the XML host `name` (0: none). */
int gpus_of(const SimgridXmlOptions& options, const std::string& name) {
  const auto it = options.per_host.find(name);
  if (it != options.per_host.end()) return it->second.count;
  return options.has_default ? options.default_gpus.count : 0;
}

/** The first entity of the file no run could use ({"what", "name", "detail"}), or null: a host without a positive
 *  speed (SimGrid aborts its simulation; hulk takes GPU speeds from the scenario, but SimGrid still needs one), a
 *  WIFI link (SimGrid needs each host's rate on it, which hulk does not set: it crashed), a host or zone name with
 *  a control character (names go into every message and output file). */
nlohmann::json unusable_entities(const sg4::Engine& engine, const std::vector<sg4::Host*>& hosts) {
  for (const sg4::Host* h : hosts) {
    if (!(h->get_speed() > 0) || !std::isfinite(h->get_speed()))
      return {{"what", "speed"}, {"name", h->get_name()}, {"detail", h->get_speed()}};
    if (first_control_char(h->get_name()) != std::string::npos) return {{"what", "host name"}, {"name", h->get_name()}};
    const sg4::NetZone* zone = h->get_englobing_zone();
    if (zone && first_control_char(zone->get_name()) != std::string::npos)
      return {{"what", "zone name"}, {"name", zone->get_name()}};
  }
  for (const sg4::Link* l : engine.get_all_links())
    if (l->get_sharing_policy() == sg4::Link::SharingPolicy::WIFI) return {{"what", "wifi"}, {"name", l->get_name()}};
  return nullptr;
}

/** For each host the options give several GPUs: SimGrid's route from it to itself (its ranks' messages to each other
 *  go there), as {host index, latency, bottleneck bandwidth (0: no link, SimGrid's loopback), links}. Then one
 *  message from each such host without links to itself: where the zone has no loopback either (a torus cluster),
 *  SimGrid aborts here ("no connecting path"), while loading, rather than in the middle of a simulation. */
nlohmann::json self_routes(const SimgridXmlOptions& options, sg4::Engine& engine, const std::vector<sg4::Host*>& hosts) {
  nlohmann::json out = nlohmann::json::array();
  std::vector<sg4::Host*> loopback;
  for (size_t a = 0; a < hosts.size(); ++a) {
    if (gpus_of(options, hosts[a]->get_name()) < 2) continue;
    // SimGrid crashes here on a Full zone without any route: the last such line of the log names the host.
    std::fprintf(stderr, "%s%s\n", kSelfRouteMarker, hosts[a]->get_cname());
    std::fflush(stderr);
    std::vector<sg4::Link*> links;
    double latency_s = 0;
    hosts[a]->route_to(hosts[a], links, &latency_s);
    double bw = links.empty() ? 0.0 : std::numeric_limits<double>::infinity();
    for (const sg4::Link* l : links) bw = std::min(bw, l->get_bandwidth());
    out.push_back({a, latency_s, bw, links.size()});
    if (links.empty()) loopback.push_back(hosts[a]);
  }
  for (sg4::Host* h : loopback) {
    sg4::Mailbox* box = sg4::Mailbox::by_name("hulk-self-" + h->get_name());
    sg4::Actor::create("send", h, [box]() { box->put(new int(0), 1.0); });
    sg4::Actor::create("recv", h, [box]() { delete box->get<int>(); });
  }
  if (!loopback.empty()) engine.run();
  return out;
}

nlohmann::json describe_in_child(const SimgridXmlOptions& options) {
  const std::string& file = options.file;
  // Same analytic defaults as the simulator (docs/model.md) so latencies are reported as written in the file.
  const std::unique_ptr<sg4::Engine> engine_owner = start_engine(NetworkSpec{}, EngineLog::critical);
  sg4::Engine& engine = *engine_owner;
  std::vector<sg4::Host*> created;
  sg4::Host::on_creation_cb([&created](sg4::Host& h) { created.push_back(&h); });
  try {
    engine.load_platform(file);
  } catch (const simgrid::ParseError& e) {
    // SimGrid formats "Parse error at FILE:LINE: message": recover the line for our own one-line layout.
    const std::string what = e.what();
    const std::string prefix = "Parse error at " + file + ":";
    int line = 0;
    std::string message = what;
    if (what.compare(0, prefix.size(), prefix) == 0) {
      size_t end = prefix.size();
      while (end < what.size() && std::isdigit(static_cast<unsigned char>(what[end]))) ++end;
      if (end > prefix.size()) line = std::stoi(what.substr(prefix.size(), end - prefix.size()));
      message = what.substr(std::min(what.size(), end + 2));
    }
    throw InputError(file, line, "platform.simgrid.file", "SimGrid rejected the platform: " + message);
  } catch (const std::exception& e) {
    throw InputError(file, 0, "platform.simgrid.file", std::string("SimGrid rejected the platform: ") + e.what());
  }
  // Hosts created by on_creation but later destroyed would dangle; keep only those the engine still has.
  std::vector<sg4::Host*> hosts;
  std::set<std::string> seen;
  for (sg4::Host* h : created)
    if (engine.host_by_name_or_null(h->get_name()) == h && seen.insert(h->get_name()).second) hosts.push_back(h);

  nlohmann::json out;
  if (options.max_hosts > 0 && static_cast<long long>(hosts.size()) > options.max_hosts) {
    out["unusable"] = {{"what", "count"}, {"name", ""}, {"detail", hosts.size()}, {"max", options.max_hosts}};
    return out;
  }
  if (const nlohmann::json unusable = unusable_entities(engine, hosts); !unusable.is_null()) {
    out["unusable"] = unusable;
    return out;
  }
  out["hosts"] = nlohmann::json::array();
  for (sg4::Host* h : hosts) {
    const sg4::NetZone* zone = h->get_englobing_zone();
    out["hosts"].push_back({{"name", h->get_name()}, {"zone", zone ? zone->get_name() : std::string("")}});
  }
  // Every ordered pair's latency and bottleneck as two flat row-major arrays (a list of [a, b, ...] per pair, with
  // the slowest link's name, took 4.2 GB and 67 s for a 3,000-node <cluster>); the slowest link is named only where
  // it has no bandwidth, for the error.
  const size_t n = hosts.size();
  std::vector<double> pair_latency(n * n, 0.0), pair_bandwidth(n * n, 0.0);
  const sg4::Link* fastest = nullptr;  // on any route: checked against the bounds by the parent
  for (size_t a = 0; a < hosts.size(); ++a) {
    for (size_t b = 0; b < hosts.size(); ++b) {
      if (a == b) continue;
      std::vector<sg4::Link*> links;
      double latency_s = 0;
      hosts[a]->route_to(hosts[b], links, &latency_s);
      double bw = std::numeric_limits<double>::infinity();
      std::string slowest;
      for (const sg4::Link* l : links) {
        // SimGrid reads "nans"/"infGbps" as NaN or infinity: not a link any run could use (and not JSON numbers).
        if (!std::isfinite(l->get_bandwidth()) || !std::isfinite(l->get_latency()))
          out["bad_link"] = {{"name", l->get_name()},
                             {"what", !std::isfinite(l->get_bandwidth()) ? "bandwidth" : "latency"}};
        if (l->get_bandwidth() < bw) bw = l->get_bandwidth(), slowest = l->get_name();
        if (!fastest || l->get_bandwidth() > fastest->get_bandwidth()) fastest = l;
      }
      if (out.contains("bad_link")) return out;
      if (links.empty()) bw = 0;  // no route: reported as zero bandwidth (the parent rejects it)
      pair_latency[a * n + b] = latency_s;
      pair_bandwidth[a * n + b] = bw;
      if (bw <= 0 && !slowest.empty()) out["no_bandwidth"].push_back({a, b, slowest});
    }
  }
  out["pair_latency"] = std::move(pair_latency);
  out["pair_bandwidth"] = std::move(pair_bandwidth);
  if (fastest) out["fastest_link"] = {{"name", fastest->get_name()}, {"bandwidth", fastest->get_bandwidth()}};
  out["self"] = self_routes(options, engine, hosts);
  return out;
}

/** SimGrid's own message in its log ("" if none): the last non-empty line before its backtrace (an abort prints
 *  "[0.000000] src/file.cpp:32: [category/CRITICAL] message", then "Backtrace ..." and one "  -> N# frame" line per
 *  frame, whose last line says nothing), without the time, source and category prefix. */
std::string simgrid_message_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.rfind("Backtrace", 0) == 0) break;
    if (line.find_first_not_of(" \t\r") != std::string::npos && line.find("->") != line.find_first_not_of(' '))
      last = line;
  }
  static const std::regex prefix(R"(^\[[^\]]*\] [^\[]*\[[^\]]*\] )");
  return std::regex_replace(last, prefix, "");
}

/** Throws the InputError for an entity unusable_entities found. */
[[noreturn]] void refuse_unusable(const SimgridXmlOptions& options, const nlohmann::json& what) {
  const std::string kind = what.at("what").get<std::string>();
  const std::string name = escape_control_chars(what.at("name").get<std::string>());
  std::string message;
  if (kind == "speed") {
    char speed[32];
    std::snprintf(speed, sizeof speed, "%g", what.at("detail").get<double>());
    message = "host '" + name + "' has speed " + speed + " flop/s" +
              " (expected a positive speed, e.g. speed=\"1Gf\": hulk takes GPU speeds from the scenario's gpus:, "
              "but SimGrid needs one to simulate the host)";
  } else if (kind == "count") {
    message = "the file has " + std::to_string(what.at("detail").get<long long>()) + " hosts (expected at most " +
              std::to_string(what.at("max").get<long long>()) + ": routes are kept for every pair of hosts, and " +
              "memory grows with the square)";
  } else if (kind == "wifi") {
    message = "link '" + name + "' has sharing_policy=\"WIFI\" (expected SHARED, SPLITDUPLEX or FATPIPE: hulk "
              "simulates wired links only)";
  } else {
    message = "the " + kind + " '" + name + "' has a control character (expected a name without line breaks, tabs "
              "or other control characters: names go into every message and output file)";
  }
  throw InputError(options.file, 0, "platform.simgrid.file", message);
}

/** The whole text of `file` ("" if it cannot be read: SimGrid then reports the file). */
std::string file_text(const std::string& file) {
  std::ifstream in(file);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/** True if the XML file declares a zone with routing="Vivaldi": SimGrid fails with a bare "unordered_map::at" on
 *  one whose hosts are plain <host> elements (measured with SimGrid 3.32; <peer> elements load and simulate). */
bool has_vivaldi_zone(const std::string& file) {
  const std::string text = file_text(file);
  static const std::regex vivaldi(R"(routing\s*=\s*["']Vivaldi["'])");
  return std::regex_search(text, vivaldi);
}

/** Hosts the file's <cluster radical="..."> elements declare (the sum of their radicals' counts, "0-99,200,300-309";
 *  at most kMaxCounted). SimGrid expands a radical before hulk can count the hosts, so a radical such as "0-99999999"
 *  would grow memory for minutes before the host-count error. A radical that does not parse is left to SimGrid. */
long long cluster_radical_hosts(const std::string& file) {
  constexpr long long kMaxCounted = 1'000'000'000'000'000LL;  // no overflow
  const std::string text = file_text(file);
  static const std::regex radical(R"(<cluster\b[^>]*\bradical\s*=\s*["']([^"']*)["'])");
  long long hosts = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), radical); it != std::sregex_iterator(); ++it) {
    const std::string list = (*it)[1].str();
    std::size_t start = 0;
    while (start <= list.size() && hosts < kMaxCounted) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      const std::string item = list.substr(start, comma - start);
      long long a = 0, b = 0;
      char tail = 0;
      if (std::sscanf(item.c_str(), " %lld - %lld %c", &a, &b, &tail) == 2 && b >= a)
        hosts += std::min(b - a + 1, kMaxCounted);
      else if (std::sscanf(item.c_str(), " %lld %c", &a, &tail) == 1)
        hosts += 1;
      start = comma + 1;
    }
  }
  return std::min(hosts, kMaxCounted);
}

/** Runs describe_in_child in a child process; a SimGrid crash there is the file's fault. The child's stderr goes to
 *  a temporary file, whose last line (SimGrid's own message) joins the one-line error instead of a second line. */
nlohmann::json load_description(const SimgridXmlOptions& options) {
  {
    std::ifstream probe(options.file);
    if (!probe) throw InputError(options.file, 0, "platform.simgrid.file", "cannot open the SimGrid XML file");
  }
  char log_path[] = "/tmp/hulk-simgrid-load-XXXXXX";
  const int log_fd = ::mkstemp(log_path);
  struct Cleanup {
    int fd;
    const char* path;
    ~Cleanup() {
      if (fd >= 0) ::close(fd), ::unlink(path);
    }
  } cleanup{log_fd, log_path};
  if (options.max_hosts > 0)
    if (const long long declared = cluster_radical_hosts(options.file); declared > options.max_hosts)
      refuse_unusable(options, {{"what", "count"}, {"name", ""}, {"detail", declared}, {"max", options.max_hosts}});
  nlohmann::json desc;
  try {
    desc = run_in_child([&options, log_fd]() {
      if (log_fd >= 0) ::dup2(log_fd, STDERR_FILENO);
      return describe_in_child(options);
    });
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    // SimGrid aborts (xbt_assert / xbt_die) or crashes on some malformed platforms: the child dies, the file is at
    // fault. A crash is most often a route SimGrid cannot build (zones without a zoneRoute between them).
    const std::string said = log_fd >= 0 ? simgrid_message_of(log_path) : "";
    const bool crashed = std::string(e.what()).find("signal 11") != std::string::npos;
    const std::string self = log_fd >= 0 ? last_self_route_host(log_path) : "";
    if (std::string(e.what()).find("unordered_map::at") != std::string::npos && has_vivaldi_zone(options.file))
      throw InputError(options.file, 0, "platform.simgrid.file",
                       "SimGrid could not route a Vivaldi zone (unordered_map::at); expected its hosts as <peer> "
                       "elements (coordinates and bw_in/bw_out links), which SimGrid routes");
    if (crashed && !self.empty())
      throw InputError(options.file, 0, "platform.simgrid.file",
                       "SimGrid crashed on the route from host '" + self + "' to itself (its Full zone has no "
                       "route at all); expected a route from each host with several GPUs to itself, e.g. <route "
                       "src=\"" + self + "\" dst=\"" + self + "\"> with a link, or one GPU for the host");
    throw InputError(options.file, 0, "platform.simgrid.file",
                     std::string("SimGrid could not load the platform (") + e.what() +
                         (said.empty() ? "" : "; SimGrid: " + said) + ")" +
                         (crashed ? "; expected a route between every two hosts (a zoneRoute between every two "
                                    "zones of a Full zone) and from each host with several GPUs to itself"
                          : said.find("no connecting path") != std::string::npos
                              ? "; expected a route from each host with several GPUs to itself (its GPUs exchange "
                                "messages over it), e.g. a <route> from the host to itself, or one GPU per host"
                              : ""));
  }
  if (desc.contains("unusable")) refuse_unusable(options, desc["unusable"]);
  return desc;
}

/** The spec's hosts: every XML host that carries GPUs (XML order), region = its netzone. spec_of_xml[i] = spec
 *  index of XML host i, -1 without GPUs. */
std::vector<int> add_gpu_hosts(const SimgridXmlOptions& options, const nlohmann::json& desc, PlatformSpec& spec) {
  const auto& jhosts = desc.at("hosts");
  std::map<std::string, int> xml_index;
  for (size_t i = 0; i < jhosts.size(); ++i) xml_index[jhosts[i]["name"].get<std::string>()] = static_cast<int>(i);
  for (const auto& kv : options.per_host)
    if (!xml_index.count(kv.first))
      throw InputError(options.file, 0, "platform.simgrid.gpus." + kv.first,
                       "host '" + kv.first + "' is not in the SimGrid XML file");

  std::vector<int> spec_of_xml(jhosts.size(), -1);
  std::map<std::string, int> region_index;
  for (size_t i = 0; i < jhosts.size(); ++i) {
    const std::string name = jhosts[i]["name"].get<std::string>();
    const XmlHostGpus* gpus = nullptr;
    auto it = options.per_host.find(name);
    if (it != options.per_host.end()) gpus = &it->second;
    else if (options.has_default) gpus = &options.default_gpus;
    if (!gpus || gpus->count <= 0) continue;
    const std::string zone = jhosts[i]["zone"].get<std::string>();
    auto r = region_index.find(zone);
    if (r == region_index.end()) {
      r = region_index.emplace(zone, static_cast<int>(spec.regions.size())).first;
      spec.regions.push_back(zone);
    }
    HostSpec h;
    h.name = name;
    h.region = r->second;
    h.gpus = gpus->count;
    h.gpu = gpus->gpu;
    h.intra_link = options.intra_host;
    spec_of_xml[i] = static_cast<int>(spec.hosts.size());
    spec.hosts.push_back(h);
  }
  if (spec.hosts.empty())
    throw InputError(options.file, 0, "platform.simgrid.gpus", "no host of the SimGrid XML file carries GPUs");
  return spec_of_xml;
}

/** One ordered pair's route (host indices of the spec) into the per-pair maps and the descriptive links. */
void add_pair_route(int a, int b, double lat, double bw, const SimgridXmlOptions& options, PlatformSpec& spec,
                    std::vector<std::vector<bool>>& wan_set) {
  if (bw <= 0)
    throw InputError(options.file, 0, "platform.simgrid.file",
                     "no route between hosts '" + spec.hosts[a].name + "' and '" + spec.hosts[b].name + "'");
  const std::pair<int, int> key(std::min(a, b), std::max(a, b));
  auto li = spec.host_pair_latency_s.find(key);
  if (li == spec.host_pair_latency_s.end() || lat > li->second) spec.host_pair_latency_s[key] = lat;
  auto bi = spec.host_pair_bandwidth_Bps.find(key);
  if (bi == spec.host_pair_bandwidth_Bps.end() || bw < bi->second) spec.host_pair_bandwidth_Bps[key] = bw;
  // host_link (descriptive only for XML platforms): the best bottleneck bandwidth seen from this host.
  spec.hosts[a].host_link.bandwidth_Bps = std::max(spec.hosts[a].host_link.bandwidth_Bps, bw);
  // wan (descriptive only): worst pair between two zones = min bandwidth, max latency.
  const int ra = std::min(spec.hosts[a].region, spec.hosts[b].region);
  const int rb = std::max(spec.hosts[a].region, spec.hosts[b].region);
  if (ra != rb) {
    LinkSpec& w = spec.wan[ra][rb];
    if (!wan_set[ra][rb] || bw < w.bandwidth_Bps) w.bandwidth_Bps = bw;
    if (!wan_set[ra][rb] || lat > w.latency_s) w.latency_s = lat;
    wan_set[ra][rb] = true;
  }
}

/** Per-pair latency and bottleneck from the XML routes, and the descriptive host_link / wan values. */
void add_pair_routes(const SimgridXmlOptions& options, const nlohmann::json& desc, const std::vector<int>& spec_of_xml,
                     PlatformSpec& spec) {
  // Routes may be asymmetric: keep the larger latency and the smaller bandwidth of the two directions, so the
  // symmetric per-pair maps never promise more than either direction gives.
  const size_t R = spec.regions.size();
  spec.wan.assign(R, std::vector<LinkSpec>(R));
  std::vector<std::vector<bool>> wan_set(R, std::vector<bool>(R, false));
  if (desc.contains("bad_link"))
    throw InputError(options.file, 0, "platform.simgrid.file",
                     "link '" + desc["bad_link"].at("name").get<std::string>() + "' has a " +
                         desc["bad_link"].at("what").get<std::string>() + " that is not a finite number (expected " +
                         "e.g. 10Gbps and 5ms)");
  if (desc.contains("no_bandwidth"))
    for (const nlohmann::json& z : desc["no_bandwidth"]) {  // a link of zero bandwidth between two GPU hosts
      const int a = spec_of_xml[z[0].get<size_t>()], b = spec_of_xml[z[1].get<size_t>()];
      if (a < 0 || b < 0) continue;
      throw InputError(options.file, 0, "platform.simgrid.file",
                       "link '" + z[2].get<std::string>() + "' on the route between hosts '" + spec.hosts[a].name +
                           "' and '" + spec.hosts[b].name + "' has no bandwidth (expected a bandwidth greater than zero)");
    }
  if (desc.contains("fastest_link")) {
    spec.fastest_link = desc["fastest_link"].at("name").get<std::string>();
    spec.fastest_link_Bps = desc["fastest_link"].at("bandwidth").get<double>();
  }
  const std::vector<double> pair_latency = desc.at("pair_latency").get<std::vector<double>>();
  const std::vector<double> pair_bandwidth = desc.at("pair_bandwidth").get<std::vector<double>>();
  const size_t n = spec_of_xml.size();
  for (size_t xa = 0; xa < n; ++xa) {
    for (size_t xb = 0; xb < n; ++xb) {
      const int a = spec_of_xml[xa], b = spec_of_xml[xb];
      if (xa == xb || a < 0 || b < 0) continue;
      add_pair_route(a, b, pair_latency[xa * n + xb], pair_bandwidth[xa * n + xb], options, spec, wan_set);
    }
  }
  for (size_t ra = 0; ra < R; ++ra)
    for (size_t rb = ra + 1; rb < R; ++rb) spec.wan[rb][ra] = spec.wan[ra][rb];
}

/** The GPU-to-GPU link of each host with several GPUs, as SimGrid will carry it: the host's route to itself when
 *  it has links (a <cluster> node's private link, say), else SimGrid's loopback, which the engine sets to
 *  options.intra_host (sim/engine/sg_platform.cpp); a warning names the hosts of the first kind. */
void add_self_routes(const SimgridXmlOptions& options, const nlohmann::json& desc, const std::vector<int>& spec_of_xml,
                     PlatformSpec& spec) {
  std::vector<std::string> routed;
  for (const auto& r : desc.at("self")) {
    const int h = spec_of_xml[r[0].get<size_t>()];
    if (h < 0 || r[3].get<size_t>() == 0) continue;
    spec.hosts[h].intra_link = {r[2].get<double>(), r[1].get<double>()};
    routed.push_back(spec.hosts[h].name);
  }
  if (!routed.empty())
    spec.warnings.push_back(
        std::to_string(routed.size()) + " host(s) with several GPUs (" + routed.front() +
        (routed.size() > 1 ? ", ..." : "") +
        ") reach themselves over links of the XML file: their GPUs exchange messages there, not over "
        "platform.simgrid.intra_host (" + options.file + ")");
}

}  // namespace

PlatformSpec describe_simgrid_xml(const SimgridXmlOptions& options) {
  const nlohmann::json desc = load_description(options);
  PlatformSpec spec;
  spec.simgrid_xml = options.file;
  spec.xml_loopback = options.intra_host;
  const std::vector<int> spec_of_xml = add_gpu_hosts(options, desc, spec);
  add_pair_routes(options, desc, spec_of_xml, spec);
  add_self_routes(options, desc, spec_of_xml, spec);
  for (auto& h : spec.hosts)
    if (h.host_link.bandwidth_Bps <= 0) h.host_link.bandwidth_Bps = h.intra_link.bandwidth_Bps;  // single host
  return spec;
}

}  // namespace hulk
