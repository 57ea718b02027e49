#include "sim/scenario/scenario_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/scenario/bounds.hpp"

namespace hulk {

using nlohmann::json;

namespace {

// Reads doc[key] as T; any absence or type mismatch becomes an InputError naming the full key path.
template <class T>
T get(const json& doc, const char* key, const std::string& file, const std::string& path) {
  const std::string full = path.empty() ? key : path + "." + key;
  if (!doc.is_object() || !doc.contains(key)) throw InputError(file, 0, full, "missing key");
  try {
    return doc.at(key).get<T>();
  } catch (const json::exception& e) {
    throw InputError(file, 0, full, std::string("wrong type (") + e.what() + ")");
  }
}

std::string text_of(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// get<T>, and the value must lie in [lo, hi] (finite): a data set's numbers bound what a run allocates and computes.
template <class T>
T get_in(const json& doc, const char* key, const std::string& file, const std::string& path, double lo, double hi) {
  const T v = get<T>(doc, key, file, path);
  const double d = static_cast<double>(v);
  if (!std::isfinite(d) || d < lo || d > hi)
    throw InputError(file, 0, path.empty() ? key : path + "." + key,
                     "out of range (expected a number in [" + text_of(lo) + ", " + text_of(hi) + "])");
  return v;
}

const json& sub(const json& doc, const char* key, const std::string& file, const std::string& path,
                json::value_t type) {
  const std::string full = path.empty() ? key : path + "." + key;
  if (!doc.is_object() || !doc.contains(key)) throw InputError(file, 0, full, "missing key");
  const json& v = doc.at(key);
  if (v.type() != type) throw InputError(file, 0, full, "wrong type");
  return v;
}

json link_to_json(const LinkSpec& l) { return json{{"bandwidth_Bps", l.bandwidth_Bps}, {"latency_s", l.latency_s}}; }
// unset: a link that may be absent (a WAN matrix's diagonal), all zeros.
LinkSpec link_from_json(const json& j, const std::string& file, const std::string& path, bool may_be_unset = false) {
  if (may_be_unset && get<double>(j, "bandwidth_Bps", file, path) == 0 && get<double>(j, "latency_s", file, path) == 0)
    return LinkSpec{0, 0};
  return LinkSpec{get_in<double>(j, "bandwidth_Bps", file, path, bounds::kBandwidth.min, bounds::kBandwidth.max),
                  get_in<double>(j, "latency_s", file, path, bounds::kLatency.min, bounds::kLatency.max)};
}

json gpu_to_json(const GpuSpec& g) {
  json out{{"name", g.name},
           {"fp16_flops", g.fp16_flops},
           {"fp32_flops", g.fp32_flops},
           {"memory_bytes", g.memory_bytes},
           {"capability", g.capability},
           {"memory_bandwidth_Bps", g.memory_bandwidth_Bps},
           {"sms", g.sms},
           {"source", g.source}};
  if (g.fp8_flops > 0) out["fp8_flops"] = g.fp8_flops;  // absent = no fp8 tensor cores (older data sets too)
  return out;
}
GpuSpec gpu_from_json(const json& j, const std::string& file, const std::string& path) {
  GpuSpec g;
  g.name = get<std::string>(j, "name", file, path);
  g.fp16_flops = get_in<double>(j, "fp16_flops", file, path, bounds::kFlops.min, bounds::kFlops.max);
  g.fp32_flops = get_in<double>(j, "fp32_flops", file, path, bounds::kFlops.min, bounds::kFlops.max);
  g.memory_bytes = get_in<double>(j, "memory_bytes", file, path, bounds::kMemory.min, bounds::kMemory.max);
  g.capability = get<std::string>(j, "capability", file, path);
  // Optional: samples written before the shape model carry neither (compute_efficiency.hpp then leaves them out).
  if (j.contains("memory_bandwidth_Bps")) g.memory_bandwidth_Bps = get<double>(j, "memory_bandwidth_Bps", file, path);
  if (j.contains("sms")) g.sms = get<int>(j, "sms", file, path);
  g.source = get<std::string>(j, "source", file, path);
  if (j.contains("fp8_flops"))
    g.fp8_flops = get_in<double>(j, "fp8_flops", file, path, bounds::kFlops.min, bounds::kFlops.max);
  return g;
}

// Pair-keyed maps as [[a, b, value], ...] (JSON objects need string keys).
json pair_map_to_json(const std::map<std::pair<int, int>, double>& m) {
  json out = json::array();
  for (const auto& [k, v] : m) out.push_back(json::array({k.first, k.second, v}));
  return out;
}
std::map<std::pair<int, int>, double> pair_map_from_json(const json& j, const std::string& file,
                                                         const std::string& path) {
  std::map<std::pair<int, int>, double> m;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const json& e = j[i];
    if (!e.is_array() || e.size() != 3 || !e[0].is_number_integer() || !e[1].is_number_integer() || !e[2].is_number())
      throw InputError(file, 0, path + "." + std::to_string(i), "expected [a, b, value]");
    m[{e[0].get<int>(), e[1].get<int>()}] = e[2].get<double>();
  }
  return m;
}

// The shape past the five GPT keys (GQA, MLP, embeddings, positions) only where it differs from the GPT defaults:
// a GPT model's JSON, and so its hash in a sweep manifest, is what it was without these fields.
void shape_to_json(const ModelSpec& m, json& model) {
  const ModelSpec gpt;
  if (m.kv_heads != gpt.kv_heads) model["kv_heads"] = m.kv_heads;
  if (m.ffn_hidden != gpt.ffn_hidden) model["ffn_hidden"] = m.ffn_hidden;
  if (m.gated_mlp != gpt.gated_mlp) model["gated_mlp"] = m.gated_mlp;
  if (m.tied_embeddings != gpt.tied_embeddings) model["tied_embeddings"] = m.tied_embeddings;
  if (m.position_rows != gpt.position_rows) model["position_rows"] = m.position_rows;
}

void shape_from_json(const json& m, ModelSpec& out, const std::string& file, const std::string& key) {
  if (m.contains("kv_heads")) out.kv_heads = get_in<int>(m, "kv_heads", file, key, 0, bounds::kMaxHeads);
  if (m.contains("ffn_hidden")) out.ffn_hidden = get_in<int>(m, "ffn_hidden", file, key, 0, 8 * bounds::kMaxHidden);
  if (m.contains("gated_mlp")) out.gated_mlp = get<bool>(m, "gated_mlp", file, key);
  if (m.contains("tied_embeddings")) out.tied_embeddings = get<bool>(m, "tied_embeddings", file, key);
  if (m.contains("position_rows"))
    out.position_rows = get_in<int>(m, "position_rows", file, key, -1, bounds::kMaxSeqLen);
}

json job_to_json(const JobSpec& j) {
  json model{{"name", j.model.name},       {"layers", j.model.layers},   {"hidden", j.model.hidden},
             {"heads", j.model.heads},     {"seq_len", j.model.seq_len}, {"vocab", j.model.vocab}};
  shape_to_json(j.model, model);
  json out{{"model", model},
           {"precision", j.precision},
           {"global_batch", j.global_batch},
           {"micro_batch", j.micro_batch},
           {"parallelism", {{"dp", j.par.dp}, {"tp", j.par.tp}, {"pp", j.par.pp}}},
           {"schedule", j.schedule},
           {"collective", j.collective},
           {"iterations", j.iterations},
           {"utilisation", j.utilisation},
           {"check_memory", j.check_memory},
           {"recompute", j.recompute},
           {"optimizer", j.optimizer},
           {"pipeline_p2p", j.pipeline_p2p},
           {"compute_model", j.compute_model},
           {"grad_reduce_precision", j.grad_reduce_precision},
           {"framework_overhead_s", j.framework_overhead_s},
           {"step_costs", j.step_costs}};
  // The workload features only when set: a job without them writes what older data sets hold.
  if (j.virtual_stages != 1) out["virtual_stages"] = j.virtual_stages;
  if (j.zero != 0) out["zero"] = j.zero;
  if (j.sequence_parallel) out["sequence_parallel"] = true;
  return out;
}

// One job object; key = its path in messages ("job" or "jobs.1").
JobSpec job_from_json(const json& j, const std::string& file, const std::string& key) {
  JobSpec out;
  const json& m = sub(j, "model", file, key, json::value_t::object);
  out.model.name = get<std::string>(m, "name", file, key + ".model");
  out.model.layers = get_in<int>(m, "layers", file, key + ".model", 1, bounds::kMaxLayers);
  out.model.hidden = get_in<int>(m, "hidden", file, key + ".model", 1, bounds::kMaxHidden);
  out.model.heads = get_in<int>(m, "heads", file, key + ".model", 1, bounds::kMaxHeads);
  out.model.seq_len = get_in<int>(m, "seq_len", file, key + ".model", 1, bounds::kMaxSeqLen);
  out.model.vocab = get_in<int>(m, "vocab", file, key + ".model", 0, bounds::kMaxVocab);
  shape_from_json(m, out.model, file, key + ".model");
  out.precision = get<std::string>(j, "precision", file, key);
  out.global_batch = get<int>(j, "global_batch", file, key);
  out.micro_batch = get<int>(j, "micro_batch", file, key);
  const json& par = sub(j, "parallelism", file, key, json::value_t::object);
  out.par.dp = get_in<int>(par, "dp", file, key + ".parallelism", 1, bounds::kMaxDegree);
  out.par.tp = get_in<int>(par, "tp", file, key + ".parallelism", 1, bounds::kMaxDegree);
  out.par.pp = get_in<int>(par, "pp", file, key + ".parallelism", 1, bounds::kMaxDegree);
  if (out.par.dp < 1 || out.par.tp < 1 || out.par.pp < 1)
    throw InputError(file, 0, key + ".parallelism", "degrees must be >= 1");
  out.schedule = get<std::string>(j, "schedule", file, key);
  out.collective = get<std::string>(j, "collective", file, key);
  out.iterations = get<int>(j, "iterations", file, key);
  out.utilisation = get<double>(j, "utilisation", file, key);
  out.check_memory = get<bool>(j, "check_memory", file, key);
  // Optional keys (older data sets do not have them): absent = the JobSpec defaults. A present value must be one the
  // YAML loader accepts ("" for pipeline_p2p = the schedule's default).
  const auto word = [&](const char* name, std::string& value, const std::vector<std::string>& allowed) {
    if (!j.contains(name)) return;
    value = get<std::string>(j, name, file, key);
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
      throw InputError(file, 0, key + "." + name, "'" + value + "' is not allowed");
  };
  word("recompute", out.recompute, {"none", "selective", "full"});
  word("optimizer", out.optimizer, {"adam", "sgd"});
  word("pipeline_p2p", out.pipeline_p2p, {"", "blocking", "overlapped"});
  word("compute_model", out.compute_model, {"shape", "flat"});
  word("grad_reduce_precision", out.grad_reduce_precision, {"", "fp32", "fp16", "bf16"});
  if (j.contains("step_costs")) out.step_costs = get<bool>(j, "step_costs", file, key);
  if (j.contains("framework_overhead_s"))
    out.framework_overhead_s = get_in<double>(j, "framework_overhead_s", file, key, 0.0, 3600.0);
  if (j.contains("virtual_stages")) out.virtual_stages = get_in<int>(j, "virtual_stages", file, key, 1, bounds::kMaxLayers);
  if (j.contains("zero")) out.zero = get_in<int>(j, "zero", file, key, 0, 3);
  if (j.contains("sequence_parallel")) out.sequence_parallel = get<bool>(j, "sequence_parallel", file, key);
  return out;
}

}  // namespace

json scenario_to_json(const Scenario& s) {
  json hosts = json::array();
  for (const HostSpec& h : s.platform.hosts)
    hosts.push_back(json{{"name", h.name},
                         {"region", h.region},
                         {"gpus", h.gpus},
                         {"gpu", gpu_to_json(h.gpu)},
                         {"host_link", link_to_json(h.host_link)},
                         {"intra_link", link_to_json(h.intra_link)}});
  json wan = json::array();
  for (const auto& row : s.platform.wan) {
    json r = json::array();
    for (const LinkSpec& l : row) r.push_back(link_to_json(l));
    wan.push_back(r);
  }
  json doc{{"name", s.name},
           {"file", s.file},
           {"seed", s.seed},
           {"placement", s.placement},
           {"platform",
            {{"regions", s.platform.regions},
             {"hosts", hosts},
             {"wan", wan},
             {"wan_capacity", s.platform.wan_capacity == WanCapacity::host ? "host" : "pair"},
             {"host_pair_latency_s", pair_map_to_json(s.platform.host_pair_latency_s)},
             {"host_pair_bandwidth_Bps", pair_map_to_json(s.platform.host_pair_bandwidth_Bps)},
             {"simgrid_xml", s.platform.simgrid_xml},
             {"warnings", s.platform.warnings}}},
           {"network",
            {{"model", s.network.model},
             {"tcp_window_bytes", s.network.tcp_window_bytes},
             {"crosstraffic", s.network.crosstraffic},
             {"channels_per_peer", s.network.channels_per_peer}}},
           {"job", job_to_json(s.jobs.front())}};
  // Named jobs (`jobs:`): each job's object plus its name and weight; "job" stays (a copy of the first).
  if (names_jobs(s)) {
    json jobs = json::array();
    for (const JobSpec& j : s.jobs) {
      json o = job_to_json(j);
      o["name"] = j.name;
      o["weight"] = j.weight;
      jobs.push_back(o);
    }
    doc["jobs"] = jobs;
  }
  return doc;
}

Scenario scenario_from_json(const json& doc, const std::string& file) {
  Scenario s;
  s.name = get<std::string>(doc, "name", file, "");
  s.file = get<std::string>(doc, "file", file, "");
  s.seed = get<std::uint64_t>(doc, "seed", file, "");
  s.placement = get<std::string>(doc, "placement", file, "");

  const json& p = sub(doc, "platform", file, "", json::value_t::object);
  s.platform.regions = get<std::vector<std::string>>(p, "regions", file, "platform");
  const json& hosts = sub(p, "hosts", file, "platform", json::value_t::array);
  const int R = static_cast<int>(s.platform.regions.size());
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const std::string path = "platform.hosts." + std::to_string(i);
    const json& h = hosts[i];
    HostSpec hs;
    hs.name = get<std::string>(h, "name", file, path);
    hs.region = get<int>(h, "region", file, path);
    if (hs.region < 0 || hs.region >= R) throw InputError(file, 0, path + ".region", "region index out of range");
    hs.gpus = get_in<int>(h, "gpus", file, path, 1, bounds::kMaxGpusPerHost);
    hs.gpu = gpu_from_json(sub(h, "gpu", file, path, json::value_t::object), file, path + ".gpu");
    hs.host_link = link_from_json(sub(h, "host_link", file, path, json::value_t::object), file, path + ".host_link");
    hs.intra_link = link_from_json(sub(h, "intra_link", file, path, json::value_t::object), file, path + ".intra_link");
    s.platform.hosts.push_back(hs);
  }
  const json& wan = sub(p, "wan", file, "platform", json::value_t::array);
  if (static_cast<int>(wan.size()) != R) throw InputError(file, 0, "platform.wan", "expected one row per region");
  for (std::size_t a = 0; a < wan.size(); ++a) {
    if (!wan[a].is_array() || static_cast<int>(wan[a].size()) != R)
      throw InputError(file, 0, "platform.wan." + std::to_string(a), "expected one entry per region");
    std::vector<LinkSpec> row;
    for (std::size_t b = 0; b < wan[a].size(); ++b)
      row.push_back(
          link_from_json(wan[a][b], file, "platform.wan." + std::to_string(a) + "." + std::to_string(b), a == b));
    s.platform.wan.push_back(row);
  }
  // Absent in files written before the field existed: those platforms were `pair`.
  if (p.contains("wan_capacity")) {
    const std::string cap = get<std::string>(p, "wan_capacity", file, "platform");
    if (cap != "pair" && cap != "host")
      throw InputError(file, 0, "platform.wan_capacity", "'" + cap + "' is not allowed: expected pair or host");
    s.platform.wan_capacity = cap == "host" ? WanCapacity::host : WanCapacity::pair;
  }
  s.platform.host_pair_latency_s = pair_map_from_json(sub(p, "host_pair_latency_s", file, "platform", json::value_t::array),
                                                      file, "platform.host_pair_latency_s");
  s.platform.host_pair_bandwidth_Bps = pair_map_from_json(
      sub(p, "host_pair_bandwidth_Bps", file, "platform", json::value_t::array), file, "platform.host_pair_bandwidth_Bps");
  s.platform.simgrid_xml = get<std::string>(p, "simgrid_xml", file, "platform");
  s.platform.warnings = get<std::vector<std::string>>(p, "warnings", file, "platform");

