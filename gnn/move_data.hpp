#pragma once
/** @file move_data.hpp
 *  @brief The move data set of the learned improvement policy (`hulk gnn gen-moves`): states (a sampled cluster and a
 *  placement of its job) and candidate host exchanges from them, each labelled by the analytic evaluator with the
 *  move's relative time change (gnn/moves.hpp, move_label). Torch-free.
 *
 *  The folder is a data set as gnn/dataset.hpp's (manifest.json, samples/NNNNNN.json written atomically, skip
 *  markers, shards writing disjoint indices, resumed by skipping the indices present), with another sample file:
 *
 *      {"format_version": 1, "kind": "moves", "index": i,
 *       "scenario": {...},                                   // sim/scenario/scenario_json.hpp
 *       "states": [{"placement": [[host, slot], ...],        // index = rank
 *                   "moves": [[a, b, label], ...]}, ...]}    // host exchanges and their labels
 *
 *  The states of a sample are a trajectory: greedy's placement first, then each state one move from the previous
 *  one, the best labelled move and a random candidate in turn, so the policy is taught from states it reaches by
 *  its own moves as well as from greedy's. */
#include <cstdint>
#include <string>
#include <vector>

#include <random>

#include "sim/core/spec.hpp"
#include "sim/evaluate/evaluator.hpp"

namespace hulk::gnn {

/** @brief One labelled move. */
struct MoveExample {
  int a = 0;           ///< host exchanged with b
  int b = 0;
  double label = 0;    ///< t_after / t_before - 1, clipped (move_label)
};

/** @brief A placement and its labelled candidate moves. */
struct MoveState {
  Placement placement;
  std::vector<MoveExample> moves;
};

/** @brief One sampled cluster and its states. */
struct MoveSample {
  int index = 0;
  Scenario scenario;
  std::vector<MoveState> states;
};

/** @brief How gen-moves makes a sample. */
struct MoveDataOptions {
  int max_gpus = 64;           ///< size cap of the sampled platforms (scenario_sampler.hpp)
  /** @brief Size floor of the sampled platforms (SamplerOptions::min_total_gpus): `gnn families`' larger family
   *  samples 2x-4x the training cap, and its states can be labelled as the training family's are. */
  int min_gpus = 4;
  int states = 8;              ///< states per sample (the trajectory's length + 1)
  int moves_per_state = 48;    ///< candidate exchanges labelled per state (all of them when fewer)
};

/** @brief A state of `placement` with up to `moves` of its candidate exchanges (drawn without replacement by `rng`
 *  when there are more, kept in (a, b) order), each labelled with the evaluator's relative time change. */
MoveState label_state(const Scenario& scenario, const Evaluator& evaluator, const Placement& placement, int moves,
                      std::mt19937_64& rng);

/** @brief The sample of index `index` of a data set of seed `seed`: deterministic, the same in any shard.
 *  @throws InputError if the sampled job cannot be placed. */
MoveSample make_move_sample(int index, std::uint64_t seed, const MoveDataOptions& options);

/** @brief Writes one sample atomically to sample_path(dir, index). */
void write_move_sample(const std::string& dir, const MoveSample& sample);
/** @brief Reads one sample file. @throws InputError naming the file and key on any problem. */
MoveSample read_move_sample(const std::string& path);
/** @brief Every sample of the folder (skipped ones left out; missing ones too with allow_missing).
 *  @throws InputError for a missing manifest or sample, or a bad file. */
std::vector<MoveSample> load_move_dataset(const std::string& dir, bool allow_missing);
/** @brief The samples of several folders, in order. @throws InputError as load_move_dataset, or if there is none. */
std::vector<MoveSample> load_move_datasets(const std::vector<std::string>& dirs, bool allow_missing);

}  // namespace hulk::gnn
