#pragma once
/** @file gnn_placer.hpp
 *  @brief The learned placer: build the cluster graph, run the GNN (eval mode, NoGradGuard), decode scores into
 *  a valid placement with the matching step. Header is torch-free (pimpl) so tools/ can include it cheaply. */
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "decode.hpp"
#include "sim/cluster_graph.hpp"
#include "sim/placement.hpp"

namespace hulk::gnn {

/** @brief Supplies the reference traffic of a scenario (e.g. from a SimGrid run of round-robin, in a child
 *  process); std::nullopt = no traffic features. */
using TrafficProvider = std::function<std::optional<TrafficMatrix>(const Scenario&)>;

/** @brief Placer "gnn". */
class GnnPlacer : public Placer {
 public:
  /** @brief Loads the model. @throws InputError if the model file is missing, corrupt or of another version. */
  explicit GnnPlacer(const std::string& model_path, TrafficProvider traffic = {});
  ~GnnPlacer() override;
  GnnPlacer(GnnPlacer&&) noexcept;
  GnnPlacer& operator=(GnnPlacer&&) noexcept;

  std::string name() const override { return "gnn"; }
  /** @brief A valid placement (memory respected). @throws InputError if none exists or pp exceeds the model's. */
  Placement place(const Scenario& scenario) override;
  /** @brief The decoder's input for a scenario (log-probabilities per host and role). */
  RoleScores scores(const Scenario& scenario);
  /** @brief Largest pipeline depth the loaded model supports. */
  int max_stages() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hulk::gnn
