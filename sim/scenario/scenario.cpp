// Scenario loader: YAML file -> overrides -> schema checks -> resolved Scenario -> job validation.
// The schema is documented key by key in scenarios/README.md.
#include "sim/scenario/scenario.hpp"

#include <filesystem>
#include <sstream>

#include "sim/scenario/catalog.hpp"
#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/method_names.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk {
namespace {

ModelSpec parse_model(const YamlReader& r, const YAML::Node& node, const std::string& key) {
  r.check_keys(node, key, {"preset", "name", "layers", "hidden", "heads", "seq_len", "vocab"});
  ModelSpec m;
  bool preset = false;
  if (node["preset"]) {
    const std::string name = r.str(node["preset"], key + ".preset");
    const ModelCatalog& cat = ModelCatalog::builtin();
    const ModelSpec* found = cat.find(name);
    if (found == nullptr)
      r.fail(node["preset"], key + ".preset",
             "unknown model preset '" + name + "'" + suggestion_suffix(name, cat.names()) +
                 "; presets are in platforms/models.yaml");
    m = *found;
    preset = true;
  } else {
    m.name = "custom";
  }
  // Explicit keys override the preset; without a preset all five are required.
  auto field = [&](const char* k, int& out) {
    const std::string path = key + "." + k;
    if (node[k])
      out = static_cast<int>(r.integer(node[k], path, -1000000000, 1000000000));
    else if (!preset)
      r.fail(node, path,
             std::string("missing key '") + k + "' (expected {preset: NAME} or all of " +
                 "layers, hidden, heads, seq_len, vocab)");
  };
  field("layers", m.layers);
  field("hidden", m.hidden);
  field("heads", m.heads);
  field("seq_len", m.seq_len);
  field("vocab", m.vocab);
  if (node["name"]) m.name = r.str(node["name"], key + ".name");
  return m;
}

JobSpec parse_job(const YamlReader& r, const YAML::Node& job) {
  r.check_keys(job, "job",
               {"model", "precision", "global_batch", "micro_batch", "parallelism", "schedule", "collective",
                "iterations", "utilisation", "check_memory"});
  JobSpec j;
  j.model = parse_model(r, r.require(job, "job", "model"), "job.model");
  const auto int_of = [&](const YAML::Node& n, const std::string& k) {
    return static_cast<int>(r.integer(n, k, -1000000000, 1000000000));
  };
  if (job["precision"]) j.precision = r.one_of(job["precision"], "job.precision", {"fp16", "bf16", "fp32"});
  j.global_batch = int_of(r.require(job, "job", "global_batch"), "job.global_batch");
  if (job["micro_batch"]) j.micro_batch = int_of(job["micro_batch"], "job.micro_batch");
  if (job["parallelism"]) {
    const YAML::Node par = job["parallelism"];
    r.check_keys(par, "job.parallelism", {"dp", "tp", "pp"});
    if (par["dp"]) j.par.dp = int_of(par["dp"], "job.parallelism.dp");
    if (par["tp"]) j.par.tp = int_of(par["tp"], "job.parallelism.tp");
    if (par["pp"]) j.par.pp = int_of(par["pp"], "job.parallelism.pp");
  }
  if (job["schedule"]) j.schedule = r.one_of(job["schedule"], "job.schedule", {"1f1b", "gpipe"});
  if (job["collective"]) j.collective = r.one_of(job["collective"], "job.collective", {"ring", "hierarchical", "tree"});
  if (job["iterations"]) j.iterations = int_of(job["iterations"], "job.iterations");
  if (job["utilisation"]) j.utilisation = r.number(job["utilisation"], "job.utilisation");
  if (job["check_memory"]) j.check_memory = r.boolean(job["check_memory"], "job.check_memory");
  return j;
}

NetworkSpec parse_network(const YamlReader& r, const YAML::Node& node) {
  r.check_keys(node, "network", {"model", "tcp_window", "crosstraffic"});
  NetworkSpec n;
  if (node["model"]) n.model = r.one_of(node["model"], "network.model", {"CM02", "LV08", "SMPI", "IB", "Constant"});
  if (node["tcp_window"]) {
    const YAML::Node w = node["tcp_window"];
    // 0 means "no window cap" (SimGrid's TCP-gamma 0), which parse_bytes would reject as a size.
    n.tcp_window_bytes =
        (w.IsScalar() && (w.Scalar() == "0" || w.Scalar() == "0B")) ? 0.0 : r.bytes(w, "network.tcp_window");
  }
  if (node["crosstraffic"]) n.crosstraffic = r.boolean(node["crosstraffic"], "network.crosstraffic");
  return n;
}

std::string parse_placement(const YamlReader& r, const YAML::Node& node, const std::string& base_dir) {
  const std::string text = r.str(node, "placement");
  if (text.rfind("file:", 0) == 0) {
    const std::string rel = text.substr(5);
    if (rel.empty()) r.fail(node, "placement", "expected file:PATH.json, got an empty path");
    const std::string abs = detail::resolve_path(base_dir, rel);
    if (!detail::path_exists(abs, false))
      r.fail(node, "placement", "placement file '" + abs + "' not found (expected an existing JSON file)");
    return "file:" + abs;
  }
  // The names the command line accepts (sim/core/method_names.hpp): a scenario and --methods never disagree.
  if (is_method_name(text)) return text;
  r.fail(node, "placement", unknown_method_message(text));
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<Override>& overrides,
                       const XmlPlatformDescriber& describe_xml) {
  if (!detail::path_exists(path, false))
    throw InputError(path, 0, "", "scenario file not found (expected a readable YAML file)");
  YAML::Node root = YamlReader::load_file(path);
  YamlReader r(path);
  if (!root.IsMap()) r.fail(root, "", "expected a scenario map (name, platform, job, ...), got " + describe_node(root));
  const std::vector<std::string> set_paths = detail::apply_overrides(root, overrides, path);
  for (std::size_t i = 0; i < set_paths.size(); ++i)
    r.add_override(set_paths[i], "--set " + overrides[i].key + "=" + overrides[i].value);
  const std::string base_dir = std::filesystem::absolute(std::filesystem::path(path)).parent_path().string();

  r.check_keys(root, "", {"name", "description", "seed", "platform", "network", "job", "placement"});
  Scenario s;
  s.file = path;
  s.name = root["name"] ? r.str(root["name"], "name") : std::filesystem::path(path).stem().string();
  if (root["description"]) r.str(root["description"], "description");
  if (root["seed"]) s.seed = static_cast<std::uint64_t>(r.integer(root["seed"], "seed", 0));
  s.platform = detail::parse_platform(r, r.require(root, "", "platform"), base_dir, describe_xml);
  if (root["network"]) s.network = parse_network(r, root["network"]);
  s.job = parse_job(r, r.require(root, "", "job"));
  if (root["placement"]) s.placement = parse_placement(r, root["placement"], base_dir);
  detail::validate_job_with(s, &r);
  return s;
}

void validate_job(const Scenario& scenario) { detail::validate_job_with(scenario, nullptr); }

namespace detail {

namespace {
std::string number_text(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
}  // namespace

void validate_job_with(const Scenario& s, const YamlReader* r) {
  const auto fail = [&](const std::string& key, const std::string& message) {
    if (r != nullptr) r->fail_key(key, message);
    throw InputError(s.file, 0, key, message);
  };
  const JobSpec& j = s.job;
  const ModelSpec& m = j.model;
  const auto positive = [&](int v, const std::string& key) {
    if (v < 1) fail(key, "expected an integer >= 1, got " + std::to_string(v));
  };
  positive(m.layers, "job.model.layers");
  positive(m.hidden, "job.model.hidden");
  positive(m.heads, "job.model.heads");
  positive(m.seq_len, "job.model.seq_len");
  positive(m.vocab, "job.model.vocab");
  positive(j.global_batch, "job.global_batch");
  positive(j.micro_batch, "job.micro_batch");
  positive(j.par.dp, "job.parallelism.dp");
  positive(j.par.tp, "job.parallelism.tp");
  positive(j.par.pp, "job.parallelism.pp");
  positive(j.iterations, "job.iterations");
  if (!(j.utilisation > 0 && j.utilisation <= 1))
    fail("job.utilisation", "utilisation " + number_text(j.utilisation) +
                                " is out of range (expected a fraction of peak flop/s in (0, 1])");
  if (j.precision != "fp16" && j.precision != "bf16" && j.precision != "fp32")
    fail("job.precision", "'" + j.precision + "' is not allowed: expected one of fp16 | bf16 | fp32");
  if (j.schedule != "1f1b" && j.schedule != "gpipe")
    fail("job.schedule", "'" + j.schedule + "' is not allowed: expected one of 1f1b | gpipe");
  if (j.collective != "ring" && j.collective != "hierarchical" && j.collective != "tree")
    fail("job.collective", "'" + j.collective + "' is not allowed: expected one of ring | hierarchical | tree");
  if (m.hidden % m.heads != 0)
    fail("job.model.heads", "hidden " + std::to_string(m.hidden) + " is not divisible by heads " +
                                std::to_string(m.heads) + " (expected hidden = heads x head size)");
  if (m.heads % j.par.tp != 0)
    fail("job.parallelism.tp", "heads " + std::to_string(m.heads) + " are not divisible by tp " +
                                   std::to_string(j.par.tp) + " (expected tp to divide the attention heads)");
  if (m.layers < j.par.pp)
    fail("job.parallelism.pp", "pp " + std::to_string(j.par.pp) + " is larger than the model's " +
                                   std::to_string(m.layers) + " layers (expected at least one layer per stage)");
  const long long per_step = static_cast<long long>(j.par.dp) * j.micro_batch;
  if (j.global_batch % per_step != 0)
    fail("job.global_batch", "global_batch " + std::to_string(j.global_batch) +
                                 " is not divisible by dp x micro_batch = " + std::to_string(j.par.dp) + " x " +
                                 std::to_string(j.micro_batch) + " = " + std::to_string(per_step) +
                                 " (expected a multiple of it)");
  const long long ranks = static_cast<long long>(j.par.dp) * j.par.tp * j.par.pp;
  const int gpus = s.platform.total_gpus();
  if (ranks > gpus)
    fail("job.parallelism", "dp x tp x pp = " + std::to_string(j.par.dp) + " x " + std::to_string(j.par.tp) + " x " +
                                std::to_string(j.par.pp) + " = " + std::to_string(ranks) +
                                " ranks, but the platform has " + std::to_string(gpus) +
                                " GPUs (expected at most one rank per GPU)");
  if (!is_method_name(s.placement)) fail("placement", unknown_method_message(s.placement));
}

}  // namespace detail
}  // namespace hulk
