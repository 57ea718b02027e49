#pragma once
/** @file random_placer.hpp
 *  @brief Seeded uniform random valid placement (memory respected). */
#include <cstdint>
#include <optional>

#include "sim/place/placer.hpp"

namespace hulk {

/** @brief Random placement. Ranks of the most memory-hungry stages choose first, each a uniformly random unused
 *  GPU among those that fit: since "fits a heavier stage" implies "fits a lighter one", this finds a placement
 *  whenever one exists (Hall's condition on nested sets). The stream is seeded from scenario.seed + "random"
 *  (or from an explicit seed). Several jobs (more than one): random_jobs_placement (jobs_placement.hpp) from the same seed. */
class RandomPlacer : public Placer {
 public:
  /** @param seed if set, replaces the scenario-derived seed (used for drawing many random placements). */
  explicit RandomPlacer(std::optional<std::uint64_t> seed = std::nullopt) : seed_(seed) {}
  std::string name() const override { return "random"; }
  /** @throws InputError if no GPU assignment fits the memory of every stage. */
  Placement place(const Scenario& scenario) override;

 private:
  std::optional<std::uint64_t> seed_;
};

}  // namespace hulk
