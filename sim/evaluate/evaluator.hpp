#pragma once
/** @file evaluator.hpp
 *  @brief Fast analytic estimate of one training iteration's time for a placement (alpha-beta costs with link
 *  sharing counted per link). Used by the search placer and greedy; final numbers always come from SimGrid.
 *
 *  What it mirrors (the program the simulator runs, sim/engine/rank_actor.cpp and collectives.cpp):
 *  - per micro-batch and layer, forward = compute(layer_fwd_flops/2), TP all-reduce, compute(/2), TP all-reduce;
 *    backward = (recomputation: recompute_layer_flops, with full recompute its 2 TP all-reduces) then twice the
 *    flops with 2 TP all-reduces per layer; logits flops (extra_fwd_flops) once forward and twice backward;
 *  - the engine's communication model: messages of one kind from one rank to one peer go in order over
 *    network.channels_per_peer channels (a message starts transmitting when an earlier one has LEFT the sender);
 *    under CM02 the route latency is applied at the receiver after the transfer (so queued messages pipeline their
 *    latency), otherwise it comes first and a message leaves when it arrives; network.tcp_window_bytes caps every
 *    flow at window / (2 x route latency);
 *  - pp_message_bytes to the next stage after each forward and to the previous stage after each backward:
 *    overlapped p2p (GPipe's default) = eager sends through a per-connection queue that never block compute;
 *    blocking p2p (1F1B's default, JobSpec::pipeline_p2p_blocking) = Megatron's rendezvous transfers, blocking
 *    sends, and send_forward_recv_backward / send_backward_recv_forward exchanges between a forward and a backward;
 *  - pipeline schedule GPipe (all forwards, then all backwards in micro-batch order, as Megatron's FIFO), 1F1B
 *    (Megatron non-interleaved: min(p-s-1, m) warm-up forwards, then one-forward-one-backward, then cool-down) or
 *    interleaved 1F1B (JobSpec::virtual_stages: per-chunk ops, the last stage handing off to the first, eager p2p;
 *    interleaved.hpp);
 *  - after a rank's last op (and p2p waits), the DP all-reduce of dp_grad_bytes among its DP group (all tp indices
 *    of the stage), then the end of the iteration (barrier): iteration = max over stages of the DP end.
 *
 *  Approximations (each is a deliberate trade of accuracy for fast evaluations):
 *  1. Bandwidth sharing: a transfer's share of a link = link bandwidth / number of flows counted on that directed
 *     link; a transfer takes latency + bytes / (min share over its links, flow cap). This is the max-min fair share
 *     only when the most loaded link is every flow's bottleneck; otherwise it is pessimistic. Flows counted
 *     together: a TP ring hop over all TP groups of its stage (the dp replicas run in lockstep), with the other
 *     stages' TP rings as load weighted by their all-reduce duty and pipeline occupancy (tp_hops.cpp); a PP
 *     hand-off over the tp ranks of one replica's stage boundary (then shared with every hand-off in flight at the
 *     same time, approximation 5); the DP transfers in flight at the same time (approximation 3); the DP all-reduces of
 *     stages that finished early on the hand-offs of the others (approximation 7). PP messages during TP
 *     all-reduces, and hand-offs slowing DP, are NOT counted.
 *  2. Ring all-reduce over n ranks of S bytes: 2(n-1) steps of S/n simulated per rank as collectives.cpp runs
 *     them: a rank sends chunk q once it received chunk q-1 and its connection is free (in order), receives are
 *     posted 8 steps ahead (rendezvous). Equal hops give the closed form 2(n-1)(a + S/(nB)). Hop times are fixed
 *     for the whole all-reduce (shares of approximation 1).
 *  3. DP all-reduces (ring, hierarchical as collectives.cpp: by region, balanced groups reduce-scatter inside
 *     regions, cross-region rings, all-gather inside regions; unbalanced groups one region-ordered ring; tree:
 *     binary tree over dp order, whole buffers up then down) of all stages in one fluid simulation of their
 *     transfers: a member enters when its replica's pipeline ends at its stage, a transfer starts once both ends
 *     are there and its dependencies are met, and transfers in flight share links (approximation 1 as a
 *     processor-sharing fluid). Above a size (trees: 1,024 transfers; rings: 128, or one stage) each stage's DP time
 *     is estimated alone with all members starting together, then recomputed once with the other stages' DP rings
 *     (in dp order, whatever the algorithm) as background flows on their links, weighted by the fraction of the
 *     interval they overlap.
 *  4. Op times: per (stage, replica), each TP rank computes at its own GPU's speed and leaves each all-reduce when
 *     its own chunks are done (approximation 2 with per-rank start times), so consecutive all-reduces overlap
 *     across ranks; simulated over 3 layers and extrapolated linearly from the last one. Equal hops and GPUs: the
 *     lock-step closed form. The op time is the slowest rank's; the skew it leaves is not carried into the next op.
 *  5. PP: the dp replicas' pipelines are an event simulation of their stages (one rank per stage, the slowest of the
 *     boundary's tp transfers for every hand-off) with the p2p mode, in-order connections and latency placement
 *     above; messages in flight share the links of their routes by processor sharing, each counting its tp flows on
 *     them; under a TCP window a window-bound message keeps its capped rate while its links' fair share stays above
 *     it (PipelineLinks::headroom_*; sharing as if uncapped is far too slow behind a 4 MB window). Replicas whose hand-offs share a link (directly or through others) are simulated
 *     together, so replicas that drift apart share only when their messages overlap; the others alone; equal
 *     replicas on the same links as one, its flows counted once per replica (the same result). Groups above
 *     kJointReplicas count every replica's hand-off of a boundary as simultaneous (lockstep sharing: pessimistic
 *     on large 1F1B jobs, blind to other replicas' hand-offs of other boundaries on the same link).
 *  7. DP during the pipeline: a stage's DP all-reduce starts at its own end, while other stages may still be in
 *     their pipeline. When that happens the pipeline is computed again (once) with every earlier-ending stage's DP
 *     flows as background load on each PP boundary's hand-off links (each phase's flows per link, weighted by the
 *     share of the boundary's window [0, its stage's end] that all-reduce covers), then the DP times again from the
 *     new stage ends (dp_pipeline_overlap.cpp). The reverse (hand-offs slowing DP) is not counted.
 *  6. Memory: with job.check_memory, a rank whose stage peak memory exceeds its GPU memory makes the placement
 *     infeasible: time = +infinity and feasible = false.
 *  Not modelled: SimGrid's bandwidth/latency factors of models other than CM02, cross traffic.
 *  Only a rank's HOST matters (all GPUs of a host are identical), so the core API takes host indices. */
