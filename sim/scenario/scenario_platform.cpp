// The `platform:` section of a scenario: exactly one of regions (+ wan), hulk, simgrid.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "sim/scenario/bounds.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/hulk_import.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk::detail {

namespace {
const LinkSpec kDefaultIntraHost{150e9, 2e-6};     // NVLink class; PCIe users override (scenarios/README.md)
const LinkSpec kDefaultHostLink{10e9 / 8, 50e-6};  // 10 Gbps NIC, 50 us
constexpr long long kMaxGpus = 1000000;

std::string pair_name(const std::string& a, const std::string& b) { return a + "-" + b; }
}  // namespace

std::string resolve_path(const std::string& base_dir, const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_relative()) p = std::filesystem::path(base_dir) / p;
  return p.lexically_normal().string();
}

bool path_exists(const std::string& path, bool want_dir) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return false;
  return want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

LinkSpec parse_link(const YamlReader& r, const YAML::Node& node, const std::string& key, const LinkSpec& defaults) {
  r.check_keys(node, key, {"bandwidth", "latency", "transport", "achieved"});
  LinkSpec l = defaults;
  if (node["bandwidth"]) l.bandwidth_Bps = r.bandwidth_Bps(node["bandwidth"], key + ".bandwidth");
  if (node["latency"]) l.latency_s = r.latency_s(node["latency"], key + ".latency");
  // The collective library's achieved bandwidth (platforms/transports.yaml): the platform carries it, so the route
  // model, the engine and the evaluator all see the same link.
  double achieved = 1.0;
  if (node["transport"]) {
    const TransportCatalog& cat = TransportCatalog::builtin();
    const std::string name = r.str(node["transport"], key + ".transport");
    const TransportSpec* t = cat.find(name);
    if (t == nullptr)
      r.fail(node["transport"], key + ".transport",
             "unknown transport '" + name + "'" + suggestion_suffix(name, cat.names()) +
                 " (expected one of platforms/transports.yaml)");
    achieved = t->achieved;
  }
  if (node["achieved"]) {
    achieved = r.number(node["achieved"], key + ".achieved");
    if (!(achieved > 0 && achieved <= 1))
      r.fail(node["achieved"], key + ".achieved", "expected a fraction of the bandwidth in (0, 1]");
  }
  l.bandwidth_Bps *= achieved;
  return l;
}

GpuSpec parse_gpu(const YamlReader& r, const YAML::Node& node, const std::string& key) {
  r.record(key, node);
  if (node.IsScalar()) {
    const std::string name = node.Scalar();
    const GpuCatalog& cat = GpuCatalog::builtin();
    if (const GpuSpec* g = cat.find(name)) return *g;
    r.fail(node, key,
           "unknown GPU '" + name + "'" + suggestion_suffix(name, cat.names()) +
               "; add it to platforms/gpus.yaml or write {name, flops, memory}");
  }
  if (!node.IsMap())
    r.fail(node, key,
           "expected a GPU name from platforms/gpus.yaml or {name, flops, memory}, got " + describe_node(node));
  r.check_keys(node, key, {"name", "flops", "fp32", "fp8", "memory", "memory_bandwidth", "sms", "capability"});
  GpuSpec g;
  g.name = r.name(r.require(node, key, "name"), key + ".name");
  g.fp16_flops = r.flops(r.require(node, key, "flops"), key + ".flops");
  // Tensor-core GPUs run fp32 at a fraction of fp16; /2 is a documented default, not a datasheet value.
  g.fp32_flops = node["fp32"] ? r.flops(node["fp32"], key + ".fp32") : g.fp16_flops / 2;
  g.memory_bytes = r.bytes(r.require(node, key, "memory"), key + ".memory");
  if (node["capability"]) g.capability = r.str(node["capability"], key + ".capability");
  if (node["fp8"]) g.fp8_flops = r.flops(node["fp8"], key + ".fp8");
  // Without them the GPU's matrix multiplies run at peak x utilisation whatever their shape and memory-bound work
  // takes no time (compute_efficiency.hpp); with a catalog name, the catalog's.
  if (node["memory_bandwidth"])
    g.memory_bandwidth_Bps =
        r.bandwidth_Bps(node["memory_bandwidth"], key + ".memory_bandwidth", bounds::kMemoryBandwidth);
  if (node["sms"]) g.sms = static_cast<int>(r.integer(node["sms"], key + ".sms", 1, 100000));
  g.source = "inline in scenario " + r.file();
  // A catalog name on other figures would make two GPUs of one name in every report ({name: V100-32GB, memory:
  // 40GB}): the catalog's own figures, or another name.
  if (const GpuSpec* known = GpuCatalog::builtin().find(g.name);
      known && (known->fp16_flops != g.fp16_flops || known->fp32_flops != g.fp32_flops ||
                known->memory_bytes != g.memory_bytes || (node["fp8"] && known->fp8_flops != g.fp8_flops)))
    r.fail(node["name"], key + ".name",
           "'" + g.name + "' is a catalog GPU (platforms/gpus.yaml) with other figures; expected another name for "
           "this GPU, or `gpu: " + g.name + "` for the catalog's");
  // A catalog GPU written inline with its figures keeps the catalog's fp8 peak, memory bandwidth and SMs.
  if (const GpuSpec* known = GpuCatalog::builtin().find(g.name)) {
    if (!node["fp8"]) g.fp8_flops = known->fp8_flops;
    if (!node["memory_bandwidth"]) g.memory_bandwidth_Bps = known->memory_bandwidth_Bps;
    if (!node["sms"]) g.sms = known->sms;
  }
  return g;
}

