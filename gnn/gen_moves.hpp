#pragma once
/** @file gen_moves.hpp
 *  @brief `hulk gnn gen-moves`: the move data set (move_data.hpp) written sample by sample into a folder, resumable
 *  (samples present are skipped) and sharded (a shard i/n makes the indices k with k % n == i). Torch-free. */
#include <cstdint>
#include <functional>
#include <string>

#include "gnn/move_data.hpp"

namespace hulk::gnn {

/** @brief gen-moves' options (its flags). */
struct GenMovesOptions {
  int count = 100;                       ///< samples (sampled clusters) of the whole data set
  std::uint64_t seed = 1;                ///< data seed
  std::string out;                       ///< the data set folder
  int shard_index = 0, shard_count = 1;  ///< this run makes the indices k with k % shard_count == shard_index
  MoveDataOptions options;               ///< platform size, states and moves per sample
};

/** @brief What a run did. */
struct GenMovesReport {
  int mine = 0;     ///< samples of this shard
  int present = 0;  ///< of those, already in the folder before the run
  int made = 0, skipped = 0;
  long long examples = 0;  ///< labelled moves of the samples made
};

/** @brief The generator line of a move data set made with these options (into its manifest). */
std::string gen_moves_generator(const GenMovesOptions& options);

/** @brief Makes the shard's missing samples; progress gets one line per sample and a summary (may be empty).
 *  @throws InputError for a folder of other options; Interrupted (the finished samples kept) on
 *  SIGINT/SIGTERM. */
GenMovesReport run_gen_moves(const GenMovesOptions& options, const std::function<void(const std::string&)>& progress);

}  // namespace hulk::gnn
