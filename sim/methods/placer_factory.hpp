#pragma once
/** @file placer_factory.hpp
 *  @brief Creates a placer by method name: round-robin, random, greedy, search, exhaustive. */
#include <memory>
#include <string>
#include <vector>

#include "sim/place/placer.hpp"

namespace hulk {

/** @brief Options shared by the factory's placers (each uses the ones that concern it). */
struct PlacerOptions {
  long long search_evaluations = 20000;  ///< search: evaluator calls
  double search_seconds = 0;             ///< search: wall-clock cap, seconds (0 = none)
  int search_simgrid_candidates = 0;     ///< search: re-check this many best placements + the start with SimGrid
  bool exhaustive_simgrid = true;        ///< exhaustive: SimGrid (true) or the analytic evaluator (false)
  long long exhaustive_cap = 5000;       ///< exhaustive: maximal enumeration size
};

/** @brief The method names make_placer() accepts, in a fixed order. */
const std::vector<std::string>& placer_methods();

/** @brief The placer of a method. @throws InputError (key "placement") for an unknown method, listing the
 *  methods and the closest name. */
std::unique_ptr<Placer> make_placer(const std::string& method, const PlacerOptions& options = {});

}  // namespace hulk
