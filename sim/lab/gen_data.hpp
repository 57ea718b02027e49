#pragma once
/** @file gen_data.hpp
 *  @brief `hulk gnn gen-data`: labelled samples (labelling.hpp) written one by one into a data set folder, resumable
 *  (samples present are skipped) and sharded (a shard i/n makes the indices k with k % n == i). The folder's format
 *  is the GNN's (gnn/dataset.hpp), which sim/ may not include: the program hands it in as a GenDataStore. */
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/lab/labelling.hpp"

namespace hulk {

/** @brief What a data set's manifest says about how it was made. */
struct DataSetIdentity {
  int count = 0;           ///< samples (indices 0..count-1)
  std::uint64_t seed = 0;  ///< the data seed
  std::string generator;  ///< the command line that made it
};

/** @brief The data set folder, in the GNN's format (the program's adapter over gnn/dataset.hpp). */
struct GenDataStore {
  std::function<std::optional<DataSetIdentity>()> existing;  ///< the manifest present, if any
  std::function<void(const DataSetIdentity&)> create;        ///< writes the manifest (and the folder)
  std::function<bool(int)> has;                              ///< a sample or skip marker of this index exists
  std::function<std::uint64_t(std::uint64_t, int)> scenario_seed;  ///< (data seed, index) -> the sample's seed
  std::function<void(int, LabelledSample&&)> write;          ///< writes one sample atomically
  std::function<void(int, const std::string&)> skip;        ///< marks an index whose job cannot be placed
  /** @brief times_s of every sample present (the gap distribution printed at the end). */
  std::function<std::vector<std::map<std::string, double>>()> times;
};

/** @brief gen-data's options (its flags). */
struct GenDataOptions {
  int count = 100;                       ///< samples of the whole data set
  std::uint64_t seed = 1;                ///< data seed
  std::string out;                       ///< the data set folder
  int shard_index = 0, shard_count = 1;  ///< this run makes the indices k with k % shard_count == shard_index
  long budget = 5000;                    ///< search evaluations per label
  int max_gpus = 128;                    ///< largest sampled platform (GPUs)
  std::string jobs;               ///< --jobs as given ("" = one job per cluster)
  int min_jobs = 0, max_jobs = 0; ///< --jobs read (0 = one job per cluster)
  std::string label = "simgrid";  ///< simgrid | evaluator
  std::string wan = "pair";       ///< pair | host | mixed
};

/** @brief What a run did. */
struct GenDataReport {
  int mine = 0;     ///< samples of this shard
  int present = 0;  ///< of those, already in the folder before the run
  int made = 0, skipped = 0;
};

/** @brief The generator line of a data set made with these options (into its manifest). */
std::string gen_data_generator(const GenDataOptions& options);

/** @brief "" if a data set made as `old` may be extended by a run making `now`, else the option that changed with
 *  both values: samples of another budget or platform size must not be mixed with new ones. */
std::string changed_generation_option(const DataSetIdentity& old, const DataSetIdentity& now);

/** @brief Makes the shard's missing samples; progress gets one line per sample and the summaries (may be empty).
 *  @throws InputError for bad options or a folder of other options; Interrupted (the finished samples kept) on
 *  SIGINT/SIGTERM. */
GenDataReport run_gen_data(const GenDataOptions& options, const GenDataStore& store,
                           const std::function<void(const std::string&)>& progress);

}  // namespace hulk
