#include "gnn_method.hpp"

#include "gnn/gnn_placer.hpp"
#include "reference_traffic.hpp"
#include "sim/search_placer.hpp"

namespace hulk::cli {

Placement gnn_placement(const Scenario& scenario, const std::string& model_path, bool refine, long budget) {
  // The reference trace forks a SimGrid child: do it before torch starts its thread pool in this process.
  const TrafficMatrix traffic = reference_trace(scenario).traffic;
  gnn::GnnPlacer placer(model_path, [&traffic](const Scenario&) { return std::optional<TrafficMatrix>(traffic); });
  Placement placement = placer.place(scenario);
  if (!refine) return placement;
  SearchOptions options;
  options.max_evaluations = budget > 0 ? budget : 2000;  // a short local search, 10x below search's default
  options.start = placement;
  return SearchPlacer(options).place(scenario);
}

}  // namespace hulk::cli
