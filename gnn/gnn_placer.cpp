#include "gnn/gnn_placer.hpp"

#include "gnn/model_file.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/traffic_estimate.hpp"
#include "sim/features/reference_graph.hpp"

namespace hulk::gnn {

struct GnnPlacer::Impl {
  PlacementGnn model{nullptr};
  SamplingOptions sampling;
};

GnnPlacer::GnnPlacer(const std::string& model_path, SamplingOptions sampling) : impl_(std::make_unique<Impl>()) {
  impl_->model = load_model(model_path);
  impl_->sampling = sampling;
}

GnnPlacer::~GnnPlacer() = default;
GnnPlacer::GnnPlacer(GnnPlacer&&) noexcept = default;
GnnPlacer& GnnPlacer::operator=(GnnPlacer&&) noexcept = default;

int GnnPlacer::max_stages() const { return impl_->model->config().p_max; }

RoleScores GnnPlacer::scores(const Scenario& scenario) {
  GraphOptions go;
  go.nearest_neighbours = impl_->model->config().nearest_neighbours;
  return predict_scores(impl_->model, build_reference_graph(scenario, go));
}

SampledPlacement GnnPlacer::place_with_details(const Scenario& scenario) {
  const RoleScores s = scores(scenario);
  if (impl_->sampling.candidates <= 1) {
    SampledPlacement only;
    only.placement = decode_placement(scenario, s);
    only.distinct = 1;
    return only;
  }
  const hulk::Evaluator evaluator(scenario);
  return decode_best_of_samples(scenario, s, impl_->sampling,
                                [&evaluator](const Placement& p) { return evaluator.iteration_time_s(p); });
}

Placement GnnPlacer::place(const Scenario& scenario) { return place_with_details(scenario).placement; }

}  // namespace hulk::gnn
