#pragma once
/** @file move_model.hpp
 *  @brief The move scorer of the learned improvement policy (as Placeto and GiPH): from a placement, the network
 *  predicts each candidate host exchange's relative time change (gnn/moves.hpp), so a placer can follow the
 *  best-scored moves without evaluating them.
 *
 *  State: the cluster graph with the CURRENT placement as its reference (sim/features/reference_graph.hpp: each
 *  host's roles, the placement's estimated traffic on the edges). Host embeddings h_v come from the same edge-aware
 *  message passing as the placement GNN (model.hpp). A move (a, b) is scored by an MLP over the symmetric
 *  combination [h_a + h_b, h_a * h_b, pair features of (a, b), mean_v h_v]: exchanging a and b is the same move as
 *  exchanging b and a. The output is the predicted label x kMoveLabelScale (labels are a few hundredths). */
#include <limits>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "gnn/model.hpp"
#include "gnn/move_deltas.hpp"
#include "gnn/moves.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk::gnn {

/** @brief Network outputs are labels times this (labels are relative time changes of a few hundredths). */
constexpr double kMoveLabelScale = 10.0;

/** @brief Hyper-parameters of the move scorer; stored in the model file. */
struct MoveModelConfig {
  int hidden = 48;              ///< width of the host embeddings and the move MLP
  int layers = 2;               ///< message-passing layers
  int nearest_neighbours = 24;  ///< graph construction (GraphOptions), so that inference builds the same graph
  /** @brief Features per move: kPairFeatures (the pair's route and roles), or kPairFeatures + kMoveDeltaFeatures
   *  (also the move's analytic changes, gnn/move_deltas.hpp). */
  int pair_features = kPairFeatures + kMoveDeltaFeatures;
};

/** @brief True if `n` is a per-move feature count a scorer can have (MoveModelConfig::pair_features). */
inline bool valid_pair_features(int n) { return n == kPairFeatures || n == kPairFeatures + kMoveDeltaFeatures; }

/** @brief The move scorer. */
class MoveScorerImpl : public torch::nn::Module {
 public:
  explicit MoveScorerImpl(const MoveModelConfig& config);
  /** @brief Scores [M] (labels x kMoveLabelScale) of the moves (a[i], b[i]) with per-move features
   *  [M, config().pair_features]. */
  torch::Tensor forward(const GraphTensors& g, const torch::Tensor& a, const torch::Tensor& b,
                        const torch::Tensor& pair);
  const MoveModelConfig& config() const { return config_; }
  /** @brief The model-only walk's stopping bound on a move's predicted change (follow_learned_moves' max_score) on a
   *  cluster of `gpus` GPUs: one bound for clusters of at most kStopBoundGpus GPUs (the training sampler's cap),
   *  one for larger ones, fitted on the training split's validation clusters (gnn/move_calibrate.hpp) and stored in
   *  the model file; 0 (take a move only while it is predicted faster) for a scorer never calibrated. */
  double stop_bound(int gpus) const { return gpus > kStopBoundGpus ? stop_bound_large_ : stop_bound_small_; }
  /** @brief Sets the bounds of stop_bound(). @throws std::invalid_argument unless both are finite and within the
   *  labels' range [-0.5, 0.5]. */
  void set_stop_bounds(double small, double large);
  /** @brief Clusters of more GPUs than this use the second bound of stop_bound(). */
  static constexpr int kStopBoundGpus = 64;

 private:
  MoveModelConfig config_;
  double stop_bound_small_ = 0.0, stop_bound_large_ = 0.0;
  torch::nn::Sequential node_enc_{nullptr}, head_{nullptr};
  torch::nn::ModuleList layers_{nullptr};
  std::vector<MessageLayer> layer_list_;
};
TORCH_MODULE(MoveScorer);

/** @brief The tensors of one state and its moves. */
struct MoveInputs {
  GraphTensors graph;
  torch::Tensor a, b;   ///< [M] int64
  torch::Tensor pair;   ///< [M, MoveModelConfig::pair_features]
};

/** @brief Builds the inputs of `moves` from `placement` (the graph with the placement as reference) for a scorer of
 *  `config` (its graph's neighbours and its per-move features). */
MoveInputs move_inputs(const Scenario& scenario, const RouteModel& network, const Placement& placement,
                       const std::vector<std::pair<int, int>>& moves, const MoveModelConfig& config);

/** @brief Predicted labels (relative time changes, lower is better) of the moves; eval mode, no grad, one thread. */
std::vector<double> predict_moves(MoveScorer& model, const Scenario& scenario, const RouteModel& network,
                                  const Placement& placement, const std::vector<std::pair<int, int>>& moves);

/** @brief The candidate exchanges of `placement` (candidate_exchanges) ordered by predicted label, best first
 *  (ties: (a, b) order). */
std::vector<std::pair<int, int>> learned_exchange_order(MoveScorer& model, const Scenario& scenario,
                                                        const RouteModel& network, const Placement& placement);

/** @brief The policy alone: from `start`, up to max_moves times the best-scored candidate exchange that leads to a
 *  placement not visited yet, taken only while its score beats the MEDIAN score of the state's candidates by more
 *  than `margin` (relative time) and is itself below `max_score` (a predicted change; infinity = no such bound). Why relative: the scorer ranks a state's moves well but its absolute predictions
 *  are biased (from greedy's placement it predicts nearly every move slower), so a threshold on the predicted value
 *  stops at once, while the gap to the state's own typical move measures how much the best move stands out.
 *  No evaluator is called. With `steps`, the placement after each move taken is appended to it; with
 *  `step_scores`, that move's predicted change. */
Placement follow_learned_moves(MoveScorer& model, const Scenario& scenario, const RouteModel& network,
                               const Placement& start, int max_moves, double margin,
                               std::vector<Placement>* steps = nullptr,
                               double max_score = std::numeric_limits<double>::infinity(),
                               std::vector<double>* step_scores = nullptr);

}  // namespace hulk::gnn