  const json& n = sub(doc, "network", file, "", json::value_t::object);
  s.network.model = get<std::string>(n, "model", file, "network");
  s.network.tcp_window_bytes = get<double>(n, "tcp_window_bytes", file, "network");
  s.network.crosstraffic = get<bool>(n, "crosstraffic", file, "network");
  // Optional keys (older data sets do not have them): absent = the defaults.
  if (n.contains("channels_per_peer")) {
    s.network.channels_per_peer = get<int>(n, "channels_per_peer", file, "network");
    if (s.network.channels_per_peer < 1 || s.network.channels_per_peer > bounds::kMaxChannelsPerPeer)
      throw InputError(file, 0, "network.channels_per_peer",
                       std::to_string(s.network.channels_per_peer) + " is out of range (expected an integer in [1, " +
                           std::to_string(bounds::kMaxChannelsPerPeer) + "])");
  }

  s.jobs = {job_from_json(sub(doc, "job", file, "", json::value_t::object), file, "job")};
  if (doc.contains("jobs") && !doc.at("jobs").empty()) {
    s.jobs.clear();
    s.jobs_listed = true;
    const json& jobs = sub(doc, "jobs", file, "", json::value_t::array);
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const std::string key = "jobs." + std::to_string(i);
      if (!jobs[i].is_object()) throw InputError(file, 0, key, "expected a job object");
      JobSpec j = job_from_json(jobs[i], file, key);
      j.name = get<std::string>(jobs[i], "name", file, key);
      j.weight = get<double>(jobs[i], "weight", file, key);
      s.jobs.push_back(j);
    }
  }
  return s;
}

