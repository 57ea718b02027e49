// Scenario loader: YAML file -> overrides -> schema checks -> resolved Scenario -> job validation.
// The schema is documented key by key in scenarios/README.md.
#include "sim/scenario/scenario.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "sim/scenario/bounds.hpp"
#include "sim/scenario/catalog.hpp"
#include "sim/scenario/hf_config.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/method_names.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk {
namespace {

/** An int field whose bounds validate_job_with checks (scenarios/README.md "Bounds"). A value past the int type is
 *  refused here naming the key's own bound `max` (<= 1e9), not the type's; within the type the bounds check says
 *  why the bound is what it is. */
int bounded_int(const YamlReader& r, const YAML::Node& node, const std::string& key, long long max) {
  try {
    return static_cast<int>(r.integer(node, key, -1000000000, 1000000000));
  } catch (const InputError&) {
    r.integer(node, key, 1, max);  // fails too, with the key's range where the value was only too large
    throw;
  }
}

/** `hf_config: PATH` (relative to the scenario's folder): the shape from a Hugging Face config.json; its
 *  max_position_embeddings is the sequence length unless the model map gives seq_len. */
ModelSpec model_from_hf_config(const YamlReader& r, const YAML::Node& node, const std::string& key,
                               const std::string& base_dir) {
  const std::string path_key = key + ".hf_config";
  const std::string abs = detail::resolve_path(base_dir, r.str(node["hf_config"], path_key));
  if (!detail::path_exists(abs, false))
    r.fail(node["hf_config"], path_key,
           "model config '" + abs + "' " + input_file_problem(abs) + " (expected a Hugging Face config.json)");
  const std::string label = r.override_of(path_key);
  const std::string origin = path_key + (label.empty() ? " of " + r.file() + ":" +
                                                             std::to_string(YamlReader::line_of(node["hf_config"]))
                                                       : ", value from " + label);
  HfModel hf = read_hf_config(abs, origin);
  if (!node["seq_len"] && hf.max_positions == 0)
    r.fail(node, key + ".seq_len",
           "missing key 'seq_len' (expected it here, or max_position_embeddings in " + abs + ")");
  hf.model.seq_len = hf.max_positions;
  return hf.model;
}

ModelSpec parse_model(const YamlReader& r, const YAML::Node& node, const std::string& key,
                      const std::string& base_dir) {
  r.check_keys(node, key, {"preset", "hf_config", "name", "layers", "hidden", "heads", "seq_len", "vocab"});
  ModelSpec m;
  bool preset = false;
  bool use_preset = static_cast<bool>(node["preset"]), use_hf = static_cast<bool>(node["hf_config"]);
  if (use_preset && use_hf) {
    // A --set of one source replaces the file's other one; both in the file (or both set) is a contradiction.
    const bool hf_set = !r.override_of(key + ".hf_config").empty();
    if (hf_set != !r.override_of(key + ".preset").empty())
      (hf_set ? use_preset : use_hf) = false;
    else
      r.fail(node["hf_config"], key + ".hf_config",
             "both preset and hf_config are given (expected one source of the model's shape)");
  }
  if (use_preset) {
    const std::string name = r.str(node["preset"], key + ".preset");
    const ModelCatalog& cat = ModelCatalog::builtin();
    const ModelSpec* found = cat.find(name);
    if (found == nullptr)
      r.fail(node["preset"], key + ".preset",
             "unknown model preset '" + name + "'" + suggestion_suffix(name, cat.names()) +
                 "; presets are in platforms/models.yaml");
    m = *found;
    preset = true;
  } else if (use_hf) {
    m = model_from_hf_config(r, node, key, base_dir);
    preset = true;
  } else {
    m.name = "custom";
  }
  // Explicit keys override the preset or config; without either all five are required.
  // Each field is independent of the others: a problem in one is collected and the next is still read.
  auto field = [&](const char* k, int& out, long long max) {
    const std::string path = key + "." + k;
    r.collect([&] {
      if (node[k])
        out = bounded_int(r, node[k], path, max);
      else if (!preset)
        r.fail(node, path,
               std::string("missing key '") + k + "' (expected {preset: NAME}, {hf_config: PATH} or all of " +
                   "layers, hidden, heads, seq_len, vocab)");
    });
  };
  field("layers", m.layers, bounds::kMaxLayers);
  field("hidden", m.hidden, bounds::kMaxHidden);
  field("heads", m.heads, bounds::kMaxHeads);
  field("seq_len", m.seq_len, bounds::kMaxSeqLen);
  field("vocab", m.vocab, bounds::kMaxVocab);
  if (node["name"]) r.collect([&] { m.name = r.name(node["name"], key + ".name"); });
  return m;
}

// job.framework_overhead: 0 to an hour per iteration (more is no training run).
const Bound kOverheadBound{0, 3600, "a framework overhead", "0s .. 3600s",
                           "an hour per iteration is no training run"};

// The name and weight of an entry of `jobs:`. The name addresses the job in --set (jobs.NAME.KEY), results and
// messages; its uniqueness and the weight's range are checked with the bounds (check_job_bounds), for scenarios built
// in code too.
void parse_job_name_and_weight(const YamlReader& r, const YAML::Node& job, const std::string& key, JobSpec& j) {
  r.collect([&] {
    if (!job["name"]) r.fail(job, key + ".name", "missing key 'name' (expected a unique name for each job of jobs:)");
    j.name = r.name(job["name"], key + ".name");
  });
  if (job["weight"]) r.collect([&] { j.weight = r.number(job["weight"], key + ".weight"); });
}

// One job's map: `job:` (key = "job") or an entry of `jobs:` (key = "jobs[i]", which also takes name and weight).
// `plan` receives the values written `auto` (null for an entry of jobs:, where auto is an error).
JobSpec parse_job(const YamlReader& r, const YAML::Node& job, const std::string& base_dir, const std::string& key,
                  PlanSpec* plan) {
  const bool entry = key != "job";
  std::vector<std::string> allowed = {"model",     "precision",  "global_batch", "micro_batch", "parallelism",
                                      "schedule",  "collective", "iterations",   "utilisation", "check_memory",
                                      "recompute", "optimizer",  "pipeline_p2p", "sync",        "checkpoint",
                                      "virtual_stages", "zero", "sequence_parallel", "compute_model",
                                      "grad_reduce_precision", "framework_overhead", "step_costs"};
  if (entry) allowed.insert(allowed.begin(), {"name", "weight"});
  r.check_keys(job, key, allowed);
  JobSpec j;
  if (entry) parse_job_name_and_weight(r, job, key, j);
  // Fields are read independently: each problem is collected and the next field is still checked. Ranges beyond
  // the int type are checked here; the bounds of scenarios/README.md in validate_job_with (also for scenarios built
  // in code).
  r.collect([&] { j.model = parse_model(r, r.require(job, key, "model"), key + ".model", base_dir); });
  const auto int_of = [&](const YAML::Node& n, const std::string& k, int& out, long long max) {
    r.collect([&] { out = bounded_int(r, n, k, max); });
  };
  if (job["precision"])
    r.collect([&] { j.precision = r.one_of(job["precision"], key + ".precision", {"fp16", "bf16", "fp32", "fp8"}); });
  r.collect([&] { int_of(r.require(job, key, "global_batch"), key + ".global_batch", j.global_batch, bounds::kMaxGlobalBatch); });
  // `auto` leaves the value to `hulk plan` (scenario_plan.cpp); the job keeps its defaults meanwhile.
  const auto is_auto = [&](const char* k, bool PlanSpec::*what) {
    bool yes = false;
    const bool read = r.collect([&] { yes = detail::auto_value(r, job[k], key + "." + k, plan, what); });
    return yes || !read;  // an `auto` refused in jobs: is one error, not a second one for "not an integer"
  };
  if (job["micro_batch"] && !is_auto("micro_batch", &PlanSpec::micro_batch))
    int_of(job["micro_batch"], key + ".micro_batch", j.micro_batch, bounds::kMaxMicroBatch);
  if (job["parallelism"] && !is_auto("parallelism", &PlanSpec::parallelism)) {
    r.collect([&] {
      const YAML::Node par = job["parallelism"];
      r.check_keys(par, key + ".parallelism", {"dp", "tp", "pp"});
      if (par["dp"]) int_of(par["dp"], key + ".parallelism.dp", j.par.dp, bounds::kMaxDegree);
      if (par["tp"]) int_of(par["tp"], key + ".parallelism.tp", j.par.tp, bounds::kMaxDegree);
      if (par["pp"]) int_of(par["pp"], key + ".parallelism.pp", j.par.pp, bounds::kMaxDegree);
    });
  }
  if (job["schedule"] && !is_auto("schedule", &PlanSpec::schedule)) r.collect([&] { j.schedule = r.one_of(job["schedule"], key + ".schedule", {"1f1b", "gpipe"}); });
  if (job["collective"])
    r.collect([&] {
      j.collective = r.one_of(job["collective"], key + ".collective", {"ring", "hierarchical", "tree"});
    });
  if (job["iterations"]) int_of(job["iterations"], key + ".iterations", j.iterations, bounds::kMaxIterations);
  if (job["utilisation"]) r.collect([&] { j.utilisation = r.number(job["utilisation"], key + ".utilisation"); });
  if (job["check_memory"]) r.collect([&] { j.check_memory = r.boolean(job["check_memory"], key + ".check_memory"); });
  // Megatron-LM knobs; their effects on time and memory are in scenarios/README.md and cost_model.cpp.
  if (job["recompute"] && !is_auto("recompute", &PlanSpec::recompute))
    r.collect([&] { j.recompute = r.one_of(job["recompute"], key + ".recompute", {"none", "selective", "full"}); });
  if (job["optimizer"])
    r.collect([&] { j.optimizer = r.one_of(job["optimizer"], key + ".optimizer", {"adam", "sgd"}); });
  // Time by shape or flat, the gradient all-reduce's precision, a fixed cost per iteration (compute_efficiency.hpp).
  if (job["compute_model"])
    r.collect([&] { j.compute_model = r.one_of(job["compute_model"], key + ".compute_model", {"shape", "flat"}); });
  if (job["grad_reduce_precision"])
    r.collect([&] {
      j.grad_reduce_precision =
          r.one_of(job["grad_reduce_precision"], key + ".grad_reduce_precision", {"fp32", "fp16", "bf16"});
    });
  if (job["step_costs"]) r.collect([&] { j.step_costs = r.boolean(job["step_costs"], key + ".step_costs"); });
  if (job["framework_overhead"])
    r.collect([&] {
      j.framework_overhead_s = r.latency_s(job["framework_overhead"], key + ".framework_overhead", kOverheadBound);
    });
  // Absent = the schedule's default (JobSpec::pipeline_p2p_blocking); an explicit value is one of the two modes.
  if (job["sync"]) r.collect([&] { j.sync = detail::parse_sync(r, job["sync"], key + ".sync"); });
  if (job["checkpoint"])
    r.collect([&] { j.checkpoint = detail::parse_checkpoint(r, job["checkpoint"], key + ".checkpoint"); });
  if (job["pipeline_p2p"])
    r.collect([&] {
      j.pipeline_p2p = r.one_of(job["pipeline_p2p"], key + ".pipeline_p2p", {"blocking", "overlapped"});
    });
  detail::parse_workload_features(r, job, key, j, plan);
  return j;
}

NetworkSpec parse_network(const YamlReader& r, const YAML::Node& node) {
  r.check_keys(node, "network", {"model", "tcp_window", "crosstraffic", "channels_per_peer"});
  NetworkSpec n;
  // SimGrid's Constant model has no links at all (every transfer a fixed time): SimGrid stops on a platform of links.
  if (node["model"] && node["model"].IsScalar() && node["model"].Scalar() == "Constant")
    r.fail(node["model"], "network.model",
           "'Constant' (SimGrid's model without links) cannot run a platform of links (expected CM02, LV08, SMPI or IB)");
  if (node["model"]) n.model = r.one_of(node["model"], "network.model", {"CM02", "LV08", "SMPI", "IB"});
  if (node["tcp_window"]) {
    const YAML::Node w = node["tcp_window"];
    // 0 means "no window cap" (SimGrid's TCP-gamma 0), which parse_bytes would reject as a size.
    n.tcp_window_bytes =
        (w.IsScalar() && (w.Scalar() == "0" || w.Scalar() == "0B"))
            ? 0.0
            : r.bytes(w, "network.tcp_window", bounds::kTcpWindow);
  }
  if (node["crosstraffic"])
    r.collect([&] { n.crosstraffic = r.boolean(node["crosstraffic"], "network.crosstraffic"); });
  if (node["channels_per_peer"])
    r.collect([&] {
      n.channels_per_peer = static_cast<int>(
          r.integer(node["channels_per_peer"], "network.channels_per_peer", 1, bounds::kMaxChannelsPerPeer));
    });
  return n;
}

std::string parse_placement(const YamlReader& r, const YAML::Node& node, const std::string& base_dir) {
  const std::string text = r.str(node, "placement");
  if (text.rfind("file:", 0) == 0) {
    const std::string rel = text.substr(5);
    if (rel.empty()) r.fail(node, "placement", "expected file:PATH.json, got an empty path");
    const std::string abs = detail::resolve_path(base_dir, rel);
    if (!detail::path_exists(abs, false))
      r.fail(node, "placement", "placement file '" + abs + "' " + input_file_problem(abs) +
                                    " (expected an existing JSON file)");
    return "file:" + abs;
  }
  // The names the command line accepts (sim/core/method_names.hpp): a scenario and --methods never disagree.
  if (is_method_name(text)) return text;
  r.fail(node, "placement", unknown_method_message(text));
}

// `jobs:` (several jobs sharing the cluster): a non-empty list of job maps, each also with a name and an optional
// weight. Every entry is read even when an earlier one failed (its problems are collected).
std::vector<JobSpec> parse_jobs(const YamlReader& r, const YAML::Node& list, const std::string& base_dir) {
  r.record("jobs", list);
  if (list.IsMap())  // most likely one job written as for job:
    r.fail(list, "jobs", "expected a list of jobs, got a map (for a single job use job:, else write each job as a "
                         "list entry '- name: ...')");
  r.expect_list(list, "jobs");
  if (list.size() == 0)
    r.fail(list, "jobs", "expected a list of at least one job, got an empty list (or use job: for a single job)");
  std::vector<JobSpec> jobs(list.size());
  for (std::size_t i = 0; i < list.size(); ++i)
    r.collect([&] { jobs[i] = parse_job(r, list[i], base_dir, "jobs[" + std::to_string(i) + "]", nullptr); });
  return jobs;
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<Override>& overrides,
                       const XmlPlatformDescriber& describe_xml) {
  if (const std::string problem = input_file_problem(path); !problem.empty())
    throw InputError(path, 0, "", (problem == "not found" ? "scenario file " : "") + problem +
                                      " (expected a readable YAML file)");
  YAML::Node root = YamlReader::load_file(path);
  YamlReader r(path);
  if (!root.IsMap()) r.fail(root, "", "expected a scenario map (name, platform, job, ...), got " + describe_node(root));
  const std::vector<std::string> set_paths = detail::apply_overrides(root, overrides, path);
  for (std::size_t i = 0; i < set_paths.size(); ++i)
    r.add_override(set_paths[i], "--set " + overrides[i].key + "=" + overrides[i].value);
  const std::string base_dir = std::filesystem::absolute(std::filesystem::path(path)).parent_path().string();

  // Independent sections are each checked even when another one failed; all their problems are thrown together
  // at the end (one line each, the first one first). The job is checked against the platform only when both
  // were read without a problem: otherwise its errors would be consequences of the first ones.
  r.collect_errors(true);
  r.check_keys(root, "",
               {"name", "description", "seed", "platform", "network", "job", "jobs", "placement", "events", "robust",
                "plan", "prices"});
  Scenario s;
  s.file = path;
  s.name = std::filesystem::path(path).stem().string();
  if (root["name"]) r.collect([&] { s.name = r.name(root["name"], "name"); });
  if (root["description"]) r.collect([&] { r.str(root["description"], "description"); });
  if (root["seed"]) r.collect([&] { s.seed = static_cast<std::uint64_t>(r.integer(root["seed"], "seed", 0)); });
  const std::size_t before_platform = r.error_count();
  const bool platform_read = r.collect([&] {
    s.platform = detail::parse_platform(r, r.require(root, "", "platform"), base_dir, describe_xml);
  }) && r.error_count() == before_platform;
  if (root["network"]) r.collect([&] { s.network = parse_network(r, root["network"]); });
  const std::size_t before_job = r.error_count();
  // Exactly one of job: (one job) and jobs: (several, named).
  const bool job_read = r.collect([&] {
    if (root["job"] && root["jobs"])
      r.fail(root["jobs"], "jobs",
             "both job: and jobs: are given (expected job: for one job or jobs: for several, not both)");
    if (root["jobs"]) {
      s.jobs = parse_jobs(r, root["jobs"], base_dir);
      s.jobs_listed = true;
    } else {
      if (!root["job"])
        r.fail(root, "job", "missing key 'job' (expected job: for one job, or jobs: a list of named jobs)");
      s.only_job() = parse_job(r, root["job"], base_dir, "job", &s.plan);
    }
  }) && r.error_count() == before_job;
  if (root["placement"]) r.collect([&] { s.placement = parse_placement(r, root["placement"], base_dir); });
  // The job's own bounds do not depend on the platform: checked whenever the job was read (after the placement,
  // the order in which a single problem was always reported).
  if (job_read) detail::check_job_bounds(s, &r);
  // Events name the platform's regions and hosts (not checked when it failed); robust's seed defaults to
  // the scenario's.
  if (root["events"])
    r.collect(
        [&] { s.events = detail::parse_events(r, root["events"], platform_read ? &s.platform : nullptr, base_dir); });
  if (root["robust"]) r.collect([&] {
    // The robust states scale the route model's links, which an XML platform's SimGrid routes do not follow.
    if (platform_read && !s.platform.simgrid_xml.empty())
      r.fail(root["robust"], "robust",
             "robust is not supported on SimGrid XML platforms (its link states apply to regions and hosts)");
    s.robust = detail::parse_robust(r, root["robust"], s.seed);
  });
  if (job_read) r.collect([&] { detail::check_events_with_jobs(s, r); });
  if (root["plan"]) r.collect([&] { detail::parse_plan(r, root["plan"], s.plan); });
  if (root["prices"] && platform_read)
    r.collect([&] { detail::parse_prices(r, root["prices"], s.platform, s.prices); });
  if (job_read && platform_read && r.error_count() == 0) r.collect([&] { detail::check_plan(s, r); });
  if (job_read && platform_read && r.error_count() == 0) r.collect([&] { detail::check_prices_for_cost(s, r); });
  if (r.error_count() == 0) detail::validate_job_with(s, &r, false);
  r.throw_collected();
  return s;
}

void validate_job(const Scenario& scenario) { detail::validate_job_with(scenario, nullptr); }

namespace detail {

namespace {
// The shortest text that reads back as v: a value just out of range never prints as the bound (1.0000001 as "1").
std::string number_text(double v) {
  char text[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  return text;
}

// The key path of job i in messages: "job" for a one-job scenario, "jobs[i]" for an entry of jobs:.
std::string job_key(const Scenario& s, std::size_t i) {
  return names_jobs(s) ? "jobs[" + std::to_string(i) + "]" : std::string("job");
}
}  // namespace

void check_job_bounds(const Scenario& s, const YamlReader* r) {
  // With a reader (a file) every independent problem is collected; for a scenario built in code the first throws.
  const auto fail = [&](const std::string& key, const std::string& message) {
    if (r != nullptr) {
      r->collect([&] { r->fail_key(key, message); });
      return;
    }
    throw InputError(s.file, 0, key, message);
  };
  // Bounds of scenarios/README.md ("Bounds"): each value on its own, so all of them are reported at once.
  const auto in_range = [&](int v, long long max, const std::string& key, const char* why) {
    if (v < 1)
      fail(key, "expected an integer >= 1, got " + std::to_string(v));
    else if (v > max)
      fail(key, std::to_string(v) + " is too large (expected an integer in [1, " + std::to_string(max) + "]: " +
                    why + ")");
  };
  for (int i = 0; i < job_count(s); ++i) {
    const JobSpec& j = job_at(s, i);
    const ModelSpec& m = j.model;
    const std::string k = job_key(s, static_cast<std::size_t>(i));
    if (names_jobs(s)) {
      // Read from the file these are a non-empty string and a finite number; built in code, anything.
      if (j.name.empty()) fail(k + ".name", "expected a non-empty job name");
      for (int e = 0; e < i && !j.name.empty(); ++e)
        if (s.jobs[e].name == j.name) {
          // The later entry is blamed, unless only the earlier name came from a --set: that override made the
          // duplicate, and the error names it (fail_key adds "value from --set ...") rather than a line of the file.
          std::string at = k + ".name", also = "jobs[" + std::to_string(e) + "].name";
          if (r != nullptr && r->override_of(at).empty() && !r->override_of(also).empty()) std::swap(at, also);
          fail(at, "duplicate job name '" + j.name + "' (also " + also + "; expected a unique name for each job)");
          break;
        }
      if (!(j.weight >= bounds::kMinJobWeight && j.weight <= bounds::kMaxJobWeight))  // NaN fails too
        fail(k + ".weight", "weight " + number_text(j.weight) +
                                " is out of range (expected 1e-06 .. 1e+06: a job's share of the objective; beyond, "
                                "the weighted mean overflows or drowns the other jobs in rounding)");
    }
    in_range(m.layers, bounds::kMaxLayers, k + ".model.layers", "10x the deepest published transformer");
    in_range(m.hidden, bounds::kMaxHidden, k + ".model.hidden", "5x the widest published transformer");
    in_range(m.heads, bounds::kMaxHeads, k + ".model.heads", "8x the most heads of a published transformer");
    in_range(m.seq_len, bounds::kMaxSeqLen, k + ".model.seq_len", "a million tokens of context");
    in_range(m.vocab, bounds::kMaxVocab, k + ".model.vocab", "40x the largest published vocabulary");
    in_range(j.global_batch, bounds::kMaxGlobalBatch, k + ".global_batch",
             "sequences per iteration; 1000x the largest published batches");
    in_range(j.micro_batch, bounds::kMaxMicroBatch, k + ".micro_batch", "sequences per micro-batch");
    in_range(j.par.dp, bounds::kMaxDegree, k + ".parallelism.dp", "the platform's GPU bound");
    in_range(j.par.tp, bounds::kMaxDegree, k + ".parallelism.tp", "the platform's GPU bound");
    in_range(j.par.pp, bounds::kMaxDegree, k + ".parallelism.pp", "the platform's GPU bound");
    in_range(j.iterations, bounds::kMaxIterations, k + ".iterations",
             "iterations of a deterministic simulation repeat each other");
    if (!(j.utilisation >= bounds::kMinUtilisation && j.utilisation <= 1))
      fail(k + ".utilisation", "utilisation " + number_text(j.utilisation) +
                                   " is out of range (expected a fraction of peak flop/s in [0.001, 1])");
  }
  // Read from the network section, but a scenario built in code (or read from JSON) meets the same bound.
  in_range(s.network.channels_per_peer, bounds::kMaxChannelsPerPeer, "network.channels_per_peer",
           "parallel channels from one rank to one peer");
}

namespace {

/** The checks of one job against the platform (key prefix k: "job" or "jobs[i]"); fail_now throws. */
template <typename Fail>
void validate_one_job(const Scenario& s, const JobSpec& j, const std::string& k, Fail&& fail_now) {
  const ModelSpec& m = j.model;
  const int gpus = s.platform.total_gpus();
  if (j.precision != "fp16" && j.precision != "bf16" && j.precision != "fp32" && j.precision != "fp8")
    fail_now(k + ".precision", "'" + j.precision + "' is not allowed: expected one of fp16 | bf16 | fp32 | fp8");
  if (j.schedule != "1f1b" && j.schedule != "gpipe")
    fail_now(k + ".schedule", "'" + j.schedule + "' is not allowed: expected one of 1f1b | gpipe");
  if (j.collective != "ring" && j.collective != "hierarchical" && j.collective != "tree")
    fail_now(k + ".collective",
             "'" + j.collective + "' is not allowed: expected one of ring | hierarchical | tree");
  if (j.recompute != "none" && j.recompute != "selective" && j.recompute != "full")
    fail_now(k + ".recompute", "'" + j.recompute + "' is not allowed: expected one of none | selective | full");
  if (j.optimizer != "adam" && j.optimizer != "sgd")
    fail_now(k + ".optimizer", "'" + j.optimizer + "' is not allowed: expected one of adam | sgd");
  if (!j.pipeline_p2p.empty() && j.pipeline_p2p != "blocking" && j.pipeline_p2p != "overlapped")
    fail_now(k + ".pipeline_p2p",
             "'" + j.pipeline_p2p + "' is not allowed: expected one of blocking | overlapped (or absent)");
  const std::string sync = sync_problem(s, j);
  // With the degrees left to `hulk plan`, the layouts it considers are checked one by one instead.
  const bool auto_par = s.plan.parallelism, auto_batch = auto_par || s.plan.micro_batch;
  if (!sync.empty() && !auto_par) fail_now(k + ".sync", sync);
  if (j.sync.diloco() && names_jobs(s))
    fail_now(k + ".sync.algorithm", "diloco is supported for a one-job scenario (job:) only, not yet with jobs:");
  if (m.hidden % m.heads != 0)
    fail_now(k + ".model.heads", "hidden " + std::to_string(m.hidden) + " is not divisible by heads " +
                                     std::to_string(m.heads) + " (expected hidden = heads x head size)");
  const int kv = m.kv_heads_or_heads();
  if (m.kv_heads < 0 || kv > m.heads || m.heads % kv != 0)
    fail_now(k + ".model.kv_heads", "kv_heads " + std::to_string(m.kv_heads) + " does not divide heads " +
                                        std::to_string(m.heads) +
                                        " (expected each key/value head shared by a whole group of heads)");
  if (m.ffn_hidden < 0)
    fail_now(k + ".model.ffn_hidden", "expected an MLP width >= 1 (or 0 for 4 x hidden), got " +
                                          std::to_string(m.ffn_hidden));
  if (m.position_rows > 0 && m.seq_len > m.position_rows)
    fail_now(k + ".model.seq_len", "seq_len " + std::to_string(m.seq_len) + " is longer than the model's " +
                                       std::to_string(m.position_rows) +
                                       " learned positions (expected at most that many tokens)");
  if (!auto_par && m.heads % j.par.tp != 0)
    fail_now(k + ".parallelism.tp", "heads " + std::to_string(m.heads) + " are not divisible by tp " +
                                        std::to_string(j.par.tp) + " (expected tp to divide the attention heads)");
  // Megatron splits the key/value heads over TP like the heads (num_query_groups % tensor_model_parallel_size).
  if (!auto_par && kv != m.heads && kv % j.par.tp != 0)
    fail_now(k + ".parallelism.tp", "kv_heads " + std::to_string(kv) + " are not divisible by tp " +
                                        std::to_string(j.par.tp) + " (expected tp to divide the key/value heads)");
  if (!auto_par && m.layers < j.par.pp)
    fail_now(k + ".parallelism.pp", "pp " + std::to_string(j.par.pp) + " is larger than the model's " +
                                        std::to_string(m.layers) +
                                        " layers (expected at least one layer per stage)");
  const long long per_step = static_cast<long long>(j.par.dp) * j.micro_batch;
  if (auto_batch) {
  } else if (j.global_batch % per_step != 0)
    fail_now(k + ".global_batch", "global_batch " + std::to_string(j.global_batch) +
                                      " is not divisible by dp x micro_batch = " + std::to_string(j.par.dp) +
                                      " x " + std::to_string(j.micro_batch) + " = " + std::to_string(per_step) +
                                      " (expected a multiple of it)");
  else if (j.global_batch / per_step > bounds::kMaxMicroBatchesPerPipeline)
    // Simulated work grows with the micro-batches of one pipeline (messages and compute steps per iteration).
    fail_now(k + ".global_batch",
             "global_batch / (dp x micro_batch) = " + std::to_string(j.global_batch) + " / " +
                 std::to_string(per_step) + " = " + std::to_string(j.global_batch / per_step) +
                 " micro-batches per pipeline is too many (expected at most " +
                 std::to_string(bounds::kMaxMicroBatchesPerPipeline) +
                 ": the bubble is below 1% long before, and each one is simulated)");
  const long long ranks = static_cast<long long>(j.par.dp) * j.par.tp * j.par.pp;
  if (!auto_par && ranks > gpus)
    fail_now(k + ".parallelism", "dp x tp x pp = " + std::to_string(j.par.dp) + " x " + std::to_string(j.par.tp) +
                                     " x " + std::to_string(j.par.pp) + " = " + std::to_string(ranks) +
                                     " ranks, but the platform has " + std::to_string(gpus) +
                                     " GPUs (expected at most one rank per GPU)");
  check_workload_features(s, j, k, auto_par, [&](const std::string& key, const std::string& message) {
    fail_now(key, message);
  });
}

/** Across jobs: each job runs on GPUs of its own, so all their ranks together must fit. */
template <typename Fail>
void check_ranks_fit_together(const Scenario& s, Fail&& fail_now) {
  const int gpus = s.platform.total_gpus();
  long long sum = 0;
  std::string terms, counts;
  for (const JobSpec& j : s.jobs) {
    const long long ranks = static_cast<long long>(j.par.dp) * j.par.tp * j.par.pp;
    sum += ranks;
    terms += (terms.empty() ? "" : " + ") + std::to_string(ranks);
    counts += (counts.empty() ? "" : ", ") + j.name + " " + std::to_string(ranks);
  }
  if (sum > gpus)
    fail_now("jobs", "the jobs' dp x tp x pp add up to " + terms + " = " + std::to_string(sum) + " ranks (" +
                         counts + "), but the platform has " + std::to_string(gpus) +
                         " GPUs (expected at most one rank per GPU: each job runs on GPUs of its own)");
}

}  // namespace

void validate_job_with(const Scenario& s, const YamlReader* r, bool check_bounds) {
  const std::size_t before = r != nullptr ? r->error_count() : 0;
  if (check_bounds) check_job_bounds(s, r);
  // The checks below combine values: they are meaningful only when every value above is in range, and one
  // failing often implies the next (tp 3 breaks both heads % tp and dp x tp x pp), so the first one is thrown alone.
  if (r != nullptr && r->error_count() > before) return;
  const auto fail_now = [&](const std::string& key, const std::string& message) {
    if (r != nullptr) r->fail_key(key, message);
    throw InputError(s.file, 0, key, message);
  };
  // Each job on its own against the platform (with jobs:, key paths jobs[i].KEY and the lines of that entry).
  for (int i = 0; i < job_count(s); ++i)
    validate_one_job(s, job_at(s, i), job_key(s, static_cast<std::size_t>(i)), fail_now);
  if (names_jobs(s)) check_ranks_fit_together(s, fail_now);
  if (!is_method_name(s.placement)) fail_now("placement", unknown_method_message(s.placement));
}

}  // namespace detail
}  // namespace hulk
