#include "gnn/dataset.hpp"

#include <cmath>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "gnn/format_version.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/seeding.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk::gnn {

namespace fs = std::filesystem;
using nlohmann::json;

json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return json::parse(ss.str());
  } catch (const json::exception& e) {
    throw InputError(path, 0, "", std::string("malformed JSON: ") + e.what());
  }
}

namespace {

void check_version(const json& doc, const std::string& path) {
  if (!doc.is_object() || !doc.contains("format_version") || !doc["format_version"].is_number_integer())
    throw InputError(path, 0, "format_version", "missing (expected " + std::to_string(kDatasetFormatVersion) + ")");
  const int v = doc["format_version"].get<int>();
  if (v != kDatasetFormatVersion)
    throw InputError(path, 0, "format_version",
                     "data set format " + std::to_string(v) + " is not supported (expected " +
                         std::to_string(kDatasetFormatVersion) + "); regenerate it with this hulk");
}

}  // namespace

void write_manifest(const std::string& dir, const Manifest& m) {
  std::error_code ec;
  const fs::path samples = fs::path(dir) / "samples";
  fs::create_directories(samples, ec);
  // Name the path in the way (a file called samples, say), not only its parent.
  if (ec) throw InputError(samples.string(), 0, "", "cannot create the data set's samples folder: " + ec.message());
  const json doc{{"format_version", m.format_version ? m.format_version : kDatasetFormatVersion},
                 {"count", m.count},
                 {"seed", m.seed},
                 {"generator", m.generator}};
  write_file_atomic((fs::path(dir) / "manifest.json").string(), doc.dump(2) + "\n");
}

Manifest read_manifest(const std::string& dir) {
  const std::string path = (fs::path(dir) / "manifest.json").string();
  if (!fs::exists(path)) throw InputError(path, 0, "", "not a data set: manifest.json missing");
  const json doc = read_json_file(path);
  check_version(doc, path);
  Manifest m;
  m.format_version = doc["format_version"].get<int>();
  try {
    m.count = doc.at("count").get<int>();
    m.seed = doc.at("seed").get<std::uint64_t>();
    m.generator = doc.at("generator").get<std::string>();
  } catch (const json::exception& e) {
    throw InputError(path, 0, "", std::string("bad manifest: ") + e.what());
  }
  if (m.count < 0) throw InputError(path, 0, "count", "expected >= 0");
  return m;
}

std::string sample_path(const std::string& dir, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "%06d.json", index);
  return (fs::path(dir) / "samples" / name).string();
}

std::string skip_marker_path(const std::string& dir, int index) {
  std::string p = sample_path(dir, index);
  return p.substr(0, p.size() - 5) + ".skipped";
}

bool sample_exists(const std::string& dir, int index) {
  return fs::exists(sample_path(dir, index)) || fs::exists(skip_marker_path(dir, index));
}

void write_skip_marker(const std::string& dir, int index, const std::string& reason) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "samples", ec);
  write_file_atomic(skip_marker_path(dir, index), reason + "\n");
}

std::string sample_text(const Sample& s) {
  json times = json::object();
  for (const auto& [k, v] : s.times_s) times[k] = v;
  const json doc{{"format_version", kDatasetFormatVersion},
                 {"index", s.index},
                 {"scenario", scenario_to_json(s.scenario)},
                 {"traffic", s.traffic ? traffic_to_json(*s.traffic) : json(nullptr)},
                 {"label", placement_slots_to_json(s.label)},
                 {"times_s", times}};
  return doc.dump();
}

void write_sample(const std::string& dir, const Sample& s) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "samples", ec);
  write_file_atomic(sample_path(dir, s.index), sample_text(s) + "\n");
}

std::uint64_t samples_fingerprint(const std::vector<Sample>& data) {
  std::string digests;  // each sample's FNV-1a and kind, in order (not the texts themselves: a large set's would be
                        // hundreds of megabytes)
  for (const Sample& s : data)
    digests += std::to_string(fnv1a64(sample_text(s))) + (s.reference_label ? "r\n" : "s\n");
  return fnv1a64(digests);
}

Sample read_sample(const std::string& path) {
  const json doc = read_json_file(path);
  check_version(doc, path);
  Sample s;
  if (!doc.contains("index") || !doc["index"].is_number_integer()) throw InputError(path, 0, "index", "missing");
  s.index = doc["index"].get<int>();
  if (!doc.contains("scenario")) throw InputError(path, 0, "scenario", "missing");
  s.scenario = scenario_from_json(doc["scenario"], path);
  if (doc.contains("traffic") && !doc["traffic"].is_null()) {
    s.traffic = traffic_from_json(doc["traffic"], path, "traffic");
    if (s.traffic->hosts != static_cast<int>(s.scenario.platform.hosts.size()))
      throw InputError(path, 0, "traffic.hosts", "does not match the scenario's host count");
  }
  if (!doc.contains("label")) throw InputError(path, 0, "label", "missing");
  s.label = placement_slots_from_json(doc["label"], path, "label");
  if (static_cast<int>(s.label.gpu_of_rank.size()) != s.scenario.only_job().par.ranks())
    throw InputError(path, 0, "label",
                     "has " + std::to_string(s.label.gpu_of_rank.size()) + " ranks, job has " +
                         std::to_string(s.scenario.only_job().par.ranks()));
  // A label is a placement of its scenario (labels with unknown hosts, slots out of range or a GPU twice would be
  // skipped silently by the role counts).
  if (const std::string problem = placement_problem(s.scenario, s.label, s.scenario.only_job().check_memory);
      !problem.empty())
    throw InputError(path, 0, "label", "is not a valid placement of the sample's scenario: " + problem);
  if (doc.contains("times_s")) {
    if (!doc["times_s"].is_object()) throw InputError(path, 0, "times_s", "expected an object");
    for (const auto& [k, v] : doc["times_s"].items()) {
      // Iteration times are positive and finite (gnn-eval printed "geomean -nanx" from a -1).
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
        throw InputError(path, 0, "times_s." + k, "expected a positive number of seconds, got " + v.dump());
      s.times_s[k] = v.get<double>();
    }
  }
  return s;
}

std::vector<std::string> sample_paths_to_load(const std::string& dir, bool allow_missing, const std::string& generator) {
  const Manifest m = read_manifest(dir);
  std::vector<std::string> paths;
  paths.reserve(static_cast<std::size_t>(m.count));
  for (int i = 0; i < m.count; ++i) {
    std::string path = sample_path(dir, i);
    if (fs::exists(path)) {
      paths.push_back(std::move(path));
      continue;
    }
    if (fs::exists(skip_marker_path(dir, i)) || allow_missing) continue;  // skipped: its job could not be placed
    throw InputError(path, 0, "", "sample missing (manifest says " + std::to_string(m.count) + " samples; resume " +
                                      generator + " to complete the data set)");
  }
  return paths;
}

std::vector<Sample> load_dataset(const std::string& dir, bool allow_missing) {
  std::vector<Sample> out;
  for (const std::string& path : sample_paths_to_load(dir, allow_missing, "gen-data")) out.push_back(read_sample(path));
  return out;
}

std::uint64_t sample_seed(std::uint64_t seed, std::uint64_t index) {
  // Stream index + 1 (not index): the values of the first version, so existing data sets keep their scenarios.
  return stream_seed(seed, index + 1);
}

}  // namespace hulk::gnn
