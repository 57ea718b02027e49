// GPU catalog and model presets: YAML files under platforms/, read with the same line-aware reader as scenarios.
#include "sim/scenario/catalog.hpp"

#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/bounds.hpp"
#include "sim/scenario/yaml_access.hpp"

namespace hulk {

std::string platforms_dir() { return data_path("platforms"); }

namespace {

// Reads "<list_key>: [ {...}, ... ]" and hands each entry (with its key path) to f.
template <typename F>
void for_each_entry(const std::string& path, const std::string& list_key, F f) {
  const YAML::Node root = YamlReader::load_file(path);
  YamlReader r(path);
  r.check_keys(root, "", {list_key});
  const YAML::Node list = r.require(root, "", list_key);
  r.expect_list(list, list_key);
  for (std::size_t i = 0; i < list.size(); ++i) f(r, list[i], list_key + "." + std::to_string(i));
}

}  // namespace

GpuCatalog GpuCatalog::load(const std::string& path) {
  GpuCatalog cat;
  for_each_entry(path, "gpus", [&](const YamlReader& r, const YAML::Node& e, const std::string& key) {
    r.check_keys(e, key,
                 {"name", "fp16", "fp32", "fp8", "memory", "memory_bandwidth", "sms", "capability", "source",
                  "memory_source", "notes"});
    GpuSpec g;
    g.name = r.name(r.require(e, key, "name"), key + ".name");
    g.fp16_flops = r.flops(r.require(e, key, "fp16"), key + ".fp16");
    g.fp32_flops = r.flops(r.require(e, key, "fp32"), key + ".fp32");
    if (e["fp8"]) g.fp8_flops = r.flops(e["fp8"], key + ".fp8");  // absent: no fp8 tensor cores
    g.memory_bytes = r.bytes(r.require(e, key, "memory"), key + ".memory");
    if (e["memory_bandwidth"])
      g.memory_bandwidth_Bps =
          r.bandwidth_Bps(e["memory_bandwidth"], key + ".memory_bandwidth", bounds::kMemoryBandwidth);
    if (e["sms"]) g.sms = static_cast<int>(r.integer(e["sms"], key + ".sms", 1, 100000));
    if ((e["memory_bandwidth"] || e["sms"]) && !e["memory_source"])
      r.fail(e, key + ".memory_source", "memory_bandwidth and sms need a memory_source naming where they come from");
    if (e["capability"]) g.capability = r.str(e["capability"], key + ".capability");
    // Every number must say where it comes from: a catalog entry without a source is rejected.
    g.source = r.str(r.require(e, key, "source"), key + ".source");
    cat.add_unique(r, e, key, g, "GPU name");
  });
  return cat;
}

const GpuCatalog& GpuCatalog::builtin() {
  // Loaded on first use; a broken shipped catalog is an InputError like any other input.
  static const GpuCatalog cat = load(data_file("platforms/gpus.yaml"));
  return cat;
}

TransportCatalog TransportCatalog::load(const std::string& path) {
  TransportCatalog cat;
  for_each_entry(path, "transports", [&](const YamlReader& r, const YAML::Node& e, const std::string& key) {
    r.check_keys(e, key, {"name", "achieved", "source", "notes"});
    TransportSpec t;
    t.name = r.name(r.require(e, key, "name"), key + ".name");
    t.achieved = r.number(r.require(e, key, "achieved"), key + ".achieved");
    if (!(t.achieved > 0 && t.achieved <= 1))
      r.fail(e["achieved"], key + ".achieved", "expected a fraction of the bandwidth in (0, 1]");
    t.source = r.str(r.require(e, key, "source"), key + ".source");
    cat.add_unique(r, e, key, t, "transport");
  });
  return cat;
}

const TransportCatalog& TransportCatalog::builtin() {
  static const TransportCatalog cat = load(platforms_dir() + "/transports.yaml");
  return cat;
}

ModelCatalog ModelCatalog::load(const std::string& path) {
  ModelCatalog cat;
  for_each_entry(path, "models", [&](const YamlReader& r, const YAML::Node& e, const std::string& key) {
    r.check_keys(e, key, {"name", "layers", "hidden", "heads", "seq_len", "vocab", "source", "notes"});
    ModelSpec m;
    m.name = r.name(r.require(e, key, "name"), key + ".name");
    m.layers = static_cast<int>(r.integer(r.require(e, key, "layers"), key + ".layers", 1, 100000));
    m.hidden = static_cast<int>(r.integer(r.require(e, key, "hidden"), key + ".hidden", 1, 1000000));
    m.heads = static_cast<int>(r.integer(r.require(e, key, "heads"), key + ".heads", 1, 100000));
    m.seq_len = static_cast<int>(r.integer(r.require(e, key, "seq_len"), key + ".seq_len", 1, 10000000));
    m.vocab = static_cast<int>(r.integer(r.require(e, key, "vocab"), key + ".vocab", 1, 100000000));
    r.str(r.require(e, key, "source"), key + ".source");
    cat.add_unique(r, e, key, m, "model name");
  });
  return cat;
}

const ModelCatalog& ModelCatalog::builtin() {
  static const ModelCatalog cat = load(data_file("platforms/models.yaml"));
  return cat;
}

}  // namespace hulk
