#pragma once
/** @file scenario.hpp
 *  @brief Loads a scenario YAML file into a validated Scenario (schema: scenarios/README.md).
 *  Every problem throws InputError naming file, key path, line and what was expected. */
#include <string>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/core/xml_platform.hpp"

namespace hulk {

/** @brief A "key.path=value" override applied to the YAML tree before validation (used by `hulk sweep --set`).
 *  Key paths are relative to the document root, with the shortcut that "wan.*" and "regions.*" mean
 *  "platform.wan.*" / "platform.regions.*"; list elements are addressed by index ("platform.regions.0.hosts")
 *  or, for lists of named maps, by name ("platform.regions.tokyo.hosts", "jobs.bert.iterations"). */
struct Override {
  std::string key;
  std::string value;
};

/** @brief Parses and validates a scenario file. Relative paths inside resolve against the file's folder.
 *  Checks: schema (unknown keys with did-you-mean), units, ranges, references (regions, GPU names, presets),
 *  job feasibility (dp*tp*pp <= GPUs, batch divisibility, heads % tp, layers >= pp); with `jobs:`, each job's
 *  (key paths jobs[i].KEY), unique names, weights > 0, and the sum of all jobs' ranks <= GPUs.
 *  Memory fit depends on the placement and is checked by check_memory_fit().
 *  A `platform: simgrid:` source is described by describe_xml (sim/engine/simgrid_xml.hpp's describe_simgrid_xml;
 *  sim/methods/scenario_loading.hpp passes it); without one such a source is an InputError. */
Scenario load_scenario(const std::string& path, const std::vector<Override>& overrides = {},
                       const XmlPlatformDescriber& describe_xml = {});

/** @brief Validates the job (or every job of Scenario::jobs) against the platform (also for scenarios built in code).
 *  @throws InputError with the scenario's file name. */
void validate_job(const Scenario& scenario);

}  // namespace hulk
