#pragma once
/** @file dataset.hpp
 *  @brief The GNN training data set on disk. Torch-free (the data generator need not link torch's headers).
 *
 *  Format version kDatasetFormatVersion (gnn/format_version.hpp). A data set is a folder:
 *
 *      DIR/manifest.json        {"format_version": 1, "count": N, "seed": S, "generator": "hulk gnn gen-data ...",
 *                                "shard": "i/n" (optional, informational)}
 *      DIR/samples/000000.json  one sample per file, index = file name (6+ digits, zero padded)
 *      ...
 *
 *  A sample file:
 *
 *      {"format_version": 1,
 *       "index": i,
 *       "scenario": {...},            // sim/scenario/scenario_json.hpp: platform, network, job (SI units)
 *       "traffic": {...} | null,      // SimGrid-traced TrafficMatrix of the greedy placement (for analysis;
 *                                     // the model reads the analytic estimate, sim/evaluate/traffic_estimate.hpp)
 *       "label": [[host, slot], ...], // best placement the search found, index = rank (Megatron order)
 *       "times_s": {"round-robin": t, "greedy": t, "search": t, ...}}  // simulated iteration times
 *
 *  Samples are written to a temporary file and renamed, so a sample file either exists complete or not at all:
 *  generation resumes by skipping the indices whose file exists (sample_exists()). Shards write disjoint indices
 *  (i, i+n, i+2n, ...) into the same folder. */
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim/features/cluster_graph.hpp"
#include "sim/core/spec.hpp"

namespace hulk::gnn {

/** @brief manifest.json. */
struct Manifest {
  int format_version = 0;
  int count = 0;             ///< number of samples (indices 0..count-1)
  std::uint64_t seed = 0;    ///< data seed: sample i uses scenario seed derived from (seed, i)
  std::string generator;     ///< the command line that produced it
};

/** @brief One training example. */
struct Sample {
  int index = 0;
  Scenario scenario;
  std::optional<TrafficMatrix> traffic;   ///< reference traffic (absent if not simulated)
  Placement label;                        ///< best placement found by the search
  std::map<std::string, double> times_s;  ///< method -> simulated iteration time, seconds
  /** @brief True for a scenario sampled by `hulk gnn train --synthetic` (in memory, never written): its label is the
   *  greedy reference, not a search result, so it is used for self-imitation training only, never validation. */
  bool reference_label = false;
};

/** @brief Writes DIR/manifest.json atomically (creates DIR and DIR/samples). */
void write_manifest(const std::string& dir, const Manifest& manifest);
/** @brief Reads DIR/manifest.json. @throws InputError (missing, malformed, other format version). */
Manifest read_manifest(const std::string& dir);

/** @brief DIR/samples/NNNNNN.json. */
std::string sample_path(const std::string& dir, int index);
/** @brief True if the sample file of this index exists (complete: files are renamed into place). */
bool sample_exists(const std::string& dir, int index);
/** @brief The sample files of DIR's manifest to read, in index order: each index's file, leaving out the indices
 *  marked skipped and, with @p allow_missing, those not written yet. @p generator names the command that resumes
 *  the data set (its error message). @throws InputError when a sample is missing and @p allow_missing is false. */
std::vector<std::string> sample_paths_to_load(const std::string& dir, bool allow_missing, const std::string& generator);
/** @brief Marks index as skipped (its sampled job could not be placed); counts as done for resuming and is left
 *  out by load_dataset(). */
void write_skip_marker(const std::string& dir, int index, const std::string& reason);
/** @brief One sample as the JSON text write_sample writes (one line, no newline). */
std::string sample_text(const Sample& sample);
/** @brief A 64-bit digest of the samples' texts and kinds, in order: equal for the same training data. */
std::uint64_t samples_fingerprint(const std::vector<Sample>& data);
/** @brief Writes one sample atomically. @throws InputError if the file cannot be written. */
void write_sample(const std::string& dir, const Sample& sample);
/** @brief Reads one sample file. @throws InputError naming the file and key on any problem. */
Sample read_sample(const std::string& path);
/** @brief Reads the manifest and every sample 0..count-1. @throws InputError if one is missing or bad. */
std::vector<Sample> load_dataset(const std::string& dir, bool allow_missing = false);

/** @brief A JSON file's document. @throws InputError naming the file if it cannot be read or parsed. */
nlohmann::json read_json_file(const std::string& path);

/** @brief The scenario seed of sample `index` in a data set of seed `seed` (splitmix64 of both: independent,
 *  deterministic, and the same whatever the sharding). */
std::uint64_t sample_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace hulk::gnn
