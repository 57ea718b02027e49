#pragma once
/** @file move_deltas.hpp
 *  @brief Analytic per-move features of the learned improvement policy: for a host exchange (gnn/moves.hpp), how it
 *  changes cheap quantities of the placement's estimated traffic (sim/evaluate/traffic_estimate.hpp) and of its
 *  stages' slowest GPUs. No evaluator time: bytes over route bandwidths and flop over GPU peaks, so a fresh scorer
 *  does not read the answer off them; the scorer learns how they combine into the time change. Torch-free.
 *
 *  Exchanging hosts a and b moves the traffic a had with every other host c onto the route (b, c) and the reverse;
 *  the traffic between a and b stays on their route. Each quantity below is the change (after - before) divided by a
 *  per-state scale, the iteration proxy (the slowest stage's compute per iteration plus the most loaded host's
 *  traffic time), then compressed by asinh so that a move that puts tensor-parallel traffic on a WAN route does not
 *  dwarf the rest:
 *   0 the most loaded host pair's bytes / bandwidth;   1 the most loaded host's bytes / bandwidth (all its pairs);
 *   2-4 the summed bytes / bandwidth of the DP, TP and PP traffic;  5 the bytes crossing regions (over all bytes);
 *   6 the slowest stage's compute (stage flop / its slowest GPU's peak);  7 the stages' mean compute. */
#include <array>
#include <utility>
#include <vector>

#include "sim/core/spec.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk::gnn {

/** @brief Number of analytic per-move features (move_deltas.hpp). */
constexpr int kMoveDeltaFeatures = 8;

/** @brief The per-state data the move features read, built once per placement (O(hosts^2) plus the traffic
 *  estimate), then O(hosts + stages) per move. */
class MoveDeltaContext {
 public:
  /** @brief The context of `placement` (valid for the scenario's single job). */
  MoveDeltaContext(const Scenario& scenario, const RouteModel& network, const Placement& placement);
  /** @brief The features of exchanging hosts a and b (a != b); the same numbers for (b, a). */
  std::array<float, kMoveDeltaFeatures> features(int a, int b) const;
  /** @brief The raw changes (after - before, not scaled or compressed), in the order of the file comment. */
  std::array<double, kMoveDeltaFeatures> raw_deltas(int a, int b) const;
  /** @brief The per-state scale the features divide by (seconds; the iteration proxy). */
  double scale_s() const { return scale_s_; }

 private:
  double bytes(int kind, int a, int c) const { return bytes_[kind][static_cast<std::size_t>(a) * hosts_ + c]; }
  double inv_bw(int a, int c) const { return inv_bw_[static_cast<std::size_t>(a) * hosts_ + c]; }
  double busy(int a, int c) const { return busy_[static_cast<std::size_t>(a) * hosts_ + c]; }
  double max_pair_without(int a, int b) const;
  std::array<double, 2> stage_compute_after(int a, int b) const;

  int hosts_ = 0;
  std::array<std::vector<double>, 3> bytes_;  ///< per kind (dp, tp, pp), [a * hosts + c], off-host pairs
  std::vector<double> inv_bw_;                ///< 1 / the pair's bottleneck bandwidth (both directions' min)
  std::vector<double> busy_;                  ///< all kinds' bytes x inv_bw
  std::vector<double> load_;                  ///< per host: sum of its pairs' busy
  std::vector<int> region_;
  std::vector<double> flops_;                 ///< per host: GPU peak
  std::vector<std::pair<int, int>> pair_order_;  ///< the off-host pairs (a < c), most loaded first
  std::vector<std::vector<int>> stage_hosts_;   ///< per stage: the hosts holding its ranks
  std::vector<double> stage_work_;              ///< per stage: flop per iteration per rank
  double total_bytes_ = 0, max_pair_ = 0, max_load_ = 0, max_stage_ = 0, mean_stage_ = 0, scale_s_ = 1;
};

}  // namespace hulk::gnn
