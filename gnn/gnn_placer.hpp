#pragma once
/** @file gnn_placer.hpp
 *  @brief The learned placer: build the cluster graph, run the GNN (eval mode, NoGradGuard), decode scores into
 *  valid placements with the matching step (the argmax decode and sampled ones, sampled_decode.hpp), add greedy's
 *  own placement (its DP replicas re-ordered when faster, sim/place/replica_order.hpp) as one more candidate, keep
 *  the one the analytic evaluator ranks first, reorder its stage blocks (stage_order.hpp), re-chain its TP rings
 *  (tp_ring_order.hpp) and re-order its replicas, then improve it by the score-guided host exchanges of polish.hpp
 *  (so never slower than greedy by the evaluator; by SimGrid up to the evaluator's error). Header is torch-free
 *  (pimpl) so tools/ can include it cheaply. */
#include <functional>
#include <memory>
#include <string>

#include "gnn/decode.hpp"
#include "gnn/sampled_decode.hpp"
#include "sim/features/cluster_graph.hpp"
#include "sim/place/placer.hpp"

namespace hulk::gnn {

/** @brief Placer "gnn". The graph is build_reference_graph() (sim/features/reference_graph.hpp): the greedy placement's
 *  roles and estimated traffic, as in training. */
class GnnPlacer : public Placer {
 public:
  /** @brief Loads the model. sampling.candidates = 1 keeps only the argmax decode (and, with greedy_candidate, the
   *  better of it and greedy's placement by the evaluator; without, no evaluator is involved).
   *  @throws InputError if the model file is missing, corrupt or of another version. */
  explicit GnnPlacer(const std::string& model_path, SamplingOptions sampling = {});
  ~GnnPlacer() override;
  GnnPlacer(GnnPlacer&&) noexcept;
  GnnPlacer& operator=(GnnPlacer&&) noexcept;

  std::string name() const override { return "gnn"; }
  /** @brief A valid placement (memory respected). @throws InputError if none exists or pp exceeds the model's. */
  Placement place(const Scenario& scenario) override;
  /** @brief place() with greedy's placement given (the graph's reference and a candidate), not computed again. */
  Placement place_given_greedy(const Scenario& scenario, const Placement& greedy) override;
  /** @brief Like place(), with what the sampling decoder chose (candidate index, distinct candidates, estimate).
   *  @param greedy greedy's placement of the scenario (GreedyPlacer's), or null to compute it. */
  SampledPlacement place_with_details(const Scenario& scenario, const Placement* greedy = nullptr);
  /** @brief The decoder's input for a scenario (log-probabilities per host and role). */
  RoleScores scores(const Scenario& scenario);
  /** @brief Largest pipeline depth the loaded model supports. */
  int max_stages() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hulk::gnn