namespace {

// Errors raised while reading a data file the scenario points to (Hulk data, SimGrid XML) name that file; the
// user also needs to know which scenario key led there, so the error is re-raised at that key of the scenario,
// keeping the data file's name and line inside the message.
template <typename F>
PlatformSpec at_key(const YamlReader& r, const YAML::Node& node, const std::string& key, F build) {
  try {
    return build();
  } catch (const InputError& e) {
    const std::string what = e.what();
    const std::string prefix = InputError::format(e.file(), e.line(), e.key(), "");
    std::string message = what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
    std::string where = e.file().empty() ? "" : e.file() + (e.line() > 0 ? ":" + std::to_string(e.line()) : "") + ": ";
    const std::string inner_key = e.key().empty() || e.key() == key ? "" : e.key() + ": ";
    r.fail(node, key, where + inner_key + message);
  }
}

// A platform from a data file (Hulk data, SimGrid XML) meets the bounds of scenario keys too; its values have no
// scenario line, so the first problem is raised at the data file (at_key adds the scenario key).
PlatformSpec checked(PlatformSpec p, const std::string& file) {
  const std::vector<std::string> problems = platform_bound_problems(p);
  if (!problems.empty())
    throw InputError(file, 0, "",
                     problems.front() +
                         (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""));
  return p;
}

/** GPUs and servers of the regions read so far, counted whether or not a region was refused. */
struct PlatformTotals {
  long long gpus = 0;
  long long hosts = 0;
};

// One entry of platform.regions: the region's name and its generated hosts (names "<prefix>-<index>").
// totals accumulate over regions (a bound is reported once, by the region that crosses it, not by every region
// after it); host_names catches two regions generating the same host name.
void parse_region(const YamlReader& r, const YAML::Node& reg, std::size_t i, PlatformSpec& p,
                  std::set<std::string>& host_names, PlatformTotals& totals) {
  const std::string key = "platform.regions." + std::to_string(i);
  r.check_keys(reg, key, {"name", "hosts", "gpus_per_host", "gpu", "host_link", "intra_host", "host_prefix"});
  const std::string name = r.name(r.require(reg, key, "name"), key + ".name");
  for (std::size_t j = 0; j < p.regions.size(); ++j)
    if (p.regions[j] == name) {
      // Blamed on the earlier region when only its name came from a --set: that override made the duplicate.
      const std::string earlier = "platform.regions." + std::to_string(j);
      if (r.override_of(key + ".name").empty() && !r.override_of(earlier + ".name").empty())
        r.fail_key(earlier + ".name", "duplicate region name '" + name + "' (also " + key + "; expected unique names)");
      r.fail(reg["name"], key + ".name",
             "duplicate region name '" + name + "' (also " + earlier + "; expected unique names)");
    }
  p.regions.push_back(name);
  const int hosts =
      static_cast<int>(r.integer(r.require(reg, key, "hosts"), key + ".hosts", 1, bounds::kMaxHostsPerRegion));
  const int gpus = reg["gpus_per_host"] ? static_cast<int>(r.integer(reg["gpus_per_host"], key + ".gpus_per_host", 1,
                                                                     bounds::kMaxGpusPerHost))
                                        : 1;
  const GpuSpec gpu = parse_gpu(r, r.require(reg, key, "gpu"), key + ".gpu");
  const LinkSpec host_link =
      reg["host_link"] ? parse_link(r, reg["host_link"], key + ".host_link", kDefaultHostLink) : kDefaultHostLink;
  const LinkSpec intra = reg["intra_host"] ? parse_link(r, reg["intra_host"], key + ".intra_host", kDefaultIntraHost)
                                           : kDefaultIntraHost;
  const std::string prefix = reg["host_prefix"] ? r.name(reg["host_prefix"], key + ".host_prefix") : name;
  // A bound that keeps every GPU count in an int and the host list in memory; far above any simulable size.
  const PlatformTotals before = totals;
  totals.gpus += static_cast<long long>(hosts) * gpus;
  totals.hosts += hosts;
  if (before.gpus <= kMaxGpus && totals.gpus > kMaxGpus)
    r.fail(reg["hosts"], key + ".hosts",
           "the platform would have " + std::to_string(totals.gpus) + " GPUs (expected at most " +
               std::to_string(kMaxGpus) + ")");
  if (before.hosts <= bounds::kMaxHosts && totals.hosts > bounds::kMaxHosts)
    r.fail(reg["hosts"], key + ".hosts",
           "the platform would have " + std::to_string(totals.hosts) + " servers (expected at most " +
               std::to_string(bounds::kMaxHosts) + " in all)");
  for (int h = 0; h < hosts; ++h) {
    HostSpec hs;
    hs.name = prefix + "-" + std::to_string(h);
    if (!host_names.insert(hs.name).second)
      r.fail(reg["host_prefix"] ? reg["host_prefix"] : reg["name"], key + (reg["host_prefix"] ? ".host_prefix" : ".name"),
             "host name '" + hs.name + "' is generated twice (expected distinct host_prefix values)");
    hs.region = static_cast<int>(i);
    hs.gpus = gpus;
    hs.gpu = gpu;
    hs.host_link = host_link;
    hs.intra_link = intra;
    p.hosts.push_back(hs);
  }
}

// platform.wan.capacity / platform.hulk.wan_capacity: what a WAN bandwidth caps (sim/topology/route_model.hpp).
WanCapacity parse_wan_capacity(const YamlReader& r, const YAML::Node& node, const std::string& key) {
  const std::string v = r.str(node, key);
  if (v == "pair") return WanCapacity::pair;
  if (v == "host") return WanCapacity::host;
  r.fail(node, key, "'" + v + "' is not allowed: expected pair or host");
}

// platform.wan.default (bandwidth and latency both required); nullopt if absent.
std::optional<LinkSpec> parse_wan_default(const YamlReader& r, const YAML::Node& wan) {
  if (!wan["default"]) return std::nullopt;
  r.check_keys(wan["default"], "platform.wan.default", {"bandwidth", "latency"});
  LinkSpec def{};
  def.bandwidth_Bps = r.bandwidth_Bps(r.require(wan["default"], "platform.wan.default", "bandwidth"),
                                      "platform.wan.default.bandwidth");
  def.latency_s =
      r.latency_s(r.require(wan["default"], "platform.wan.default", "latency"), "platform.wan.default.latency");
  return def;
}

// Entry i of platform.wan.pairs: the pair's region indices (lower first) and its link; fields it omits come from
// the default. `seen` maps pairs already given to their entry index (a pair given twice is an error).
std::pair<std::pair<int, int>, LinkSpec> parse_wan_pair(const YamlReader& r, const YAML::Node& e, std::size_t i,
                                                        const PlatformSpec& p, const std::optional<LinkSpec>& def,
                                                        std::map<std::pair<int, int>, std::size_t>& seen) {
  const std::string key = "platform.wan.pairs." + std::to_string(i);
  r.check_keys(e, key, {"between", "bandwidth", "latency"});
  const YAML::Node between = r.require(e, key, "between");
  r.expect_list(between, key + ".between");
  if (between.size() != 2)
    r.fail(between, key + ".between", "expected two region names [a, b], got " + std::to_string(between.size()));
  int idx[2];
  for (int k = 0; k < 2; ++k) {
    const std::string rn = r.str(between[k], key + ".between");
    auto it = std::find(p.regions.begin(), p.regions.end(), rn);
    if (it == p.regions.end())
      r.fail(between[k], key + ".between", "unknown region '" + rn + "'" + suggestion_suffix(rn, p.regions));
    idx[k] = static_cast<int>(it - p.regions.begin());
  }
  if (idx[0] == idx[1])
    r.fail(between, key + ".between", "a WAN pair needs two different regions, got '" + p.regions[idx[0]] + "' twice");
  const std::pair<int, int> pk{std::min(idx[0], idx[1]), std::max(idx[0], idx[1])};
  if (seen.count(pk) != 0)
    r.fail(e, key,
           "duplicate WAN pair " + pair_name(p.regions[pk.first], p.regions[pk.second]) +
               " (already platform.wan.pairs." + std::to_string(seen[pk]) + ")");
  seen[pk] = i;
  if ((!e["bandwidth"] || !e["latency"]) && !def)
    r.fail(e, key, "missing bandwidth or latency and no platform.wan.default to take it from");
  LinkSpec l = def.value_or(LinkSpec{});
  if (e["bandwidth"]) l.bandwidth_Bps = r.bandwidth_Bps(e["bandwidth"], key + ".bandwidth");
  if (e["latency"]) l.latency_s = r.latency_s(e["latency"], key + ".latency");
  return {pk, l};
}

// WAN: wan.default for every region pair, wan.pairs entries override it; a pair with neither is an error.
void parse_wan(const YamlReader& r, const YAML::Node& platform, PlatformSpec& p) {
  const std::size_t n = p.regions.size();
  p.wan.assign(n, std::vector<LinkSpec>(n, LinkSpec{}));
  std::vector<std::vector<bool>> set(n, std::vector<bool>(n, false));
  const YAML::Node wan = platform["wan"];
  std::optional<LinkSpec> def;
  bool default_failed = false;
  bool default_used = false;  // a pair took a field from it, or no pair entry names a region pair
  if (wan) {
    r.check_keys(wan, "platform.wan", {"default", "pairs", "capacity"});
    if (wan["capacity"])
      r.collect([&] {
        p.wan_capacity = parse_wan_capacity(r, wan["capacity"], "platform.wan.capacity");
        // Per-host WAN links do not decompose into per-region-pair routes: SimGrid keeps a route per host pair.
        if (p.wan_capacity == WanCapacity::host && static_cast<long long>(p.hosts.size()) > bounds::kMaxHostsPairTable)
          r.fail(wan["capacity"], "platform.wan.capacity",
                 "host with " + std::to_string(p.hosts.size()) + " servers (expected at most " +
                     std::to_string(bounds::kMaxHostsPairTable) +
                     " servers with per-host WAN links: a route is kept for every pair of servers)");
      });
    const std::size_t before = r.error_count();
    r.collect([&] { def = parse_wan_default(r, wan); });
    default_failed = r.error_count() > before;
    if (wan["pairs"]) {
      const YAML::Node pairs = wan["pairs"];
      r.expect_list(pairs, "platform.wan.pairs");
      std::map<std::pair<int, int>, std::size_t> seen;
      const std::size_t before_pairs = r.error_count();
      for (std::size_t i = 0; i < pairs.size(); ++i)
        r.collect([&] {
          // A pair that takes a field from a default that failed is a consequence of that problem: skipped.
          const YAML::Node e = pairs[i];
          if (default_failed && !(e.IsMap() && e["bandwidth"] && e["latency"])) throw YamlReader::Skipped{};
          const auto [pk, l] = parse_wan_pair(r, e, i, p, def, seen);
          default_used = default_used || !(e.IsMap() && e["bandwidth"] && e["latency"]);
          p.wan[pk.first][pk.second] = p.wan[pk.second][pk.first] = l;
          set[pk.first][pk.second] = set[pk.second][pk.first] = true;
        });
      // A pair that failed would show up again as "no WAN link" below: a consequence, not a new problem.
      r.skip_if_failed(before_pairs);
    }
    if (default_failed) throw YamlReader::Skipped{};
  }
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      if (set[a][b]) continue;
      if (!def)
        r.fail(wan ? wan : platform, wan ? "platform.wan" : "platform",
               "no WAN link for regions " + pair_name(p.regions[a], p.regions[b]) +
                   " (expected platform.wan.default or a platform.wan.pairs entry)");
      p.wan[a][b] = p.wan[b][a] = *def;
      default_used = true;
    }
  // Every pair listed with both values: an override of the default (a sweep's axis) would change nothing, each
  // row the same as the last.
  if (const std::string label = r.override_within("platform.wan.default");
      def && !default_used && !label.empty() && wan["pairs"] && wan["pairs"].size() > 0)
    r.fail(wan["default"], "platform.wan.default",
           "is never used: every region pair is in platform.wan.pairs with its bandwidth and latency, so " + label +
               " changes nothing (expected an override of the pair: wan.pairs.N.bandwidth or .latency)");
}

