// The job's `sync:` map: DiLoCo-style outer synchronisation across islands. Schema in scenarios/README.md.
#include <set>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/units.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk::detail {

namespace {

/** The least top-k ratio accepted (below it a ratio such as 1e-300 sends nothing and prints as 0). */
constexpr double kMinTopkRatio = 1e-6;

/** `compression`: none | bf16 | int8 | topk:RATIO with kMinTopkRatio <= RATIO <= 1. */
void parse_compression(const YamlReader& r, const YAML::Node& node, const std::string& key, SyncSpec& sync) {
  const std::string text = r.str(node, key);
  if (text == "none" || text == "bf16" || text == "int8") {
    sync.compression = text;
    return;
  }
  if (text.rfind("topk:", 0) == 0) {
    double ratio = -1;
    if (parse_plain_decimal(text.substr(5), ratio) && ratio >= kMinTopkRatio && ratio <= 1) {
      sync.compression = "topk";
      sync.topk_ratio = ratio;
      return;
    }
  }
  r.fail(node, key, "'" + text + "' is not allowed: expected none | bf16 | int8 | topk:RATIO (1e-6 <= RATIO <= 1: "
                    "the share of the values sent; below one in a million, top-k keeps less than one value of most "
                    "layers)");
}

/** `islands`: region | host | a list of host-name lists. */
void parse_islands(const YamlReader& r, const YAML::Node& node, const std::string& key, SyncSpec& sync) {
  if (node.IsScalar()) {
    sync.islands = r.one_of(node, key, {"region", "host"});
    return;
  }
  if (!node.IsSequence() || node.size() < 2)
    r.fail(node, key, "expected region, host, or a list of at least two host groups (lists of host names)");
  sync.islands = "groups";
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string k = key + "[" + std::to_string(i) + "]";
    if (!node[i].IsSequence() || node[i].size() == 0) r.fail(node[i], k, "expected a non-empty list of host names");
    std::vector<std::string> group;
    for (std::size_t h = 0; h < node[i].size(); ++h) group.push_back(r.str(node[i][h], k + "[" + std::to_string(h) + "]"));
    sync.island_groups.push_back(group);
  }
}

}  // namespace

SyncSpec parse_sync(const YamlReader& r, const YAML::Node& node, const std::string& key) {
  r.expect_map(node, key);
  r.check_keys(node, key, {"algorithm", "inner_steps", "islands", "compression", "overlap"});
  SyncSpec sync;
  if (node["algorithm"]) sync.algorithm = r.one_of(node["algorithm"], key + ".algorithm", {"step", "diloco"});
  const bool diloco = sync.diloco();
  for (const char* k : {"inner_steps", "islands", "compression", "overlap"})
    if (node[k] && !diloco)
      r.fail(node[k], key + "." + k, "only means something with algorithm: diloco (the default, step, syncs every "
                                     "iteration)");
  if (node["inner_steps"])
    sync.inner_steps = static_cast<int>(r.integer(node["inner_steps"], key + ".inner_steps", 1, 1000000));
  if (node["islands"]) parse_islands(r, node["islands"], key + ".islands", sync);
  if (node["compression"]) parse_compression(r, node["compression"], key + ".compression", sync);
  if (node["overlap"]) sync.overlap = r.one_of(node["overlap"], key + ".overlap", {"none", "outer"});
  return sync;
}

std::string sync_problem(const Scenario& s, const JobSpec& job) {
  if (!job.sync.diloco()) return "";
  if (job.par.dp < 2) return "algorithm: diloco needs data parallelism (parallelism.dp >= 2): islands are groups of "
                             "data-parallel replicas";
  std::set<std::string> seen;
  for (const auto& group : job.sync.island_groups)
    for (const std::string& name : group) {
      bool known = false;
      for (const HostSpec& h : s.platform.hosts) known = known || h.name == name;
      if (!known) return "islands: unknown host '" + name + "' (expected host names of the platform)";
      if (!seen.insert(name).second) return "islands: host '" + name + "' is in two islands";
    }
  return "";
}

}  // namespace hulk::detail
