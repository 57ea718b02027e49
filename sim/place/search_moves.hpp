#pragma once
/** @file search_moves.hpp
 *  @brief The annealing state of the search (search_placer.hpp) and its moves, over the ranks of every job of the
 *  scenario in Placement order (one job is the list of one). Moves (probabilities): swap the GPUs of two ranks on
 *  different hosts (0.30: inside a job, or between two jobs' shares); move a rank to an unused GPU (0.20, if any is
 *  unused); swap two whole TP groups of the same size (0.20); exchange all ranks of two hosts, whatever their jobs
 *  (0.15: crosses valleys that single swaps cannot, e.g. moving a pipeline segment to a faster server); swap two
 *  whole pipeline stages of the same size rank by rank (0.15). Groups and stages are drawn among every job's, so a
 *  swap may move them between two jobs. A move that breaks memory does not apply. */
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/place/island_first.hpp"

namespace hulk {

/** @brief A placement plus its unused GPUs: the annealing state. */
struct SearchState {
  std::vector<GpuSlot> gpu;   ///< per rank
  std::vector<int> host;      ///< per rank (= gpu[r].host), what the evaluators read
  std::vector<GpuSlot> free;  ///< unused GPUs
};

/** @brief The state of a placement on the scenario's platform. */
SearchState make_search_state(const Scenario& scenario, const Placement& placement);

/** @brief Whether rank r (Placement order) may go to a GPU of host h (memory). */
using RankFits = std::function<bool(int rank, int host)>;

/** @brief Draws one move (see the file comment) and applies it to a copy of the current state. */
class SearchMoves {
 public:
  /** @param max_tp_groups_across_regions, islands: with one job only (SearchOptions, IslandKeeper): proposals
   *  beyond the limit, or that take a replica out of its island group, do not apply. */
  SearchMoves(const Scenario& scenario, RankFits fits, std::mt19937_64& rng,
              std::uniform_real_distribution<double>& unit, std::optional<int> max_tp_groups_across_regions,
              std::optional<IslandKeeper> islands);

  /** @brief Applies a drawn move to `cand`; false if it does not apply (same host, memory, limits, ...). */
  bool propose(SearchState& cand);

 private:
  /** A run of consecutive ranks (Placement order): a TP group or a pipeline stage of one job. */
  struct Block {
    int first = 0;
    int size = 0;
  };

  bool move(SearchState& cand);
  int uniform(int n);
  bool swap_two_ranks(SearchState& cand);
  bool move_to_unused_gpu(SearchState& cand);
  bool swap_blocks(SearchState& cand, const Block& a, const Block& b);
  bool swap_drawn_blocks(SearchState& cand, const std::vector<Block>& blocks);
  bool exchange_hosts(SearchState& cand);

  const Scenario& sc_;
  RankFits fits_;
  std::mt19937_64& rng_;
  std::uniform_real_distribution<double>& unit_;
  const std::optional<int> max_across_;
  const std::optional<IslandKeeper> islands_;
  int ranks_ = 0;
  std::vector<Block> tp_groups_, stages_;
};

}  // namespace hulk
