#include "gnn_placer.hpp"

#include "model_file.hpp"

namespace hulk::gnn {

struct GnnPlacer::Impl {
  PlacementGnn model{nullptr};
  TrafficProvider traffic;
};

GnnPlacer::GnnPlacer(const std::string& model_path, TrafficProvider traffic) : impl_(std::make_unique<Impl>()) {
  impl_->model = load_model(model_path);
  impl_->traffic = std::move(traffic);
}

GnnPlacer::~GnnPlacer() = default;
GnnPlacer::GnnPlacer(GnnPlacer&&) noexcept = default;
GnnPlacer& GnnPlacer::operator=(GnnPlacer&&) noexcept = default;

int GnnPlacer::max_stages() const { return impl_->model->config().p_max; }

RoleScores GnnPlacer::scores(const Scenario& scenario) {
  std::optional<TrafficMatrix> t;
  if (impl_->traffic) t = impl_->traffic(scenario);
  GraphOptions go;
  go.nearest_neighbours = impl_->model->config().nearest_neighbours;
  const ClusterGraph g = build_cluster_graph(scenario, t ? &*t : nullptr, go);
  return predict_scores(impl_->model, g);
}

Placement GnnPlacer::place(const Scenario& scenario) { return decode_placement(scenario, scores(scenario)); }

}  // namespace hulk::gnn