#include <limits>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "sim/workload/compute_efficiency.hpp"
#include "sim/evaluate/iteration_tail.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/topology/route_model.hpp"
#include "sim/evaluate/pipeline_critical_path.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/evaluate/region_blocks.hpp"
#include "sim/evaluate/ring_steps.hpp"
#include "sim/evaluate/evaluator_scratch.hpp"
#include "sim/evaluate/transfer_fluid.hpp"
#include "sim/workload/plan.hpp"
#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Where the estimated iteration time goes (seconds). */
struct EvalBreakdown {
  double iteration_time_s = std::numeric_limits<double>::infinity();  ///< estimate; +inf if infeasible
  bool feasible = false;        ///< false: some rank's stage does not fit its GPU (or malformed placement)
  int infeasible_rank = -1;     ///< first rank that does not fit (-1 if none)
  double pipeline_s = 0;        ///< end of the last backward over all stages and replicas
  double compute_s = 0;         ///< max over (stage, replica) of pure compute per iteration (m micro-batches)
  double tp_comm_s = 0;         ///< max over (stage, replica) of TP all-reduce time per iteration
  double pp_hop_s = 0;          ///< slowest single PP hand-off (one micro-batch, one boundary, one direction)
  double dp_comm_s = 0;         ///< DP all-reduce time of the stage that finishes last
  double bubble_s = 0;          ///< pipeline_s minus the busiest (stage, replica)'s busy time
  IterationCosts iteration_costs;  ///< the tail after the DP all-reduces (iteration_tail.hpp)
};

/** @brief The route model an Evaluator of the scenario builds (its platform, scaled by network_model_factors() of
 *  its network model), to share among evaluators and placers of one scenario. */
std::shared_ptr<const RouteModel> analytic_route_model(const Scenario& scenario);