PlatformSpec parse_regions(const YamlReader& r, const YAML::Node& platform) {
  PlatformSpec p;
  const YAML::Node regions = platform["regions"];
  r.expect_list(regions, "platform.regions");
  if (regions.size() == 0) r.fail(regions, "platform.regions", "expected at least one region, got an empty list");
  std::set<std::string> host_names;
  PlatformTotals totals;
  // Regions are independent (all their problems are collected); the WAN names regions, so it is read only when
  // every region was.
  const std::size_t before = r.error_count();
  for (std::size_t i = 0; i < regions.size(); ++i)
    r.collect([&] { parse_region(r, regions[i], i, p, host_names, totals); });
  if (r.error_count() > before) {
    // wan.default names no region: its problems are still independent ones.
    const YAML::Node wan = platform["wan"];
    if (wan && wan.IsMap() && wan["default"]) r.collect([&] { parse_wan_default(r, wan); });
    if (wan && wan.IsMap() && wan["capacity"])
      r.collect([&] { parse_wan_capacity(r, wan["capacity"], "platform.wan.capacity"); });
    r.skip_if_failed(before);
  }
  parse_wan(r, platform, p);
  return p;
}

PlatformSpec parse_hulk(const YamlReader& r, const YAML::Node& node, const std::string& base_dir) {
  const std::string key = "platform.hulk";
  r.check_keys(node, key,
               {"dir", "lan_bandwidth", "wan_bandwidth", "wan_capacity", "lan_latency", "intra_host", "gpu_map"});
  HulkImportOptions o;
  const YAML::Node dir = r.require(node, key, "dir");
  o.dir = resolve_path(base_dir, r.str(dir, key + ".dir"));
  if (!path_exists(o.dir, true))
    r.fail(dir, key + ".dir",
           "Hulk data folder '" + o.dir + "' not found (expected a folder with node_feature.csv and edge.txt)");
  if (node["lan_bandwidth"]) o.lan_bandwidth_Bps = r.bandwidth_Bps(node["lan_bandwidth"], key + ".lan_bandwidth");
  if (node["wan_bandwidth"]) o.wan_bandwidth_Bps = r.bandwidth_Bps(node["wan_bandwidth"], key + ".wan_bandwidth");
  if (node["wan_capacity"]) o.wan_capacity = parse_wan_capacity(r, node["wan_capacity"], key + ".wan_capacity");
  if (node["lan_latency"]) o.lan_latency_s = r.latency_s(node["lan_latency"], key + ".lan_latency");
  if (node["intra_host"]) o.intra_host = parse_link(r, node["intra_host"], key + ".intra_host", kDefaultIntraHost);
  if (node["gpu_map"]) {
    const YAML::Node map = node["gpu_map"];
    r.expect_map(map, key + ".gpu_map");
    const GpuCatalog& cat = GpuCatalog::builtin();
    for (const auto& kv : map) {
      const std::string written = r.str(kv.first, key + ".gpu_map");
      // Spelled as the importer spells node_feature.csv's capabilities (one decimal, "8" for 8.0): any other key
      // would match no server and be dropped without a word.
      static const std::regex capability(R"([0-9]{1,2}(\.[0-9])?)");
      if (!std::regex_match(written, capability))
        r.fail(kv.first, key + ".gpu_map." + written,
               "'" + written + "' is not a compute capability (expected a key such as 8.0, 8.6 or 9)");
      const std::string cap = written.find('.') == std::string::npos ? written + ".0" : written;
      const std::string k = key + ".gpu_map." + cap;
      const std::string name = r.str(kv.second, k);
      if (cat.find(name) == nullptr)
        r.fail(kv.second, k, "unknown GPU '" + name + "'" + suggestion_suffix(name, cat.names()));
      if (o.gpu_map.count(cap))  // "8" and "8.0" are one capability: the later would win without a word
        r.fail(kv.first, k, "capability " + cap + " is mapped twice (expected one entry for it; 8 and 8.0 are the same)");
      o.gpu_map[cap] = name;
    }
  }
  return at_key(r, dir, key + ".dir", [&] { return checked(import_hulk(o), o.dir); });
}

