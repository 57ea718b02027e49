#pragma once
/** @file collective_bench_file.hpp
 *  @brief Loads a collective benchmark file: a scenario whose `collective:` map replaces `job:` (name,
 *  description, platform as in any scenario; scenarios/README.md "Collective benchmarks"). Every problem throws
 *  InputError naming file, line and key. */
#include <map>
#include <string>

#include "sim/core/collective_bench.hpp"
#include "sim/core/xml_platform.hpp"

namespace hulk {

/** @brief True if the YAML file at `path` is a map with a top-level `collective:` key (a benchmark, not a
 *  training scenario). False for anything else, unreadable files included (the scenario loader then says why). */
bool is_collective_bench_file(const std::string& path);

/** @brief Parses and checks a benchmark file: keys name, description, platform, collective (op, bytes, nodes,
 *  gpus_per_node, algorithm); nodes at most the platform's hosts, gpus_per_node at most the GPUs of each of the
 *  first `nodes` hosts; tree for all_reduce only.
 *  @param achieved_of_transport the achieved fraction to use for each named transport instead of
 *  platforms/transports.yaml's, on every link that names it without an `achieved:` of its own (the calibration of
 *  `hulk fidelity`); fractions in (0, 1]. */
CollectiveBenchSpec load_collective_bench(const std::string& path,
                                          const std::map<std::string, double>& achieved_of_transport = {},
                                          const XmlPlatformDescriber& describe_xml = {});

}  // namespace hulk