/** @brief Analytic iteration-time estimator. Construction precomputes everything placement-independent
 *  (JobCost, plan, route tables, GPU speeds, schedule); an estimate writes only into an EvaluatorScratch
 *  (evaluator_scratch.hpp). Threads: the calls that take a scratch are safe on one Evaluator from several threads,
 *  each with its own scratch; the calls without one share the Evaluator's own scratch (one thread at a time);
 *  set_pipeline_cache and share_links are not to be called while another thread estimates. */
class Evaluator {
 public:
  /** @brief Precomputes cost model, routes and schedule for the scenario's job and platform.
   *  @param network the platform's route model if the caller has one (it depends on the platform only, and at
   *  1,024 hosts takes longer to build than a hundred evaluations: placers that build several evaluators of one
   *  scenario share one); nullptr = built here, scaled by network_model_factors() of the scenario's network model
   *  (the evaluator's figures are SimGrid's under that model). @throws std::invalid_argument if network has another
   *  number of hosts than the platform, or other factors. */
  explicit Evaluator(const Scenario& scenario, std::shared_ptr<const RouteModel> network = nullptr);

  /** @brief Estimated iteration time (s) of a placement; +infinity if infeasible (memory) or malformed. */
  double iteration_time_s(const Placement& placement) const;
  /** @brief Estimated time and breakdown of a placement. */
  EvalBreakdown evaluate(const Placement& placement) const;
  /** @brief Same, from the host index of every rank (rank order). The fast path used by search. */
  EvalBreakdown evaluate_hosts(const std::vector<int>& host_of_rank) const {
    return evaluate_hosts(host_of_rank, scratch_);
  }
  /** @brief evaluate_hosts in the caller's scratch: safe to call from several threads at once on one Evaluator,
   *  each thread with its own scratch (while no thread calls set_pipeline_cache or share_links). The same bits as
   *  evaluate_hosts(host_of_rank). */
  EvalBreakdown evaluate_hosts(const std::vector<int>& host_of_rank, EvaluatorScratch& scratch) const;
  /** @brief A lower bound of time_of_hosts() (+infinity where that is), for a fraction of its cost: every replica's
   *  pipeline fill, its busiest stage's ops and the drain of that stage's last gradient, each hand-off at its alone
   *  time (no link sharing), and after it each DP member's sends of its all-reduce at the routes' alone rates
   *  (evaluator_bound.cpp says why it bounds). Placers that keep the best of
   *  many candidates skip those whose bound is not below the best time so far: the same answer, fewer evaluations. */
  double time_lower_bound_of_hosts(const std::vector<int>& host_of_rank) const {
    return time_lower_bound_of_hosts(host_of_rank, scratch_);
  }
  /** @brief time_lower_bound_of_hosts in the caller's scratch (thread-safe as evaluate_hosts with a scratch). */
  double time_lower_bound_of_hosts(const std::vector<int>& host_of_rank, EvaluatorScratch& scratch) const;
  /** @brief time_lower_bound_of_hosts of a placement's hosts. */
  double time_lower_bound(const Placement& placement) const;
  /** @brief Keep replica pipelines across evaluations and evaluators (default, PipelineMemo::process()) or only
   *  within one evaluation (off: every
   *  evaluation computes its pipelines, as a benchmark of one placement evaluated again and again needs). The
   *  results are the same either way, bit for bit. */
  void set_pipeline_cache(bool across_evaluations);
  /** @brief Only the time, from host indices (+infinity if infeasible). */
  double time_of_hosts(const std::vector<int>& host_of_rank) const {
    return evaluate_hosts(host_of_rank).iteration_time_s;
  }

  /** @brief Other jobs on the same links (sim/evaluate/jobs_evaluator.hpp): while set, every estimate divides the
   *  capacity of link l by (*divisors)[l] (>= 1, indexed by network() link id). The vector is not copied and must
   *  outlive its use; nullptr (the default) = the links carry this job alone, the one-job estimate bit for bit. */
  void share_links(const std::vector<double>* divisors) { link_divisors_ = divisors; }

  /** @brief True if rank's stage fits the memory of a GPU of host (always true without job.check_memory). */
  bool fits(int rank, int host) const;
  /** @brief True if stage s fits the memory of a GPU of host (always true without job.check_memory). */
  bool stage_fits(int stage, int host) const;
  /** @brief Achieved flop/s of one GPU of a host (peak x utilisation). */
  double gpu_speed_flops(int host) const { return speed_[host]; }

