#pragma once
/** @file gnn_backend.hpp
 *  @brief The program's wiring of gnn/ into sim/ (which may not depend on gnn/): the learned placer into the method
 *  registry, and the GNN's data set format into the experiments that read or write it (sim/lab). */
#include <string>
#include <vector>

#include "sim/lab/gen_data.hpp"
#include "sim/lab/gnn_families_run.hpp"
#include "sim/lab/held_out_eval.hpp"
#include "sim/methods/method_registry.hpp"

namespace hulk::cli {

/** @brief MethodOptions with the GNN as the learned placer (defaults otherwise). */
MethodOptions cli_method_options();

/** @brief The GNN plugin as gnn families' learned placer: a row's decoder switches set on gnn::SamplingOptions. */
LearnedBackend gnn_learned_backend();

/** @brief The data set folder `dir` in the GNN's format (gnn/dataset.hpp), for gen-data. */
GenDataStore gnn_data_store(const std::string& dir);

/** @brief The samples of a held-out data set as cases of gnn eval. @throws InputError for a bad data set or a sample
 *  without SimGrid greedy/search times (an evaluator-labelled set). */
std::vector<HeldOutCase> held_out_cases(const std::string& dir);

}  // namespace hulk::cli
