#pragma once
/** @file plan.hpp
 *  @brief Logical ranks and communication groups of a dp x tp x pp job (Megatron order). Pure code. */
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Coordinates of one logical rank. */
struct RankCoord {
  int pp = 0;
  int dp = 0;
  int tp = 0;
};

/** @brief Ranks and groups of a job. rank = ((pp * DP) + dp) * TP + tp (Megatron order). */
class ParallelPlan {
 public:
  explicit ParallelPlan(const Parallelism& par) : par_(par) {}

  int ranks() const { return par_.ranks(); }
  const Parallelism& parallelism() const { return par_; }

  /** @brief Rank id of coordinates. */
  int rank_of(int pp, int dp, int tp) const { return (pp * par_.dp + dp) * par_.tp + tp; }
  /** @brief Coordinates of a rank id. */
  RankCoord coord_of(int rank) const {
    RankCoord c;
    c.tp = rank % par_.tp;
    c.dp = (rank / par_.tp) % par_.dp;
    c.pp = rank / (par_.tp * par_.dp);
    return c;
  }
  /** @brief The TP group (ordered by tp) of a rank. */
  std::vector<int> tp_group(int rank) const {
    RankCoord c = coord_of(rank);
    std::vector<int> g;
    for (int t = 0; t < par_.tp; ++t) g.push_back(rank_of(c.pp, c.dp, t));
    return g;
  }
  /** @brief The DP group (ordered by dp) of a rank: same stage and tp index. */
  std::vector<int> dp_group(int rank) const {
    RankCoord c = coord_of(rank);
    std::vector<int> g;
    for (int d = 0; d < par_.dp; ++d) g.push_back(rank_of(c.pp, d, c.tp));
    return g;
  }
  /** @brief Rank of the previous pipeline stage with the same dp/tp, or -1 on the first stage. */
  int pp_prev(int rank) const {
    RankCoord c = coord_of(rank);
    return c.pp == 0 ? -1 : rank_of(c.pp - 1, c.dp, c.tp);
  }
  /** @brief Rank of the next pipeline stage with the same dp/tp, or -1 on the last stage. */
  int pp_next(int rank) const {
    RankCoord c = coord_of(rank);
    return c.pp == par_.pp - 1 ? -1 : rank_of(c.pp + 1, c.dp, c.tp);
  }

 private:
  Parallelism par_;
};

}  // namespace hulk
