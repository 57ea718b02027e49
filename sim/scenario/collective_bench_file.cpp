#include "sim/scenario/collective_bench_file.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "sim/core/errors.hpp"
#include "sim/core/input_file.hpp"
#include "sim/scenario/bounds.hpp"
#include "sim/scenario/scenario_parts.hpp"
#include "sim/scenario/yaml_access.hpp"

namespace hulk {
namespace {

/** Sizes nccl-tests can run: one byte up to a terabyte (far beyond any GPU's memory). */
const Bound kCollectiveBytes{1, 1e12, "a collective's size", "1B .. 1TB", "no GPU buffer is larger"};

/** Sets `achieved` on every link map of the regions that names a transport of the table and has no achieved of its
 *  own, as `--set` overrides (the loader's one code path for values that do not come from the file). */
void set_transport_fractions(YAML::Node& root, const std::map<std::string, double>& achieved_of_transport,
                             const std::string& path) {
  if (achieved_of_transport.empty()) return;
  const YAML::Node platform = root["platform"];
  if (!platform || !platform.IsMap() || !platform["regions"] || !platform["regions"].IsSequence()) return;
  std::vector<Override> overrides;
  for (std::size_t i = 0; i < platform["regions"].size(); ++i) {
    const YAML::Node region = platform["regions"][i];
    if (!region.IsMap()) continue;
    for (const char* key : {"host_link", "intra_host"}) {
      const YAML::Node link = region[key];
      if (!link || !link.IsMap() || !link["transport"] || !link["transport"].IsScalar() || link["achieved"]) continue;
      const auto it = achieved_of_transport.find(link["transport"].Scalar());
      if (it == achieved_of_transport.end()) continue;
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", it->second);
      overrides.push_back({"platform.regions." + std::to_string(i) + "." + key + ".achieved", text});
    }
  }
  detail::apply_overrides(root, overrides, path);
}

/** The `collective:` map into spec (the platform already read). */
void parse_collective(const YamlReader& r, const YAML::Node& node, CollectiveBenchSpec& spec) {
  r.expect_map(node, "collective");
  r.check_keys(node, "collective", {"op", "bytes", "nodes", "gpus_per_node", "algorithm"});
  if (node["op"]) spec.op = r.one_of(node["op"], "collective.op", collective_ops());
  spec.bytes = r.bytes(r.require(node, "collective", "bytes"), "collective.bytes", kCollectiveBytes);
  if (node["algorithm"]) spec.algorithm = r.one_of(node["algorithm"], "collective.algorithm", collective_algorithms());
  if (spec.algorithm == "tree" && spec.op != "all_reduce")
    r.fail(node["algorithm"], "collective.algorithm",
           "tree runs all_reduce only (expected ring for " + spec.op + ")");
  const long long hosts = static_cast<long long>(spec.platform.hosts.size());
  const YAML::Node nodes = r.require(node, "collective", "nodes");
  spec.nodes = static_cast<int>(r.integer(nodes, "collective.nodes", 1, bounds::kMaxHosts));
  if (spec.nodes > hosts)
    r.fail(nodes, "collective.nodes",
           std::to_string(spec.nodes) + " nodes, but the platform has " + std::to_string(hosts) +
               " hosts (expected at most that many: the benchmark runs on the first `nodes` hosts)");
  const YAML::Node gpn = r.require(node, "collective", "gpus_per_node");
  spec.gpus_per_node = static_cast<int>(r.integer(gpn, "collective.gpus_per_node", 1, bounds::kMaxGpusPerHost));
  for (int h = 0; h < spec.nodes; ++h)
    if (spec.platform.hosts[h].gpus < spec.gpus_per_node)
      r.fail(gpn, "collective.gpus_per_node",
             std::to_string(spec.gpus_per_node) + " GPUs per node, but host '" + spec.platform.hosts[h].name +
                 "' has " + std::to_string(spec.platform.hosts[h].gpus) +
                 " (expected at most the GPUs of each of the first `nodes` hosts)");
  if (spec.ranks() < 2) r.fail(gpn, "collective.gpus_per_node", "1 GPU in all (expected nodes x gpus_per_node >= 2)");
}

}  // namespace

bool is_collective_bench_file(const std::string& path) {
  if (!input_file_problem(path).empty()) return false;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    return root.IsMap() && root["collective"];
  } catch (const std::exception&) {
    return false;  // not YAML: the scenario loader reports it
  }
}

CollectiveBenchSpec load_collective_bench(const std::string& path,
                                          const std::map<std::string, double>& achieved_of_transport,
                                          const XmlPlatformDescriber& describe_xml) {
  if (const std::string problem = input_file_problem(path); !problem.empty())
    throw InputError(path, 0, "", (problem == "not found" ? "benchmark file " : "") + problem +
                                      " (expected a readable YAML file)");
  for (const auto& [name, f] : achieved_of_transport)
    if (!(f > 0 && f <= 1))
      throw InputError(path, 0, "achieved", "fraction " + std::to_string(f) + " for transport '" + name +
                                                "' (expected a fraction in (0, 1])");
  YAML::Node root = YamlReader::load_file(path);
  YamlReader r(path);
  if (!root.IsMap()) r.fail(root, "", "expected a benchmark map (name, platform, collective), got " + describe_node(root));
  r.check_keys(root, "", {"name", "description", "platform", "collective"});
  set_transport_fractions(root, achieved_of_transport, path);
  CollectiveBenchSpec spec;
  spec.file = path;
  spec.name = std::filesystem::path(path).stem().string();
  if (root["name"]) spec.name = r.name(root["name"], "name");
  if (root["description"]) r.str(root["description"], "description");
  const std::string base_dir = std::filesystem::absolute(std::filesystem::path(path)).parent_path().string();
  spec.platform = detail::parse_platform(r, r.require(root, "", "platform"), base_dir, describe_xml);
  parse_collective(r, r.require(root, "", "collective"), spec);
  return spec;
}

}  // namespace hulk
