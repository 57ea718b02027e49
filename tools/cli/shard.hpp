#pragma once
/** @file shard.hpp
 *  @brief `--shard i/n` for sweep and gen-data: a run owns the items whose index % n == i (0-based i, as Slurm's
 *  SLURM_ARRAY_TASK_ID), so a job array or GNU parallel spreads the work without a home-made scheduler. */
#include <sstream>
#include <string>

#include "sim/core/errors.hpp"

namespace hulk::cli {

/** @brief One share of the work. */
struct Shard {
  int index = 0;  ///< i
  int count = 1;  ///< n
  /** @brief True if this share runs item k. */
  bool owns(long long k) const { return k % count == index; }
};

/** @brief Parses "i/n" ("" = the whole work). @throws InputError naming --shard. */
inline Shard parse_shard(const std::string& text) {
  if (text.empty()) return {};
  int i = -1, n = -1;
  char slash = 0;
  std::stringstream ss(text);
  ss >> i >> slash >> n;
  if (!ss || slash != '/' || n < 1 || i < 0 || i >= n || !ss.eof())
    throw InputError("", 0, "--shard", "'" + text + "' is not i/n with 0 <= i < n (e.g. 0/4)");
  return {i, n};
}

}  // namespace hulk::cli