XmlHostGpus parse_xml_gpus(const YamlReader& r, const YAML::Node& node, const std::string& key) {
  r.check_keys(node, key, {"count", "gpu"});
  XmlHostGpus g;
  g.count = node["count"] ? static_cast<int>(r.integer(node["count"], key + ".count", 0, bounds::kMaxGpusPerHost)) : 1;
  g.gpu = parse_gpu(r, r.require(node, key, "gpu"), key + ".gpu");
  return g;
}

PlatformSpec parse_simgrid(const YamlReader& r, const YAML::Node& node, const std::string& base_dir,
                           const XmlPlatformDescriber& describe_xml) {
  const std::string key = "platform.simgrid";
  r.check_keys(node, key, {"file", "gpus", "intra_host"});
  SimgridXmlOptions o;
  o.max_hosts = bounds::kMaxHostsPairTable;
  const YAML::Node file = r.require(node, key, "file");
  o.file = resolve_path(base_dir, r.str(file, key + ".file"));
  if (!path_exists(o.file, false))
    r.fail(file, key + ".file", "SimGrid platform file '" + o.file + "' " + input_file_problem(o.file) +
                                    " (expected an existing .xml file)");
  if (node["intra_host"]) o.intra_host = parse_link(r, node["intra_host"], key + ".intra_host", kDefaultIntraHost);
  const YAML::Node gpus = r.require(node, key, "gpus");
  r.check_keys(gpus, key + ".gpus", {"default", "hosts"});
  if (gpus["default"]) {
    o.default_gpus = parse_xml_gpus(r, gpus["default"], key + ".gpus.default");
    o.has_default = true;
  }
  if (gpus["hosts"]) {
    r.expect_map(gpus["hosts"], key + ".gpus.hosts");
    for (const auto& kv : gpus["hosts"]) {
      const std::string host = r.str(kv.first, key + ".gpus.hosts");
      o.per_host[host] = parse_xml_gpus(r, kv.second, key + ".gpus.hosts." + host);
    }
  }
  if (!o.has_default && o.per_host.empty())
    r.fail(gpus, key + ".gpus", "no host carries GPUs (expected gpus.default and/or gpus.hosts)");
  if (!describe_xml)
    r.fail(file, key + ".file", "SimGrid XML platforms need the simulator engine, which this program does not link");
  return at_key(r, file, key + ".file", [&] { return checked(describe_xml(o), o.file); });
}

}  // namespace