json placement_slots_to_json(const Placement& placement) {
  json out = json::array();
  for (const GpuSlot& g : placement.gpu_of_rank) out.push_back(json::array({g.host, g.slot}));
  return out;
}

Placement placement_slots_from_json(const json& doc, const std::string& file, const std::string& key) {
  if (!doc.is_array()) throw InputError(file, 0, key, "expected a list of [host, slot]");
  Placement p;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const json& e = doc[i];
    if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_number_integer())
      throw InputError(file, 0, key + "." + std::to_string(i), "expected [host, slot]");
    p.gpu_of_rank.push_back(GpuSlot{e[0].get<int>(), e[1].get<int>()});
  }
  return p;
}

json traffic_to_json(const TrafficMatrix& t) {
  json pairs = json::array();
  for (int a = 0; a < t.hosts; ++a)
    for (int b = a; b < t.hosts; ++b) {
      bool any = false;
      json by = json::array(), bu = json::array();
      for (int k = 0; k < kCommKinds; ++k) {
        const double x = t.bytes_between(static_cast<CommKind>(k), a, b);
        const double y = t.busy_between(static_cast<CommKind>(k), a, b);
        any = any || x != 0 || y != 0;
        by.push_back(x);
        bu.push_back(y);
      }
      if (any) pairs.push_back(json{{"a", a}, {"b", b}, {"bytes", by}, {"busy_s", bu}});
    }
  return json{{"hosts", t.hosts}, {"pairs", pairs}};
}

