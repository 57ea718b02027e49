#include "gnn/move_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <numeric>
#include <optional>
#include <set>

#include "gnn/single_thread.hpp"
#include "sim/features/reference_graph.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk::gnn {

namespace nn = torch::nn;

MoveScorerImpl::MoveScorerImpl(const MoveModelConfig& c) : config_(c) {
  const int d = c.hidden;
  node_enc_ = register_module("node_enc", nn::Sequential(nn::Linear(2 * kNodeFeatures + kJobFeatures, d), nn::ReLU(),
                                                         nn::Linear(d, d), nn::LayerNorm(nn::LayerNormOptions({d}))));
  layers_ = register_module("layers", nn::ModuleList());
  for (int l = 0; l < c.layers; ++l) {
    layer_list_.push_back(MessageLayer(d, 2 * kEdgeFeatures));
    layers_->push_back(layer_list_.back());
  }
  head_ = register_module("head", nn::Sequential(nn::Linear(3 * d + 2 * c.pair_features, d), nn::ReLU(),
                                                 nn::Linear(d, d), nn::ReLU(), nn::Linear(d, 1)));
}

void MoveScorerImpl::set_stop_bounds(double small, double large) {
  for (const double bound : {small, large})
    if (!std::isfinite(bound) || bound < -0.5 || bound > 0.5)
      throw std::invalid_argument("MoveScorer: stop bound outside [-0.5, 0.5]");
  stop_bound_small_ = small;
  stop_bound_large_ = large;
}

torch::Tensor MoveScorerImpl::forward(const GraphTensors& g, const torch::Tensor& a, const torch::Tensor& b,
                                      const torch::Tensor& pair) {
  const torch::Tensor node_rel = standardise(g.nodes.slice(1, 0, kNodeFeatures));
  torch::Tensor h = node_enc_->forward(torch::cat({g.nodes, node_rel}, 1));
  GraphTensors with_rel_edges = g;  // shallow: tensors are shared
  with_rel_edges.edges = torch::cat({g.edges, standardise(g.edges)}, 1);
  for (auto& layer : layer_list_) h = layer->forward(h, with_rel_edges);
  const torch::Tensor ha = h.index_select(0, a), hb = h.index_select(0, b);
  const torch::Tensor glob = h.mean(0, /*keepdim=*/true).expand({a.size(0), h.size(1)});
  // Pair features raw and relative to the state's other candidates (which exchange is unusually far, say).
  const torch::Tensor x = torch::cat({ha + hb, ha * hb, pair, standardise(pair), glob}, 1);
  return head_->forward(x).squeeze(1);
}

MoveInputs move_inputs(const Scenario& scenario, const RouteModel& network, const Placement& placement,
                       const std::vector<std::pair<int, int>>& moves, const MoveModelConfig& config) {
  GraphOptions go;
  go.nearest_neighbours = config.nearest_neighbours;
  const ClusterGraph graph = build_reference_graph(scenario, go, placement, &network);
  MoveInputs in;
  in.graph = to_tensors(graph, graph.pp);
  const auto m = static_cast<std::int64_t>(moves.size());
  in.a = torch::empty({m}, torch::kInt64);
  in.b = torch::empty({m}, torch::kInt64);
  const bool deltas = config.pair_features > kPairFeatures;
  in.pair = torch::empty({m, config.pair_features});
  auto a = in.a.accessor<std::int64_t, 1>();
  auto b = in.b.accessor<std::int64_t, 1>();
  auto f = in.pair.accessor<float, 2>();
  const std::vector<std::vector<double>> shares = role_shares(scenario, placement);
  std::optional<MoveDeltaContext> context;
  if (deltas && m > 0) context.emplace(scenario, network, placement);
  for (std::int64_t i = 0; i < m; ++i) {
    a[i] = moves[i].first;
    b[i] = moves[i].second;
    const auto features = pair_features(scenario, network, shares, moves[i].first, moves[i].second);
    for (int k = 0; k < kPairFeatures; ++k) f[i][k] = features[k];
    if (!context) continue;
    const auto changes = context->features(moves[i].first, moves[i].second);
    for (int k = 0; k < kMoveDeltaFeatures; ++k) f[i][kPairFeatures + k] = changes[k];
  }
  return in;
}

std::vector<double> predict_moves(MoveScorer& model, const Scenario& scenario, const RouteModel& network,
                                  const Placement& placement, const std::vector<std::pair<int, int>>& moves) {
  if (moves.empty()) return {};
  // Inference mode: no autograd bookkeeping per op (most of a pass on a small graph); the same kernels, the same bytes.
  c10::InferenceMode inference;
  SingleThread threads;  // same bytes on any machine
  model->eval();
  const MoveInputs in = move_inputs(scenario, network, placement, moves, model->config());
  const torch::Tensor y = model->forward(in.graph, in.a, in.b, in.pair).to(torch::kDouble).contiguous();
  std::vector<double> out(y.data_ptr<double>(), y.data_ptr<double>() + y.numel());
  for (double& v : out) v /= kMoveLabelScale;
  return out;
}

std::vector<std::pair<int, int>> learned_exchange_order(MoveScorer& model, const Scenario& scenario,
                                                        const RouteModel& network, const Placement& placement) {
  const std::vector<std::pair<int, int>> moves = candidate_exchanges(scenario, placement);
  const std::vector<double> score = predict_moves(model, scenario, network, placement, moves);
  std::vector<std::size_t> order(moves.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&score](std::size_t x, std::size_t y) { return score[x] < score[y]; });
  std::vector<std::pair<int, int>> out;
  out.reserve(order.size());
  for (const std::size_t i : order) out.push_back(moves[i]);
  return out;
}

namespace {

double median_of(std::vector<double> v) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

Placement follow_learned_moves(MoveScorer& model, const Scenario& scenario, const RouteModel& network,
                               const Placement& start, int max_moves, double margin, std::vector<Placement>* steps,
                               double max_score, std::vector<double>* step_scores) {
  Placement p = start;
  std::set<std::vector<int>> seen{hosts_of(p)};
  for (int step = 0; step < max_moves; ++step) {
    const std::vector<std::pair<int, int>> moves = candidate_exchanges(scenario, p);
    if (moves.empty()) break;
    const std::vector<double> score = predict_moves(model, scenario, network, p, moves);
    const double median = median_of(score);
    std::vector<std::size_t> order(moves.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&score](std::size_t x, std::size_t y) { return score[x] < score[y]; });
    bool moved = false;
    for (const std::size_t i : order) {
      // Best first: no later move stands out enough, or is predicted faster enough, either.
      if (median - score[i] <= margin || !(score[i] < max_score)) break;
      Placement next = p;
      exchange_hosts(scenario, next, moves[i].first, moves[i].second);
      if (!seen.insert(hosts_of(next)).second) continue;
      p = std::move(next);
      if (steps) steps->push_back(p);
      if (step_scores) step_scores->push_back(score[i]);
      moved = true;
      break;
    }
    if (!moved) break;
  }
  return p;
}

}  // namespace hulk::gnn
