#include "sim/lab/fidelity_manifest.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "sim/scenario/yaml_access.hpp"

namespace hulk {

std::vector<std::string> FidelityManifest::series() const {
  std::vector<std::string> names;
  for (const auto& p : points)
    if (std::find(names.begin(), names.end(), p.series) == names.end()) names.push_back(p.series);
  return names;
}

const std::vector<std::string>& fidelity_units() {
  static const std::vector<std::string> units = {"s", "tokens/s", "TFLOP/s/GPU", "GB/s busbw"};
  return units;
}

FidelityManifest read_fidelity_manifest(const std::string& path) {
  namespace fs = std::filesystem;
  const YAML::Node root = YamlReader::load_file(path);
  YamlReader r(path);
  r.expect_map(root, "");
  r.check_keys(root, "", {"description", "points"});
  const YAML::Node list = r.require(root, "", "points");
  r.expect_list(list, "points");
  if (list.size() == 0) r.fail(list, "points", "is empty (expected at least one measured point)");
  const fs::path folder = fs::absolute(fs::path(path)).parent_path();

  FidelityManifest m;
  m.file = path;
  std::map<std::string, std::string> calibration_of;  // series -> key path of its calibration point
  std::map<std::string, std::string> case_key;         // "series\ncase" -> key path
  std::map<std::string, std::pair<std::string, std::string>> transport_of;  // series -> (transport, first key path)
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    const std::string key = "points." + std::to_string(i);
    r.expect_map(e, key);
    r.check_keys(e, key, {"series", "case", "scenario", "measured", "unit", "source", "calibrate", "note", "transport"});
    FidelityPoint p;
    p.line = YamlReader::line_of(e);
    p.series = r.str(r.require(e, key, "series"), key + ".series");
    p.case_name = r.str(r.require(e, key, "case"), key + ".case");
    const YAML::Node scen = r.require(e, key, "scenario");
    const std::string rel = r.str(scen, key + ".scenario");
    const fs::path file = fs::path(rel).is_absolute() ? fs::path(rel) : folder / rel;
    if (!fs::is_regular_file(file))
      r.fail(scen, key + ".scenario", "'" + rel + "' is not a file (expected a scenario YAML, relative to the manifest's folder)");
    p.scenario = file.lexically_normal().string();
    const YAML::Node measured = r.require(e, key, "measured");
    p.measured = r.number(measured, key + ".measured");
    if (!(p.measured > 0))
      r.fail(measured, key + ".measured", describe_node(measured) + " is not a positive number (expected the published value)");
    p.unit = r.one_of(r.require(e, key, "unit"), key + ".unit", fidelity_units());
    p.source = r.str(r.require(e, key, "source"), key + ".source");
    if (e["calibrate"]) p.calibrate = r.boolean(e["calibrate"], key + ".calibrate");
    if (e["note"]) r.str(e["note"], key + ".note");
    if (e["transport"]) p.transport = r.str(e["transport"], key + ".transport");
    if (p.unit == "GB/s busbw" && p.transport.empty())
      r.fail(e, key + ".transport",
             "missing for a point in GB/s busbw (expected the transport whose achieved fraction the series calibrates)");
    if (transport_of.count(p.series) && transport_of[p.series].first != p.transport)
      r.fail(e["transport"] ? e["transport"] : e, key + ".transport",
             "'" + p.transport + "' but series '" + p.series + "' calibrates '" + transport_of[p.series].first +
                 "' at " + transport_of[p.series].second + " (expected one transport per series, or none)");
    transport_of.emplace(p.series, std::make_pair(p.transport, key));

    const std::string id = p.series + "\n" + p.case_name;
    if (case_key.count(id))
      r.fail(e["case"], key + ".case",
             "case '" + p.case_name + "' of series '" + p.series + "' is already at " + case_key[id] +
                 " (expected one point per case)");
    case_key[id] = key;
    if (p.calibrate) {
      if (calibration_of.count(p.series))
        r.fail(e["calibrate"], key + ".calibrate",
               "series '" + p.series + "' already has its calibration point at " + calibration_of[p.series] +
                   " (expected exactly one per series)");
      calibration_of[p.series] = key;
    }
    m.points.push_back(p);
  }
  for (std::size_t i = 0; i < m.points.size(); ++i) {
    const FidelityPoint& p = m.points[i];
    if (!calibration_of.count(p.series))
      r.fail(list[i]["series"], "points." + std::to_string(i) + ".series",
             "series '" + p.series + "' has no point with 'calibrate: true' (expected exactly one per series)");
  }
  return m;
}

double megatron_iteration_flops(const JobSpec& job) {
  const double B = job.global_batch, s = job.model.seq_len, l = job.model.layers, h = job.model.hidden,
               V = job.model.vocab;
  return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

double measured_collective_time_s(const FidelityPoint& point, double bytes, double bus_factor) {
  if (point.unit == "GB/s busbw") return bytes * bus_factor / (point.measured * 1e9);
  return point.measured;
}

double measured_iteration_time_s(const FidelityPoint& point, const JobSpec& job) {
  if (point.unit == "tokens/s")
    return static_cast<double>(job.global_batch) * job.model.seq_len / point.measured;
  if (point.unit == "TFLOP/s/GPU")
    return megatron_iteration_flops(job) / (point.measured * 1e12 * job.par.ranks());
  return point.measured;
}

}  // namespace hulk
