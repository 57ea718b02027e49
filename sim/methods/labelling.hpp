#pragma once
/** @file labelling.hpp
 *  @brief gen-data's labelling pipeline for one sample: a sampled scenario, the greedy reference run in SimGrid
 *  (its traced traffic and time), the search label (the registry's SimGrid-checked search) and round-robin's
 *  SimGrid time when it is feasible. The GNN's data set format (gnn/dataset.hpp) stores the result; this file
 *  does not know it, as sim/ may not depend on gnn/. */
#include <cstdint>
#include <map>
#include <string>

#include "sim/core/spec.hpp"
#include "sim/core/traffic_matrix.hpp"

namespace hulk {

/** @brief Knobs of the labelling (gen-data's --budget and --max-gpus). */
struct LabelOptions {
  long long budget = 5000;  ///< search evaluations per label
  int max_gpus = 128;       ///< largest sampled platform (GPUs)
};

/** @brief One labelled sample. */
struct LabelledSample {
  Scenario scenario;                      ///< sampled platform and job
  TrafficMatrix traffic;                  ///< greedy placement's traced traffic per host pair and kind
  Placement label;                        ///< search's placement
  std::map<std::string, double> times_s;  ///< "greedy", "search", "round-robin" (if feasible) -> SimGrid seconds
};

/** @brief Samples the scenario of scenario_seed and labels it (SimGrid runs in children).
 *  @throws InputError if the sampled job cannot be placed. */
LabelledSample make_labelled_sample(std::uint64_t scenario_seed, const LabelOptions& options);

}  // namespace hulk
