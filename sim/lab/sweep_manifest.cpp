#include "sim/lab/sweep_manifest.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "sim/core/input_file.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"
#include "sim/scenario/scenario_json.hpp"

namespace hulk {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string was_now(const std::string& what, const std::string& was, const std::string& now) {
  return what + " (was " + (was.empty() ? "none" : was) + ", now " + (now.empty() ? "none" : now) + ")";
}

}  // namespace

std::string scenario_inputs_hash(const Scenario& scenario) {
  std::ostringstream text;
  text << scenario_to_json(scenario).dump() << '\n';
  if (!scenario.platform.simgrid_xml.empty()) text << file_content_hash(scenario.platform.simgrid_xml) << '\n';
  text.precision(17);
  for (const EventSpec& e : scenario.events)
    text << static_cast<int>(e.kind) << ' ' << static_cast<int>(e.target.kind) << ' ' << e.target.region_a << ' '
         << e.target.region_b << ' ' << e.target.host << ' ' << e.at_s << ' '
         << e.duration_s << ' ' << e.bandwidth_factor << ' ' << e.bandwidth_Bps << ' ' << e.latency_s << ' '
         << e.speed_factor << ' ' << e.restart_s << '\n';
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(text.str())));
  return buf;
}

std::string file_content_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "absent";
  std::stringstream ss;
  ss << in.rdbuf();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(ss.str())));
  return buf;
}

nlohmann::json sweep_manifest_to_json(const SweepManifest& m) {
  nlohmann::json grid = nlohmann::json::array();
  for (const auto& a : m.grid) grid.push_back({{"key", a.key}, {"values", a.values}});
  return {{"scenario_file", m.scenario_file},
          {"scenario_hash", m.scenario_hash},
          {"loaded_hash", m.loaded_hash},
          {"grid", grid},
          {"methods", m.methods},
          {"budget", m.budget},
          {"model_path", m.model_path},
          {"model_hash", m.model_hash},
          {"version", m.version}};
}

SweepManifest read_sweep_manifest(const std::string& path) {
  std::ifstream in = open_input_file(path, "sweep manifest", "the JSON file a sweep writes");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  SweepManifest m;
  try {
    if (j.is_discarded()) throw std::runtime_error("not JSON");
    m.scenario_file = j.at("scenario_file").get<std::string>();
    m.scenario_hash = j.at("scenario_hash").get<std::string>();
    m.loaded_hash = j.value("loaded_hash", std::string());  // absent in manifests of an older hulk: then differs
    for (const auto& a : j.at("grid"))
      m.grid.push_back({a.at("key").get<std::string>(), a.at("values").get<std::vector<std::string>>()});
    m.methods = j.at("methods").get<std::vector<std::string>>();
    m.budget = j.at("budget").get<long>();
    m.model_path = j.at("model_path").get<std::string>();
    m.model_hash = j.at("model_hash").get<std::string>();
    m.version = j.at("version").get<std::string>();
  } catch (const std::exception&) {
    throw InputError(path, 0, "", "malformed sweep manifest; delete the folder's sweep files or use another --out");
  }
  return m;
}

void write_sweep_manifest(const std::string& path, const SweepManifest& m) {
  write_file_atomic(path, sweep_manifest_to_json(m).dump(2) + "\n");
}

std::string sweep_manifest_difference(const SweepManifest& a, const SweepManifest& b) {
  if (a.scenario_hash != b.scenario_hash) return "the scenario file's content";
  if (a.loaded_hash != b.loaded_hash)
    return "the scenario as loaded (a data file it reads: measured data, SimGrid XML or an event trace; or a "
           "manifest of an older hulk)";
  std::vector<std::string> ka, kb;
  for (const auto& x : a.grid) ka.push_back(x.key);
  for (const auto& x : b.grid) kb.push_back(x.key);
  if (ka != kb) return was_now("the swept keys", join(ka), join(kb));
  for (std::size_t i = 0; i < a.grid.size(); ++i)
    if (a.grid[i].values != b.grid[i].values)
      return was_now("the values of " + a.grid[i].key, join(a.grid[i].values), join(b.grid[i].values));
  if (a.methods != b.methods) return was_now("--methods", join(a.methods), join(b.methods));
  if (a.budget != b.budget) return was_now("--budget", std::to_string(a.budget), std::to_string(b.budget));
  if (a.model_path != b.model_path) return was_now("--model", a.model_path, b.model_path);
  if (a.model_hash != b.model_hash) return "the content of the model file " + b.model_path;
  if (a.version != b.version) return was_now("the hulk version", a.version, b.version);
  return "";
}

std::string sweep_manifest_path(const std::string& csv_path) {
  const std::string suffix = ".csv";
  const bool csv =
      csv_path.size() >= suffix.size() && csv_path.compare(csv_path.size() - suffix.size(), suffix.size(), suffix) == 0;
  return (csv ? csv_path.substr(0, csv_path.size() - suffix.size()) : csv_path) + ".manifest.json";
}

}  // namespace hulk
