#pragma once
/** @file rank_actor.hpp
 *  @brief The SimGrid actor of one GPU rank: runs the iterations of its pipeline stage (schedule over
 *  micro-batches, per-layer compute and TP all-reduces, PP sends/receives), the DP all-reduce and the
 *  end-of-iteration barrier, and accounts where its time goes. */
#include <string>
#include <chrono>
#include <vector>

#include <simgrid/s4u/Barrier.hpp>

#include "sim/workload/compute_efficiency.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/pipeline_schedule.hpp"
#include "sim/workload/islands.hpp"
#include "sim/workload/plan.hpp"
#include "sim/engine/private_ring.hpp"
#include "sim/engine/sg_endpoint.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

class PrivateRings;
class LatencyRings;

/** @brief Records a span of `rank` in the ledger's TraceRecorder (TraceRecorder::span: merged into the rank's
 *  previous span when it continues it, dropped when of zero or negative length). */
void record_span(RankLedger& ledger, int rank, const std::string& name, const char* cat, double start_s,
                 double end_s);

/** @brief One job of a simulation: its plan, costs, barrier and iteration ends. Its ranks are the simulation's
 *  ranks offset .. offset + plan.ranks() - 1 (several jobs are numbered one after the other, sim/core/jobs.hpp). */
struct JobRun {
  const JobSpec* job = nullptr;
  int index = 0;                         ///< job index in the scenario
  int offset = 0;                        ///< the simulation rank of the job's rank 0
  ParallelPlan plan{Parallelism{}};
  JobCost cost;
  /** @brief The stage costs as each host's GPUs run them (compute_efficiency.hpp): the flop the ranks execute. */
  StagesByHost stages;
  PrivateRings* rings = nullptr;         ///< TP groups whose all-reduces take the closed form (null: none)
  /** @brief Where the gradient norm's all-reduce of empty messages takes the closed form, one meeting point per
   *  data-parallel index (latency_ring.hpp; null: always SimGrid messages). */
  LatencyRings* tail_rings = nullptr;
  simgrid::s4u::BarrierPtr barrier;      ///< the job's end-of-iteration barrier (its ranks only)
  std::vector<double> iteration_end_s;   ///< simulated time at which each iteration's barrier released
  std::vector<double> iteration_start_s; ///< simulated time at which each iteration began (its rank 0)
  std::vector<std::pair<double, int>> checkpoints;  ///< (time written, iterations it holds), see JobSpec::checkpoint
  double start_s = 0;                    ///< when its ranks begin (SimOptions::job_starts)
  int first_iteration = 0;               ///< iterations done before this run (SimOptions::job_starts)
  const IslandPlan* islands = nullptr;   ///< DiLoCo islands (null: every step synchronous across all replicas)
  /** @brief Simulation rank of one of the job's own ranks (-1 stays -1: no such neighbour). */
  int global(int local_rank) const { return local_rank < 0 ? -1 : offset + local_rank; }
  /** @brief The job's ranks of a group, as simulation ranks. */
  std::vector<int> global(std::vector<int> local_ranks) const {
    for (int& r : local_ranks) r += offset;
    return local_ranks;
  }
};

/** @brief State shared by all rank actors of one simulation (owned by simulate()). Per-rank vectors are indexed by
 *  simulation rank (every job's ranks, job after job). */
struct SimShared {
  std::vector<JobRun> jobs;
  std::vector<int> job_of_rank;
  std::vector<double> flops_scale_of_rank;  ///< see SgPlatform::flops_scale (and the job's own GPU speed)
  std::vector<double> exec_bound_of_rank;   ///< see SgPlatform::exec_bound
  std::vector<int> region_of_rank;
  MessageFabric* fabric = nullptr;
  std::vector<RankLedger> ledgers;       ///< one per rank
  bool record_spans = false;
  bool outer_step = false;               ///< SimOptions::outer_step: the outer all-reduce only
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
  /** @param rank the simulation rank (its job's rank plus the job's offset). */
  RankActor(int rank, SimShared& shared)
      : rank_(rank), shared_(&shared), job_(&shared.jobs[shared.job_of_rank[rank]]), local_(rank - job_->offset) {}
  void operator()();

 private:
  void compute(double flops, const char* what, int mb);
  CommTag tp_tag(char dir, int mb, int layer, int idx) const;
  /** @brief One TP all-reduce as SimGrid messages (the per-message path). */
  void tp_allreduce(const CommTag& tag);
  /** @brief Appends to body_ a compute step (skipped if flops <= 0) or a TP all-reduce (skipped if tp = 1). */
  void add_compute(double flops, const char* what);
  void add_tp_allreduce(char dir, int mb, int layer, int idx);
  /** @brief The re-run of one layer's forward at the start of its backward (activation recomputation). */
  void add_recompute_layer(int mb, int layer);
  /** @brief Runs the compute and TP steps of a forward or backward between its pipeline receive and send: in
   *  closed form for a private TP group (PrivateRings::run_body), else step by step. */
  void run_body(const std::vector<BodyStep>& body, int mb);
  void pp_receive(int src, const char* what, int mb);
  /** @brief Sends one micro-batch's activation ('a', forward) or gradient ('g', backward) to dst: eager (handed
   *  to the connection's courier) when p2p is overlapped, else blocking until the message has left. */
  void pp_send(int dst, char dir, int mb, int chunk);
  /** @brief Blocking p2p only: Megatron's batched send_forward_recv_backward / send_backward_recv_forward: sends
   *  (dir, mb) to `peer` and receives the input of the next op (from `from`, micro-batch next_mb) at once. */
  void pp_exchange(int peer, char dir, int mb, int from, const char* what, int next_mb);
  /** @brief The rank holding the virtual stage `step` (+1 / -1) away from this rank's model chunk `chunk`
   *  (interleaved 1F1B: the last stage's chunk c feeds the first stage's chunk c + 1); -1 past either end. Without
   *  interleaving, the next / previous pipeline stage. */
  int chunk_neighbour(int chunk, int step) const;
  /** @brief Runs op `op`; `next` is the rank's following op in the iteration (nullptr after the last one). */
  void forward(const PipeOp& op, const PipeOp* next);
  void backward(const PipeOp& op, const PipeOp* next);
  void span(const std::string& name, const char* cat, double start_s, double end_s);
  /** @brief DiLoCo's outer step: this rank's slice of the pseudo-gradient all-reduced across islands (if its
   *  replica takes part). */
  void outer_allreduce();
  /** @brief After the DP all-reduce, Megatron's finalize and step: the tied-embedding all-reduce between the first
   *  and the last stage, the gradient norm's all-reduce over the model-parallel group, the optimizer step, and the
   *  job's framework overhead (compute_efficiency.hpp). */
  void iteration_tail(const std::vector<int>& mp_group);

  int rank_;          ///< simulation rank (fabric, ledgers, recorder)
  SimShared* shared_;
  JobRun* job_;
  int local_;         ///< the rank inside its job (plan, costs, tags)
  Endpoint* ep_ = nullptr;
  RankCoord coord_;
  const StageCost* work_ = nullptr;  ///< this rank's stage as its GPU runs it (JobRun::stages)
  std::vector<int> tp_group_;
  std::vector<BodyStep> body_;  ///< the op being run (reused)
  bool blocking_p2p_ = false;
  int received_act_mb_ = -1;   ///< blocking p2p: micro-batch whose activation an exchange already received
  int received_grad_mb_ = -1;  ///< blocking p2p: micro-batch whose gradient an exchange already received
};

}  // namespace hulk
