#pragma once
/** @file reference_graph.hpp
 *  @brief The graph the learned placer reads: the cluster graph with the greedy placement as reference and its
 *  analytically estimated traffic (sim/evaluate/traffic_estimate.hpp) as edge features. Pure code. */
#include "sim/core/spec.hpp"
#include "sim/features/cluster_graph.hpp"

namespace hulk {

/** @brief The graph the learned placer reads, at training and at inference alike: build_cluster_graph with the
 *  greedy placement as reference (its role features) and its estimated traffic (edge features).
 *  @throws InputError if the job does not fit the platform. */
ClusterGraph build_reference_graph(const Scenario& scenario, const GraphOptions& options);
/** @brief Same, with the greedy placement already computed (training keeps it as a candidate target), and the
 *  platform's route model if the caller has one (nullptr: the routes come from the spec). */
ClusterGraph build_reference_graph(const Scenario& scenario, const GraphOptions& options, const Placement& reference,
                                   const RouteModel* network = nullptr);

}  // namespace hulk
