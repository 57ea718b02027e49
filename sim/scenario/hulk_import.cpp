// Importer for the Hulk data set (node_feature.csv + edge.txt). The rules implemented here are documented in
// scenarios/README.md ("platform: hulk"); every rule that changes or fills data adds a warning.
#include "sim/scenario/hulk_import.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "sim/scenario/bounds.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/units.hpp"
#include "sim/core/utf8.hpp"

namespace hulk {
namespace {

constexpr double kImplausibleMs = 5.0;  // two different cities closer than this (one way) is not physical

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string fold(const std::string& s) {
  std::string out = trim(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string fmt(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// Lines of a text file without their "\r\n"/"\n"; remembers whether the last line had a newline.
struct TextFile {
  std::string path;
  std::vector<std::string> lines;
  bool trailing_newline = true;
};

TextFile read_lines(const std::string& path) {
  std::ifstream in =
      open_input_file(path, "Hulk data file", "the file of that name inside the hulk dir", std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  // Spreadsheet programs start a saved CSV with a UTF-8 byte-order mark: not part of the first field.
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string::npos)
    throw InputError(path, 1 + static_cast<int>(std::count(text.begin(), text.begin() + bad, '\n')), "",
                     "a byte is not UTF-8 (expected CSV text in UTF-8)");
  TextFile f{path, {}, text.empty() || text.back() == '\n'};
  std::string line;
  std::istringstream is(text);
  while (std::getline(is, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // A NUL ended a number early ("1\09" read as 1) and control characters went into host names and outputs.
    std::string untabbed = line;  // tabs separate fields
    std::replace(untabbed.begin(), untabbed.end(), '\t', ' ');
    if (const std::size_t c = first_control_char(untabbed); c != std::string::npos)
      throw InputError(path, static_cast<int>(f.lines.size()) + 1, "",
                       "a control character at column " + std::to_string(c + 1) + " (expected text: fields, "
                       "commas or spaces, tabs)");
    f.lines.push_back(line);
  }
  return f;
}

long long to_int(const std::string& field, const std::string& file, int line, const std::string& what) {
  const std::string t = trim(field);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || errno == ERANGE)
    throw InputError(file, line, "", what + " '" + t + "' is not an integer");
  return v;
}

double to_double(const std::string& field, const std::string& file, int line, const std::string& what) {
  const std::string t = trim(field);
  double v = 0;
  if (!parse_plain_decimal(t, v))  // not hex ("0x10"), as the scenario's YAML does not take it
    throw InputError(file, line, "", what + " '" + t + "' is not a number (expected a plain decimal)");
  return v;
}

struct Server {
  int id = 0;
  int line = 0;
  int region = 0;
  std::string capability;  // normalised "8.0"
  double memory_gb = 0;
};

// "8" -> "8.0", "8.6" -> "8.6": the catalog spells capabilities with one decimal.
std::string normalise_capability(double cap) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(1);
  os << cap;
  return os.str();
}

// GPU mapping rule (scenarios/README.md): candidates by capability (or gpu_map); prefer a candidate whose memory
// divides the server's memory exactly, with the count closest to 8 (ties: catalog order); otherwise round.
void map_gpus(const Server& s, const std::string& city, const HulkImportOptions& options, const std::string& file,
              HostSpec& host, std::vector<std::string>& warnings) {
  const GpuCatalog& cat = GpuCatalog::builtin();
  std::vector<const GpuSpec*> candidates;
  auto mapped = options.gpu_map.find(s.capability);
  if (mapped != options.gpu_map.end()) {
    const GpuSpec* g = cat.find(mapped->second);
    if (g == nullptr)
      throw InputError("", 0, "platform.hulk.gpu_map." + s.capability,
                       "unknown GPU '" + mapped->second + "' (expected a name from platforms/gpus.yaml)");
    candidates.push_back(g);
  } else {
    for (const auto& g : cat.all())
      if (g.capability == s.capability) candidates.push_back(&g);
  }
  if (candidates.empty())
    throw InputError(file, s.line, "",
                     "no GPU in platforms/gpus.yaml has compute capability " + s.capability +
                         " (expected one, or a platform.hulk.gpu_map entry for it)");
  const double mem_bytes = s.memory_gb * 1e9;
  const GpuSpec* best = nullptr;
  long long best_count = 0;
  double best_ratio = 0;
  bool exact_found = false;
  for (int pass = 0; pass < 2 && best == nullptr; ++pass) {
    for (const GpuSpec* g : candidates) {
      const double ratio = mem_bytes / g->memory_bytes;
      // Beyond the per-server bound the count only has to stay beyond it: std::llround of a ratio past the range
      // of long long is unspecified (1e21 GB became 1 GPU).
      const long long count = std::max<long long>(1, std::llround(std::min(ratio, 1e15)));
      const bool exact = std::fabs(ratio - std::round(ratio)) < 1e-9 * std::max(1.0, ratio) && ratio >= 1;
      if (pass == 0 && !exact) continue;
      if (best == nullptr || std::llabs(count - 8) < std::llabs(best_count - 8)) {
        best = g;
        best_count = count;
        best_ratio = ratio;
      }
    }
    exact_found = pass == 0 && best != nullptr;
  }
  if (!exact_found) {
    std::string cands;
    for (const GpuSpec* g : candidates)
      cands += (cands.empty() ? "" : ", ") + g->name + " " + fmt(g->memory_bytes / 1e9) + " GB";
    warnings.push_back(file + ":" + std::to_string(s.line) + ": server " + std::to_string(s.id) + " (" + city +
                       ", cc " + s.capability + ", " + fmt(s.memory_gb) + " GB) is not a whole number of any " +
                       "candidate GPU (" + cands + "): using round(" + fmt(s.memory_gb) + " / " +
                       fmt(best->memory_bytes / 1e9) + ")" + (best_ratio < 0.5 ? ", at least 1," : "") + " = " + std::to_string(best_count) + " x " + best->name + " (" +
                       fmt(best_count * best->memory_bytes / 1e9) + " GB)");
  }
  if (best_count > bounds::kMaxGpusPerHost)
    throw InputError(file, s.line, "",
                     "Memory " + fmt(s.memory_gb) + " GB means " +
                         (best_ratio < 1e15 ? fmt(std::round(best_ratio)) : std::string("more than 1e15")) + " x " +
                         best->name +
                         " (expected at most " + std::to_string(bounds::kMaxGpusPerHost) + " GPUs per server)");
  host.gpu = *best;
  host.gpus = static_cast<int>(best_count);
}

// One row of node_feature.csv ("node,City,Capability,Memory"); adds a new city to p.regions (and region_key).
Server parse_server_row(const TextFile& nodes, std::size_t i, PlatformSpec& p, std::vector<std::string>& region_key,
                        std::map<std::string, std::pair<int, int>>& variants) {
  const int line = static_cast<int>(i) + 1;
  std::vector<std::string> f;
  std::stringstream ss(nodes.lines[i]);
  std::string cell;
  while (std::getline(ss, cell, ',')) f.push_back(cell);
  if (f.size() != 4)
    throw InputError(nodes.path, line, "",
                     "expected 4 comma-separated fields (node,City,Capability,Memory), got " + std::to_string(f.size()));
  Server s;
  s.line = line;
  s.id = static_cast<int>(to_int(f[0], nodes.path, line, "node id"));
  const std::string city = trim(f[1]);
  if (city.empty()) throw InputError(nodes.path, line, "", "empty City");
  const double cap = to_double(f[2], nodes.path, line, "Capability");
  if (cap <= 0) throw InputError(nodes.path, line, "", "Capability " + trim(f[2]) + " must be positive");
  s.capability = normalise_capability(cap);
  s.memory_gb = to_double(f[3], nodes.path, line, "Memory");
  if (s.memory_gb <= 0) throw InputError(nodes.path, line, "", "Memory " + trim(f[3]) + " GB must be positive");
  const std::string key = fold(f[1]);
  auto it = std::find(region_key.begin(), region_key.end(), key);
  if (it == region_key.end()) {
    region_key.push_back(key);
    p.regions.push_back(city);
    it = region_key.end() - 1;
  }
  s.region = static_cast<int>(it - region_key.begin());
  if (f[1] != p.regions[s.region]) {
    auto v = variants.find(f[1]);
    if (v == variants.end())
      variants[f[1]] = {line, 1};
    else
      ++v->second.second;
  }
  return s;
}

// node_feature.csv: servers sorted by id (ids must be 0..N-1), cities into p.regions, a warning per merged
// spelling of a city (in order of its first line).
std::vector<Server> read_servers(const TextFile& nodes, PlatformSpec& p) {
  if (nodes.lines.empty() || fold(nodes.lines[0]) != "node,city,capability,memory")
    throw InputError(nodes.path, 1, "", "expected the header 'node,City,Capability,Memory', got '" +
                                            (nodes.lines.empty() ? std::string() : nodes.lines[0]) + "'");
  std::vector<Server> servers;
  std::vector<std::string> region_key;                  // folded name per region
  std::map<std::string, std::pair<int, int>> variants;  // raw spelling -> (first line, rows), if != canonical
  for (std::size_t i = 1; i < nodes.lines.size(); ++i)
    if (!trim(nodes.lines[i]).empty()) servers.push_back(parse_server_row(nodes, i, p, region_key, variants));
  std::vector<std::pair<int, std::string>> merged;
  for (const auto& [raw, where] : variants) {
    const std::string canon =
        p.regions[std::find(region_key.begin(), region_key.end(), fold(raw)) - region_key.begin()];
    merged.push_back({where.first, nodes.path + ":" + std::to_string(where.first) + ": city '" + raw + "' (" +
                                       std::to_string(where.second) + " row" + (where.second > 1 ? "s" : "") +
                                       ") merged into '" + canon + "' (names are trimmed and compared ignoring case)"});
  }
  std::sort(merged.begin(), merged.end());
  for (auto& m : merged) p.warnings.push_back(m.second);

  std::sort(servers.begin(), servers.end(), [](const Server& a, const Server& b) { return a.id < b.id; });
  for (std::size_t i = 0; i < servers.size(); ++i)
    if (servers[i].id != static_cast<int>(i))
      throw InputError(nodes.path, servers[i].line, "",
                       "node ids must be 0..N-1, each once: expected id " + std::to_string(i) + ", found " +
                           std::to_string(servers[i].id) + (servers[i].id < static_cast<int>(i) ? " (duplicate)" : ""));
  if (servers.empty()) throw InputError(nodes.path, 0, "", "no servers (expected one row per server)");
  return servers;
}

// One host per server (named "<city>-<id>"), GPUs mapped from capability and memory; mapping warnings follow the
// city warnings.
void add_hosts(const std::vector<Server>& servers, const HulkImportOptions& options, const std::string& file,
               PlatformSpec& p) {
  std::vector<std::string> gpu_warnings;
  for (const Server& s : servers) {
    HostSpec h;
    h.name = p.regions[s.region] + "-" + std::to_string(s.id);
    h.region = s.region;
    h.host_link = {options.lan_bandwidth_Bps, options.lan_latency_s};
    h.intra_link = options.intra_host;
    map_gpus(s, p.regions[s.region], options, file, h, gpu_warnings);
    p.hosts.push_back(h);
  }
  for (auto& w : gpu_warnings) p.warnings.push_back(w);
  // A gpu_map entry no server uses changes nothing: most likely a typo of a capability the data has.
  for (const auto& entry : options.gpu_map) {
    const std::string& cap = entry.first;  // a named reference: C++17 lambdas cannot capture a structured binding
    if (std::none_of(servers.begin(), servers.end(), [&](const Server& s) { return s.capability == cap; }))
      p.warnings.push_back("platform.hulk.gpu_map." + cap + ": no server has compute capability " + cap +
                           ", so the entry (" + entry.second + ") maps nothing");
  }
}

struct Measured {
  double ms;
  int line;
};
using MeasuredPairs = std::map<std::pair<int, int>, Measured>;  ///< (lower id, higher id) -> one-way latency

// edge.txt: measured one-way latencies (ms) per server pair; self-loops dropped and duplicates reduced to their
// minimum, each with a warning.
MeasuredPairs read_measured_latencies(const TextFile& edges, const std::vector<Server>& servers, PlatformSpec& p) {
  const int n = static_cast<int>(servers.size());
  MeasuredPairs measured;
  for (std::size_t i = 0; i < edges.lines.size(); ++i) {
    const int line = static_cast<int>(i) + 1;
    std::istringstream is(edges.lines[i]);
    std::vector<std::string> f;
    std::string tok;
    while (is >> tok) f.push_back(tok);
    if (f.empty()) continue;
    if (f.size() != 3)
      throw InputError(edges.path, line, "", "expected 'u v latency_ms', got " + std::to_string(f.size()) + " fields");
    const long long u = to_int(f[0], edges.path, line, "node id");
    const long long v = to_int(f[1], edges.path, line, "node id");
    for (long long id : {u, v})
      if (id < 0 || id >= n)
        throw InputError(edges.path, line, "",
                         "unknown node id " + std::to_string(id) + " (expected 0.." + std::to_string(n - 1) +
                             " from node_feature.csv)");
    const double ms = to_double(f[2], edges.path, line, "latency");
    if (ms <= 0) throw InputError(edges.path, line, "", "latency " + f[2] + " ms must be positive");
    const std::string problem = bound_problem(ms * 1e-3, bounds::kLatency, f[2] + " ms");
    if (!problem.empty()) throw InputError(edges.path, line, "", "latency " + problem);
    const std::string where = edges.path + ":" + std::to_string(line) + ": ";
    if (u == v) {
      p.warnings.push_back(where + "self-loop " + std::to_string(u) + "-" + std::to_string(v) + " (" + f[2] +
                           " ms) dropped");
      continue;
    }
    const std::pair<int, int> key{static_cast<int>(std::min(u, v)), static_cast<int>(std::max(u, v))};
    const Server& a = servers[key.first];
    const Server& b = servers[key.second];
    if (a.region != b.region && ms < kImplausibleMs)
      p.warnings.push_back(where + p.hosts[key.first].name + " - " + p.hosts[key.second].name + " " + fmt(ms) +
                           " ms between different cities is implausible (< " + fmt(kImplausibleMs) +
                           " ms one way); kept as measured");
    auto it = measured.find(key);
    if (it != measured.end()) {
      const double kept = std::min(it->second.ms, ms);
      p.warnings.push_back(where + "pair " + std::to_string(key.first) + "-" + std::to_string(key.second) +
                           " listed twice (" + fmt(it->second.ms) + " ms at line " + std::to_string(it->second.line) +
                           ", " + fmt(ms) + " ms here): keeping the minimum " + fmt(kept) + " ms");
      it->second.ms = kept;
      continue;
    }
    measured[key] = {ms, line};
  }
  if (!edges.trailing_newline)
    p.warnings.push_back(edges.path + ":" + std::to_string(edges.lines.size()) +
                         ": last line has no trailing newline (read anyway)");
  return measured;
}

// Every server pair's latency into p.host_pair_latency_s: measured, or the shortest path over measured pairs.
void route_all_pairs(const MeasuredPairs& measured, const std::string& file, PlatformSpec& p) {
  const int n = static_cast<int>(p.hosts.size());
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                                      boost::property<boost::edge_weight_t, double>>;
  Graph g(static_cast<std::size_t>(n));
  std::vector<int> degree(n, 0);
  for (const auto& [key, m] : measured) {
    boost::add_edge(key.first, key.second, m.ms, g);
    ++degree[key.first];
    ++degree[key.second];
  }
  for (int i = 0; i < n; ++i)
    if (degree[i] == 0 && n > 1)
      throw InputError(file, 0, "",
                       "server " + std::to_string(i) + " (" + p.hosts[i].name +
                           ") has no measured latency to any other server: cannot route to it");
  long long routed = 0;
  for (int s = 0; s < n; ++s) {
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    boost::dijkstra_shortest_paths(g, static_cast<std::size_t>(s), boost::distance_map(dist.data()));
    for (int t = s + 1; t < n; ++t) {
      auto it = measured.find({s, t});
      double ms = 0;
      if (it != measured.end()) {
        ms = it->second.ms;  // a measurement is kept even if a routed path would be shorter
      } else {
        // Boost's Dijkstra leaves an unreached vertex at the largest double, not at infinity.
        if (!(dist[t] < std::numeric_limits<double>::max()))
          throw InputError(file, 0, "",
                           "servers " + p.hosts[s].name + " and " + p.hosts[t].name +
                               " are not connected by measured pairs: cannot route a latency");
        ms = dist[t];
        ++routed;
      }
      p.host_pair_latency_s[{s, t}] = ms * 1e-3;
    }
  }
  const long long total = static_cast<long long>(n) * (n - 1) / 2;
  if (routed > 0)
    p.warnings.push_back(file + ": " + std::to_string(routed) + " of " + std::to_string(total) +
                         " server pairs are not measured (" + std::to_string(measured.size()) +
                         " distinct measured pairs): their latency is the shortest path over measured pairs");
}

// WAN: wan_bandwidth for every city pair (one shared pipe or each server's own cap, see options.wan_capacity); its
// latency is the smallest host-pair latency between the two cities (every host pair's own latency overrides it
// anyway, see host_pair_latency_s).
void build_wan(const HulkImportOptions& options, PlatformSpec& p) {
  const std::size_t r = p.regions.size();
  p.wan.assign(r, std::vector<LinkSpec>(r, LinkSpec{}));
  for (std::size_t a = 0; a < r; ++a)
    for (std::size_t b = 0; b < r; ++b)
      if (a != b) p.wan[a][b].bandwidth_Bps = options.wan_bandwidth_Bps;
  std::vector<std::vector<double>> min_lat(r, std::vector<double>(r, std::numeric_limits<double>::infinity()));
  for (const auto& [key, lat] : p.host_pair_latency_s) {
    const int ra = p.hosts[key.first].region, rb = p.hosts[key.second].region;
    if (ra == rb) continue;
    min_lat[ra][rb] = std::min(min_lat[ra][rb], lat);
    min_lat[rb][ra] = min_lat[ra][rb];
  }
  for (std::size_t a = 0; a < r; ++a)
    for (std::size_t b = 0; b < r; ++b)
      if (a != b && std::isfinite(min_lat[a][b])) p.wan[a][b].latency_s = min_lat[a][b];
}

}  // namespace

PlatformSpec import_hulk(const HulkImportOptions& options) {
  struct stat st {};
  if (options.dir.empty() || stat(options.dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(options.dir, 0, "",
                     "Hulk data folder not found (expected a folder with node_feature.csv and edge.txt)");
  // The same bounds as scenario keys (bounds.hpp), also for options set in code rather than read from YAML.
  const std::pair<const char*, std::pair<double, const Bound*>> option_values[] = {
      {"platform.hulk.lan_bandwidth", {options.lan_bandwidth_Bps, &bounds::kBandwidth}},
      {"platform.hulk.wan_bandwidth", {options.wan_bandwidth_Bps, &bounds::kBandwidth}},
      {"platform.hulk.lan_latency", {options.lan_latency_s, &bounds::kLatency}},
      {"platform.hulk.intra_host.bandwidth", {options.intra_host.bandwidth_Bps, &bounds::kBandwidth}},
      {"platform.hulk.intra_host.latency", {options.intra_host.latency_s, &bounds::kLatency}}};
  for (const auto& [key, v] : option_values) {
    const std::string problem = bound_problem(v.first, *v.second, fmt(v.first) + " (SI)");
    if (!problem.empty()) throw InputError("", 0, key, problem);
  }
  PlatformSpec p;
  const TextFile nodes = read_lines(options.dir + "/node_feature.csv");
  const std::vector<Server> servers = read_servers(nodes, p);
  add_hosts(servers, options, nodes.path, p);
  const TextFile edges = read_lines(options.dir + "/edge.txt");
  const MeasuredPairs measured = read_measured_latencies(edges, servers, p);
  route_all_pairs(measured, edges.path, p);
  build_wan(options, p);
  p.wan_capacity = options.wan_capacity;
  return p;
}

}  // namespace hulk
