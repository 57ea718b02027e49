#pragma once
// Test helper shared by the tests of the gnn method's annealing starts (dp_clusters_test, alternative_starts_test).
#include "sim/methods/gnn_method.hpp"

namespace hulk::testing {

/** Options of anneal_learned_placement with one evaluation and nothing after it (no reruns, reorderings or
 *  re-chaining): where the answer ends up is decided by the start the annealing picks. */
inline LearnedAnnealOptions start_decides() {
  LearnedAnnealOptions one;
  one.evaluations = 1;
  one.stage_orders = one.reruns = 0;
  one.tp_rings = false;
  return one;
}

}  // namespace hulk::testing