PlatformSpec parse_platform(const YamlReader& r, const YAML::Node& platform, const std::string& base_dir,
                            const XmlPlatformDescriber& describe_xml) {
  r.check_keys(platform, "platform", {"regions", "wan", "hulk", "simgrid"});
  int sources = 0;
  std::string found;  // "regions and simgrid (from --set platform.simgrid.file=x.xml)"
  for (const std::string s : {"regions", "hulk", "simgrid"}) {
    if (!platform[s]) continue;
    const std::string label = r.override_within("platform." + s);
    found += (sources++ ? " and " : "") + s + (label.empty() ? "" : " (from " + label + ")");
  }
  if (sources != 1)
    r.fail(platform, "platform",
           "expected exactly one platform source (regions, hulk or simgrid), got " +
               (sources == 0 ? std::string("none") : found));
  if (platform["wan"] && !platform["regions"])
    r.fail(platform["wan"], "platform.wan",
           "wan is only used with regions (hulk and simgrid platforms bring their own WAN)");
  PlatformSpec p;
  if (platform["regions"])
    p = parse_regions(r, platform);
  else if (platform["hulk"])
    p = parse_hulk(r, platform["hulk"], base_dir);
  else
    p = parse_simgrid(r, platform["simgrid"], base_dir, describe_xml);
  if (p.hosts.empty()) r.fail(platform, "platform", "the platform has no GPU hosts (expected at least one)");
  return p;
}

}  // namespace hulk::detail
