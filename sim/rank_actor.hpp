#pragma once
/** @file rank_actor.hpp
 *  @brief The SimGrid actor of one GPU rank: runs the iterations of its pipeline stage (schedule over
 *  micro-batches, per-layer compute and TP all-reduces, PP sends/receives), the DP all-reduce and the
 *  end-of-iteration barrier, and accounts where its time goes. */
#include <algorithm>
#include <string>
#include <vector>

#include <simgrid/s4u/Barrier.hpp>

#include "cost_model.hpp"
#include "plan.hpp"
#include "sg_endpoint.hpp"
#include "spec.hpp"

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
};

/** @brief One rank. Accounting (per rank, summed over iterations):
 *  compute_s = executing; tp_s / dp_s = inside a TP / DP all-reduce; pp_s = waiting for a pipeline message that
 *  its sender had already posted (in flight) or for own pipeline sends at the end of the iteration;
 *  bubble_s = waiting for a pipeline message not yet posted, plus waiting at the end-of-iteration barrier
 *  (idle). With these, compute + tp + dp + pp + bubble = iteration time for every rank. */
class RankActor {
 public:
  /** @brief Pipeline receives a rank keeps posted per neighbour: a receive buffer pool, as pipeline engines
   *  pre-allocate. "gpipe": all m micro-batches (a stage may run m forwards ahead). "1f1b": p + 1, more than the
   *  deepest warm-up, so a neighbour is never held back in a balanced pipeline; a neighbour further ahead waits for
   *  a free buffer before its transfer starts (Megatron's 1F1B even blocks on every send). Bounded because
   *  SimGrid's per-actor activity list is scanned on every completion (posting all 2m receives cost ~25% of the
   *  1,024-GPU benchmark). */
  static int pp_recv_window(const std::string& schedule, int stages, int micro_batches) {
    return schedule == "gpipe" ? micro_batches : std::min(micro_batches, stages + 1);
  }

  RankActor(int rank, SimShared& shared) : rank_(rank), shared_(&shared) {}
  void operator()();

 private:
  void compute(double flops, const char* what, int mb);
  void tp_allreduce(char dir, int mb, int layer, int idx);
  void pp_receive(std::vector<PendingRecv>& queue, int src, const char* what, int mb);
  void reap_finished_sends();
  void forward(int mb);
  void backward(int mb);
  void span(const std::string& name, const char* cat, double start_s, double end_s);

  int rank_;
  SimShared* shared_;
  Endpoint* ep_ = nullptr;
  RankCoord coord_;
  std::vector<int> tp_group_;
  std::vector<PendingRecv> act_in_, grad_in_;
  std::vector<simgrid::s4u::CommPtr> pp_sends_;
  int pp_window_ = 1;
};

}  // namespace hulk
