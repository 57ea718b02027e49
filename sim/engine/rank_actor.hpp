#pragma once
/** @file rank_actor.hpp
 *  @brief The SimGrid actor of one GPU rank: runs the iterations of its pipeline stage (schedule over
 *  micro-batches, per-layer compute and TP all-reduces, PP sends/receives), the DP all-reduce and the
 *  end-of-iteration barrier, and accounts where its time goes. */
#include <string>
#include <chrono>
#include <vector>

#include <simgrid/s4u/Barrier.hpp>

#include "sim/workload/cost_model.hpp"
#include "sim/workload/plan.hpp"
#include "sim/engine/sg_endpoint.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief State shared by all rank actors of one simulation (owned by simulate()). */
struct SimShared {
  const JobSpec* job = nullptr;
  ParallelPlan plan{Parallelism{}};
  JobCost cost;
  std::vector<double> flops_scale_of_rank;  ///< see SgPlatform::flops_scale
  std::vector<double> exec_bound_of_rank;   ///< see SgPlatform::exec_bound
  std::vector<int> region_of_rank;
  MessageFabric* fabric = nullptr;
  simgrid::s4u::BarrierPtr barrier;
  std::vector<RankLedger> ledgers;       ///< one per rank
  std::vector<double> iteration_end_s;   ///< simulated time at which each iteration's barrier released
  bool record_spans = false;
  double progress_every_s = 0;           ///< SimOptions::progress_every_s
  std::chrono::steady_clock::time_point last_progress = std::chrono::steady_clock::now();
};

/** @brief One rank. Accounting (per rank, summed over iterations):
 *  compute_s = executing; tp_s / dp_s = inside a TP / DP all-reduce; pp_s = waiting for a pipeline message that
 *  its sender had already posted (in flight);
 *  bubble_s = waiting for a pipeline message not yet posted, plus waiting at the end-of-iteration barrier
 *  (idle). With these, compute + tp + dp + pp + bubble = iteration time for every rank. */
class RankActor {
 public:
  RankActor(int rank, SimShared& shared) : rank_(rank), shared_(&shared) {}
  void operator()();

 private:
  void compute(double flops, const char* what, int mb);
  void tp_allreduce(char dir, int mb, int layer, int idx);
  void pp_receive(int src, const char* what, int mb);
  /** @brief Sends one micro-batch's activation ('a', forward) or gradient ('g', backward) to dst. */
  void pp_send(int dst, char dir, int mb);
  void forward(int mb);
  void backward(int mb);
  void span(const std::string& name, const char* cat, double start_s, double end_s);

  int rank_;
  SimShared* shared_;
  Endpoint* ep_ = nullptr;
  RankCoord coord_;
  std::vector<int> tp_group_;
};

}  // namespace hulk
