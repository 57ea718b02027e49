#include "sim/methods/gnn_method.hpp"

#include "sim/engine/isolated_run.hpp"
#include "sim/scenario/scenario_json.hpp"
#include "sim/place/search_placer.hpp"
#include "sim/core/subprocess.hpp"

namespace hulk {

Placement gnn_placement(const Scenario& scenario, const std::string& model_path, const LearnedPlacer& learned,
                        bool refine, long budget) {
  // Torch must never run in a process that forks afterwards (the refinement's SimGrid checks fork): the GNN
  // inference (with its estimated reference traffic and sampling decoder) runs in its own child.
  nlohmann::json answer = run_in_child([&]() {
    return placement_slots_to_json(learned(scenario, model_path));
  });
  const Placement placement = placement_slots_from_json(answer, "<gnn>", "placement");
  if (!refine) return placement;
  // gnn+refine: a short annealing run from the GNN's answer; SimGrid decides between the two.
  SearchOptions options;
  options.max_evaluations = budget > 0 ? budget : 2000;  // 10x below search's default budget
  options.start = placement;
  const Placement refined = SearchPlacer(options).place(scenario);
  if (refined.gpu_of_rank == placement.gpu_of_rank) return placement;
  return simulated_iteration_time_s(scenario, refined) <= simulated_iteration_time_s(scenario, placement) ? refined
                                                                                                           : placement;
}

}  // namespace hulk
