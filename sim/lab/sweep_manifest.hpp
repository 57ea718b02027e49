#pragma once
/** @file sweep_manifest.hpp
 *  @brief What a sweep CSV was computed from: the scenario file's content hash, the grid (keys and value lists), the
 *  methods, the budget, the GNN model (path and content hash, when a gnn method runs) and the hulk version. Stored
 *  beside each CSV, so that a resumed sweep never reuses rows computed from other inputs. */
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/lab/sweep_grid.hpp"

namespace hulk {

/** @brief The inputs of a sweep CSV. */
struct SweepManifest {
  std::string scenario_file;           ///< as given (informative; not compared)
  std::string scenario_hash;           ///< FNV-1a 64 of the scenario file's bytes, hex
  /** @brief FNV-1a 64 of the loaded scenario (scenario_inputs_hash): changes with the data files it reads too. */
  std::string loaded_hash;
  std::vector<SweepAxis> grid;         ///< keys and value lists, in order
  std::vector<std::string> methods;    ///< in order
  long budget = 0;                     ///< --budget (0 = each method's default)
  std::string model_path, model_hash;  ///< "" when no gnn method runs; hash "absent" if the file is missing
  std::string version;                 ///< hulk version
};

/** @brief FNV-1a 64 of a file's bytes as 16 hex digits, or "absent" if it cannot be read. */
std::string file_content_hash(const std::string& path);

/** @brief FNV-1a 64 (hex) of what a loaded scenario holds: its JSON form (scenario_json.hpp: platform with the
 *  measured data, network, jobs), the bytes of its SimGrid XML platform file and its events (trace rows included),
 *  so that a change to any file the scenario reads changes it. */
std::string scenario_inputs_hash(const Scenario& scenario);

/** @brief JSON form (the file's content). */
nlohmann::json sweep_manifest_to_json(const SweepManifest& m);

/** @brief Reads a manifest file. @throws InputError naming the file if it is malformed. */
SweepManifest read_sweep_manifest(const std::string& path);

/** @brief Writes a manifest file atomically. */
void write_sweep_manifest(const std::string& path, const SweepManifest& m);

/** @brief "" if both describe the same computation, else what changed, e.g. "the grid (wan.bandwidth: was
 *  100Mbps,10Gbps, now 100Mbps,1Gbps,10Gbps)" or "--methods (was greedy, now greedy,search)". */
std::string sweep_manifest_difference(const SweepManifest& old_manifest, const SweepManifest& new_manifest);

/** @brief The manifest file beside a sweep CSV: DIR/sweep.csv -> DIR/sweep.manifest.json. */
std::string sweep_manifest_path(const std::string& csv_path);

}  // namespace hulk