  /** @brief Time (s) of concurrent ring all-reduces of `bytes` each over the given host rings (every ring the same
   *  size), sharing links (approximations 1 and 2); 0 without a ring of 2 or more. */
  double concurrent_rings_s(const std::vector<std::vector<int>>& host_rings, double bytes) const {
    prepare(scratch_);
    return ring_allreduce_s(scratch_, host_rings, bytes);
  }
  const JobCost& cost() const { return cost_; }
  const ParallelPlan& plan() const { return plan_; }
  const RouteModel& network() const { return *network_; }
  /** @brief The route model, to share with another Evaluator of the same platform. */
  std::shared_ptr<const RouteModel> shared_network() const { return network_; }
  const Scenario& scenario() const { return scenario_; }

 private:
  /** @brief Sizes w for this evaluator (nothing if it already is). */
  void prepare(EvaluatorScratch& w) const;
  /** @brief Host index of every rank of a placement (only a rank's host matters here). */
  static std::vector<int> host_indices(const Placement& placement);
  /** @brief Times of concurrent transfers src[i] -> dst[i] of `bytes` each, sharing links (approximation 1).
   *  @param headroom if non-null, receives per transfer how much faster it would go without the TCP window: its
   *  share without the window over its share (1 when the window does not bind it). */
  void concurrent_times(EvaluatorScratch& w, const int* src, const int* dst, int n, double bytes, double* out,
                        const double* bytes_each = nullptr, double* headroom = nullptr) const;
  /** @brief Concurrent rings (each: steps x its slowest hop of its chunk bytes), time of the slowest ring. */
  double rings_phase_s(EvaluatorScratch& w, const RingSet& rings) const;
  /** @brief From stage_done_ and dp_s_: each stage's DP end, then the iteration's tail (iteration_tail.hpp, the
   *  embedding rings' hops sharing their links); sets out.iteration_time_s, dp_comm_s and iteration_costs. */
  void finish_iteration(EvaluatorScratch& w, const std::vector<int>& host_of_rank, EvalBreakdown& out) const;
  /** @brief DP all-reduce time of one stage (all tp groups concurrently). */
  double dp_allreduce_s(EvaluatorScratch& w, int stage, const std::vector<int>& host_of_rank) const;
  /** @brief DP all-reduces of all stages in one fluid simulation, each from its stage's end (stage_done_); fills
   *  dp_s_. False (nothing done) when the job has too many DP transfers for it. */
  bool dp_allreduces_from_stage_ends(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const;
  /** @brief Approximation 3 (fallback): recomputes each stage's DP time with the overlapping stages' DP rings as
   *  load. */
  void refine_dp_overlap(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const;
  double ring_allreduce_s(EvaluatorScratch& w, const std::vector<std::vector<int>>& rings, double bytes) const;
  double tree_allreduce_s(EvaluatorScratch& w, const std::vector<std::vector<int>>& groups, double bytes) const;
  double hierarchical_allreduce_s(EvaluatorScratch& w, const std::vector<std::vector<int>>& groups, double bytes) const;
  /** @brief False if host_of_rank is malformed or a rank's stage does not fit its GPU (then sets
   *  out.infeasible_rank). */
  bool hosts_fit(const std::vector<int>& host_of_rank, EvalBreakdown& out) const;
  /** @brief Forward/backward op time of every (stage, replica) with its TP all-reduces (fwd_, bwd_); m =
   *  micro-batches. */
  void stage_op_times(EvaluatorScratch& w, const std::vector<int>& host_of_rank, int m, EvalBreakdown& out) const;
  /** @brief stage_op_times' forward and backward op time of replica d of stage s whose TP ranks differ in GPU speed
   *  or ring hops (hop, lat: its ranks' hop times and latencies). */
  void skewed_op_times(EvaluatorScratch& w, int s, int d, const std::vector<int>& host_of_rank, const double* hop, const double* lat,
                       double& fwd, double& bwd) const;
  /** @brief Time and latency of every TP ring hop of every stage (tp_all_hops_, tp_all_lat_; approximation 1). */
  void tp_hop_times(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const;
  /** @brief Latency, transfer time and links of every PP hand-off (lat_*, xfer_*, links_*); with_dp_load: the DP
   *  all-reduces of the last pass (stage_done_, dp_s_, dp_link_flows) weigh on the hand-offs' links
   *  (approximation 7). */
  void pp_handoffs(EvaluatorScratch& w, const std::vector<int>& host_of_rank, EvalBreakdown& out, bool with_dp_load = false) const;
  /** @brief One DP group's all-reduce (hosts of its n members, member i entering it no earlier than entered[i]): the
   *  least time any of the estimates (per stage, or the all-stage fluid) gives its last arrival, each member's sends
   *  one after another but for the connection's channels, each at its route's alone rate. Adds the bytes the
   *  group's transfers put on each link to bound_link_work_, and 1 to `phased` if it runs the hierarchical phases
   *  (a balanced hierarchical group, in one region or several) (evaluator_bound.cpp). */
  double dp_group_lower_bound_s(EvaluatorScratch& w, const int* hosts, const double* entered, int n, double bytes, int& phased) const;
  /** @brief The busiest link of bound_link_work_ (bytes): its bytes over its capacity (s); clears the work. */
  double busiest_link_s(EvaluatorScratch& w) const;
  /** @brief True when the DP all-reduces are estimated in the all-stage fluid (dp_allreduces_from_stage_ends), false
   *  when stage by stage (too many transfers for the fluid). */
  bool dp_fluid_applies() const;
  /** @brief The busiest link's PP hand-off work (s): the bytes every replica's messages put on it over the
   *  iteration (m per direction and boundary, each its flows on the link x pp_message_bytes) over its capacity.
   *  Needs the hand-offs of pp_handoffs(); 0 where the pipelines are not all simulated jointly (evaluator_bound.cpp). */
  double handoff_link_work_s(EvaluatorScratch& w) const;
  /** @brief Adds `bytes` to bound_link_work_ on every link of route r. */
  void add_link_work(EvaluatorScratch& w, const Route& r, double bytes) const;
  /** @brief Link l's capacity (B/s) for this job: divided by its divisor while share_links is set. */
  double link_capacity_Bps(int l) const {
    return link_divisors_ ? network_->link_bandwidth_Bps(l) / (*link_divisors_)[l] : network_->link_bandwidth_Bps(l);
  }
  /** @brief Seconds to send `bytes` over route r with no other flow on it (latency excluded): the least any
   *  estimate gives (flow cap, TCP window, the links' capacities under share_links). */
  double alone_transfer_s(const Route& r, double bytes) const;
  /** @brief The lower bound's DP part: the least end of every stage's all-reduces, each member entering no earlier
   *  than done[stage * dp + replica] (evaluator_bound.cpp). */
  double dp_lower_bound_s(EvaluatorScratch& w, const std::vector<int>& host_of_rank, const std::vector<double>& done) const;
  /** @brief Every stage's DP time (dp_s_) from stage_done_ / replica_done_ (approximation 3). */
  void dp_times(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const;
  /** @brief True when some stage's DP all-reduce starts while another stage is still in its pipeline. */
  bool dp_overlaps_pipeline(EvaluatorScratch& w) const;
  /** @brief Per stage, the directed links its DP all-reduce uses and its flows on each (dp_flow_*). */
  void dp_link_flows(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const;
  /** @brief Appends to dp_hops_ the (host, host) hops of DP group (stage s, tp rank t) in phase 0 or 1 of its
   *  all-reduce (dp_link_flows). */
  void dp_phase_hops(EvaluatorScratch& w, const std::vector<int>& host_of_rank, int s, int t, int phase) const;
  /** @brief Adds to extra_load_ the DP flows that overlap PP boundary `boundary`'s hand-offs in time (weighted by
   *  the overlap's share of the boundary's window). */
  void add_handoff_dp_load(EvaluatorScratch& w, int boundary) const;
  /** @brief Zeroes extra_load_ on the links add_handoff_dp_load touched. */
  void clear_extra_load(EvaluatorScratch& w) const;
  /** @brief Critical path of every replica's pipeline: out.pipeline_s, out.bubble_s and stage_done_. */
  void replica_pipelines(EvaluatorScratch& w, int m, EvalBreakdown& out) const;
  /** @brief Makespan (and last_end_, replica-major) of the pipelines of replicas[0..n) computed together, each
   *  message's flows counted `multiplicity` times (PipelineLinks::flow_multiplicity): computed,
   *  or taken from an earlier group of this evaluation with the same inputs up to the naming of links. */
  double group_makespan_s(EvaluatorScratch& w, const int* replicas, int n, int multiplicity) const;
  /** @brief group_makespan_s' inputs of replicas[0..n), replica-major: sf_, sb_, slf_ ... sroom_b_ (PipelineLinks). */
  void gather_group_inputs(EvaluatorScratch& w, const int* replicas, int n) const;
  /** @brief True if replicas[0..n) have equal op times, hand-off costs, links and weights (they run in lockstep). */
  bool replicas_identical(EvaluatorScratch& w, const int* replicas, int n) const;
  /** @brief pp_handoffs: times_ of the boundary's transfers in src_/dst_, shared within each replica (groups of
   *  up to kJointReplicas) or within the whole group (larger groups). */
  void handoff_times_by_group(EvaluatorScratch& w) const;
  /** @brief pp_handoffs: replica d's flows on each link of `route` (joint), or 1 per link of it (larger group). */
  void handoff_weights(EvaluatorScratch& w, int d, const Route& route, bool joint, int* weights) const;
  /** @brief pp_handoffs: each link's slack (slack_f_) on `route` for a hand-off of these weights. */
  void handoff_slack(const Route& route, const int* weights, double* slack) const;
  /** @brief Groups the replicas whose hand-offs share links (group_members_, group_first_, group_of_). */
  void replica_groups(EvaluatorScratch& w, const std::vector<int>& host_of_rank) const;
  /** @brief Largest group of replicas simulated together (approximation 5): the joint run's cost grows with its
   *  events (replicas x messages) times the messages on each link they change (up to the replicas); larger groups
   *  share each boundary's hand-offs as if in lockstep. 32 covers the sampled 128-256-GPU jobs of LargerClusters;
   *  unbounded, flat-1024's 64 replicas made greedy's placement take 22 s (hulk bench) instead of 0.5 s. */
  static constexpr int kJointReplicas = 32;

  Scenario scenario_;
  JobCost cost_;
  StagesByHost stages_;             ///< the stages as each host's GPUs run them (compute_efficiency.hpp)
  ParallelPlan plan_;
  std::shared_ptr<const RouteModel> network_;  ///< never null
  std::vector<double> speed_;       ///< per host, flop/s per GPU
  std::vector<double> memory_;      ///< per host, bytes per GPU
  std::vector<std::vector<StageOp>> schedule_;  ///< per stage, op order
  bool schedule_chained_ = false;  ///< every stage's ops start with F 0 and end with B m-1 (time_lower_bound_of_hosts)
  int channels_ = 1;                 ///< network.channels_per_peer
  bool latency_at_receiver_ = true;  ///< CM02: the engine applies route latencies at the receiver
  double tcp_window_bytes_ = 0;      ///< network.tcp_window_bytes x the latency factor (0 = no cap)
  const std::vector<double>* link_divisors_ = nullptr;  ///< share_links: per-link capacity divisors, or none
  /** @brief The scratch of the calls without one (evaluate_hosts(hosts) ...): those are for one thread at a time. */
  mutable EvaluatorScratch scratch_;

  /** @brief Whether ring hops need their headroom (RingModel::headroom): a TCP window and several channels. */
  bool rings_use_headroom() const { return tcp_window_bytes_ > 0 && channels_ > 1; }
  /** @brief The ring model of the DP ring whose first hop is transfer `first` of ring_room_ (if filled). */
  RingModel ring_model(const EvaluatorScratch& w, size_t first) const {
    return {channels_, latency_at_receiver_, w.ring_room_.empty() ? nullptr : w.ring_room_.data() + first};
  }
  /** @brief replica_pipelines: computed replica pipelines with their inputs (pipeline_memo.hpp), the process's
   *  cache shared by every Evaluator (an annealing move changes a few ranks, so most groups of the next evaluation
   *  were seen in the previous one; other placers' candidates hold the same pipelines), or with set_pipeline_cache
   *  off this evaluator's own, emptied at each evaluation. A hit returns the bits the computation would. */
  std::shared_ptr<PipelineMemo> own_memo_;  ///< set_pipeline_cache(false): this evaluator's cache, else null
  PipelineMemo* pipe_memo_ = nullptr;       ///< the cache in use
  int schedule_id_ = 0;                     ///< PipelineMemo::schedule_id of schedule_
};

}  // namespace hulk
