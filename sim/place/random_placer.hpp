#pragma once
/** @file random_placer.hpp
 *  @brief Seeded uniform random valid placement (memory respected). */
#include <cstdint>
#include <optional>

#include "sim/place/placer.hpp"

namespace hulk {

/** @brief Random placement. The ranks of every job are one list (Placement order: job after job; one job is the
 *  list of one). Ranks of the most memory-hungry stages choose first (ties: Placement order), each a uniformly
 *  random unused GPU among those that fit (any unused GPU for a job without check_memory): since "fits a heavier
 *  stage" implies "fits a lighter one", this finds a placement whenever one exists (Hall's condition on nested
 *  sets). The stream is seeded from scenario.seed + "random" (or from an explicit seed). */
class RandomPlacer : public Placer {
 public:
  /** @param seed if set, replaces the scenario-derived seed (used for drawing many random placements). */
  explicit RandomPlacer(std::optional<std::uint64_t> seed = std::nullopt) : seed_(seed) {}
  std::string name() const override { return "random"; }
  /** @throws InputError if the ranks outnumber the GPUs or no GPU assignment fits the memory of every stage. */
  Placement place(const Scenario& scenario) override;

 private:
  std::optional<std::uint64_t> seed_;
};

}  // namespace hulk
