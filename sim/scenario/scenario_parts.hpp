#pragma once
/** @file scenario_parts.hpp
 *  @brief Internal pieces of the scenario loader (scenario.cpp), split by concern: overrides on the YAML tree,
 *  the `platform:` section, job validation with line numbers, and the events, checkpoints and robust
 *  distribution. Not part of the public API. */
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/scenario/scenario.hpp"
#include "sim/core/spec.hpp"
#include "sim/core/xml_platform.hpp"
#include "sim/scenario/yaml_access.hpp"

namespace hulk::detail {

/** @brief Applies "a.b.c=value" overrides to the tree (scenario.hpp's Override). @return the key path each override
 *  set, in the loader's spelling ("platform.regions.1.hosts", "jobs[1].iterations"). @throws InputError naming the
 *  override key when the path cannot be followed, or leads into job: of a scenario with jobs: (or the reverse). */
std::vector<std::string> apply_overrides(YAML::Node& root, const std::vector<Override>& overrides,
                                         const std::string& file);

/** @brief Parses the `platform:` map (regions | hulk | simgrid) into a resolved PlatformSpec.
 *  @param base_dir folder relative paths resolve against.
 *  @param describe_xml describes a `simgrid:` source (may be empty when the caller has no engine: such a source
 *  is then an InputError). */
PlatformSpec parse_platform(const YamlReader& r, const YAML::Node& platform, const std::string& base_dir,
                            const XmlPlatformDescriber& describe_xml);

/** @brief A `gpu:` value: a catalog name or an inline {name, flops, memory[, fp32, capability]}. */
GpuSpec parse_gpu(const YamlReader& r, const YAML::Node& node, const std::string& key);

/** @brief A {bandwidth, latency} map; keys not given keep the defaults' values. */
LinkSpec parse_link(const YamlReader& r, const YAML::Node& node, const std::string& key, const LinkSpec& defaults);

/** @brief path if absolute, else base_dir/path; normalised. */
std::string resolve_path(const std::string& base_dir, const std::string& path);

/** @brief True if path names an existing regular file (or a directory when want_dir). */
bool path_exists(const std::string& path, bool want_dir);

/** @brief validate_job, with lines taken from r when given (r may be null for scenarios built in code). With jobs:,
 *  each job on its own against the platform (key paths jobs[i].KEY), then all jobs' ranks together (key `jobs`).
 *  @param check_bounds false when the caller already ran check_job_bounds (the loader runs it on its own, since
 *  the job's bounds do not depend on the platform). */
void validate_job_with(const Scenario& scenario, const YamlReader* r, bool check_bounds = true);

/** @brief The job's own bounds (scenarios/README.md "Bounds"): every count and the utilisation, each on its own;
 *  with jobs:, those of every job (key paths jobs[i].KEY), and each job's name (non-empty, unique) and weight
 *  (finite, > 0). With r, every problem is collected; without, the first throws. */
void check_job_bounds(const Scenario& scenario, const YamlReader* r);

/** @brief The job's `sync:` map (scenario_sync.cpp): values and shape; host names are checked by sync_problem. */
SyncSpec parse_sync(const YamlReader& r, const YAML::Node& node, const std::string& key);

/** @brief Why a job's sync settings do not fit the scenario ("" if they do): diloco without data parallelism, an
 *  island host that is not on the platform or in two islands. */
std::string sync_problem(const Scenario& scenario, const JobSpec& job);

/** @brief The `events:` list (scenario_events.cpp): each entry a link change or failure, a straggler, a host failure or
 *  a trace file (whose rows become link changes), checked key by key (key paths events[i].KEY, the entry's line;
 *  a trace row's errors name the CSV file and its line), then checked for contradictory overlaps (two events
 *  setting the same thing of the same target at the same time). Entries are read independently (every problem is
 *  collected).
 *  @param platform the platform the names refer to; null when it failed to load (the names are then not checked,
 *  nor the overlaps).
 *  @param base_dir folder trace paths resolve against.
 *  @return the events sorted by at_s, ties in the order written (a trace's rows in its place, in file order).
 *  @throws InputError on a SimGrid XML platform (events cannot be mapped to its links). */
std::vector<EventSpec> parse_events(const YamlReader& r, const YAML::Node& node, const PlatformSpec* platform,
                                    const std::string& base_dir);

/** @brief The events against the jobs (after both were read): not yet with `sync: {algorithm: diloco}`.
 *  @throws InputError at key `events`. */
void check_events_with_jobs(const Scenario& scenario, const YamlReader& r);

/** @brief Reports one input problem (key path, message); does not return. */
using FeatureFail = std::function<void(const std::string& key, const std::string& message)>;

/** @brief The job's workload-feature keys (scenario_features.cpp): virtual_stages, zero, sequence_parallel. Problems
 *  are collected as the other keys'. */
void parse_workload_features(const YamlReader& r, const YAML::Node& job, const std::string& key, JobSpec& j);

/** @brief The workload features against the job and the platform (key prefix k): interleaving's conditions
 *  (schedule 1f1b, pp >= 3, layers divisible by pp x v, micro-batches by pp, not blocking p2p), the ZeRO stage,
 *  sequence parallelism's tp > 1, and an fp8 peak on every GPU for precision fp8. auto_par: the degrees are left to
 *  `hulk plan` (their checks skipped). */
void check_workload_features(const Scenario& s, const JobSpec& j, const std::string& k, bool auto_par,
                             const FeatureFail& fail);

/** @brief A job's `checkpoint: {every: ITERATIONS, cost: TIME}`: every >= 1 required, cost >= 0 (default 0 s). */
CheckpointSpec parse_checkpoint(const YamlReader& r, const YAML::Node& node, const std::string& key);

/** @brief `robust: {pair_probability, bandwidth: N%, samples, seed}`: pair_probability in [0, 1] and bandwidth in
 *  (0%, 100%] required, samples >= 1 (default 16), seed >= 0 (default scenario_seed). */
RobustSpec parse_robust(const YamlReader& r, const YAML::Node& node, std::uint64_t scenario_seed);

/** @brief True if a job value is the word `auto` (scenario_plan.cpp). Then, with `plan` (a `job:`), sets the flag
 *  `what` of it; without (an entry of `jobs:`), fails: `hulk plan` chooses the layout of one job.
 *  @throws InputError at the node. */
bool auto_value(const YamlReader& r, const YAML::Node& node, const std::string& key, PlanSpec* plan,
                bool PlanSpec::*what);

/** @brief The `plan:` map {min_gpus, max_gpus, tp_max, pp_max, objective} into `plan` (its auto flags kept); each
 *  key checked on its own (every problem collected). */
void parse_plan(const YamlReader& r, const YAML::Node& node, PlanSpec& plan);

/** @brief The `plan:` constraints against the platform and the job, once both were read: max_gpus within the
 *  platform's GPUs, min_gpus <= max_gpus, `plan:` only for a one-job scenario. @throws InputError at the key. */
void check_plan(const Scenario& scenario, const YamlReader& r);

/** @brief `prices: {gpu_hour: {KIND: $}, egress_gb: $ | {default, pairs: [{regions: [a, b], per_gb}]}}` into
 *  `prices` (scenario_prices.cpp): prices >= 0, GPU kinds and regions of the platform. @throws InputError at the key. */
void parse_prices(const YamlReader& r, const YAML::Node& node, const PlatformSpec& platform, PriceSpec& prices);

/** @brief With `plan.objective: cost`, every GPU kind of the platform has a price per GPU-hour and every region pair
 *  an egress price. @throws InputError at the key of the first missing price. */
void check_prices_for_cost(const Scenario& scenario, const YamlReader& r);

}  // namespace hulk::detail