TrafficMatrix traffic_from_json(const json& doc, const std::string& file, const std::string& key) {
  const int H = get<int>(doc, "hosts", file, key);
  if (H < 0) throw InputError(file, 0, key + ".hosts", "expected >= 0");
  TrafficMatrix t = TrafficMatrix::zeros(H);
  const json& pairs = sub(doc, "pairs", file, key, json::value_t::array);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::string path = key + ".pairs." + std::to_string(i);
    const int a = get<int>(pairs[i], "a", file, path), b = get<int>(pairs[i], "b", file, path);
    if (a < 0 || b < 0 || a >= H || b >= H) throw InputError(file, 0, path, "host index out of range");
    const auto by = get<std::vector<double>>(pairs[i], "bytes", file, path);
    const auto bu = get<std::vector<double>>(pairs[i], "busy_s", file, path);
    if (by.size() != kCommKinds || bu.size() != kCommKinds)
      throw InputError(file, 0, path, "expected 3 values (dp, tp, pp) in bytes and busy_s");
    for (int k = 0; k < kCommKinds; ++k) {
      t.bytes[k][static_cast<std::size_t>(a) * H + b] = t.bytes[k][static_cast<std::size_t>(b) * H + a] = by[k];
      t.busy_s[k][static_cast<std::size_t>(a) * H + b] = t.busy_s[k][static_cast<std::size_t>(b) * H + a] = bu[k];
    }
  }
  return t;
}

}  // namespace hulk
