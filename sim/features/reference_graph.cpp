#include "sim/features/reference_graph.hpp"

#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk {

ClusterGraph build_reference_graph(const Scenario& scenario, const GraphOptions& options) {
  return build_reference_graph(scenario, options, GreedyPlacer().place(scenario));
}

ClusterGraph build_reference_graph(const Scenario& scenario, const GraphOptions& options, const Placement& reference,
                                   const RouteModel* network) {
  const TrafficMatrix traffic = estimate_traffic(scenario, reference);
  return build_cluster_graph(scenario, &traffic, options, &reference, network);
}

}  // namespace hulk
