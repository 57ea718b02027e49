#pragma once
/** @file evaluator_scratch.hpp
 *  @brief The buffers one Evaluator estimate works in (EvaluatorScratch). The Evaluator itself holds only what
 *  construction precomputed and never changes during an estimate; everything an estimate writes is here, so one
 *  Evaluator serves several threads at once when each passes its own scratch. A scratch may serve evaluators of
 *  different scenarios one after another (EvaluatorCore::prepare resizes it); between estimates it holds no result
 *  that a later estimate reads (link counters and loads are back at zero, link renames at -1). */
#include <cstddef>
#include <utility>
#include <vector>

#include "sim/evaluate/iteration_tail.hpp"
#include "sim/evaluate/pipeline_critical_path.hpp"
#include "sim/evaluate/pipeline_memo.hpp"
#include "sim/evaluate/region_blocks.hpp"
#include "sim/evaluate/transfer_fluid.hpp"
#include "sim/topology/route_model.hpp"

namespace hulk {

/** @brief Rings of hosts stored back to back (no allocation once grown), each with its chunk size and steps. */
struct RingSet {
  std::vector<int> members;       ///< hosts of every ring, ring after ring
  std::vector<int> begin{0};      ///< ring r is members[begin[r], begin[r + 1])
  std::vector<double> chunk_bytes;  ///< per ring
  std::vector<int> steps;           ///< per ring
  /** @brief Forgets every ring (buffers are kept). */
  void clear();
  /** @brief Adds a ring of n hosts. */
  void add(const int* hosts, int n, double chunk, int n_steps);
  /** @brief Number of rings. */
  int size() const { return static_cast<int>(steps.size()); }
};

/** @brief One thread's working memory for Evaluator estimates (see the file comment). Default-constructed empty;
 *  the Evaluator sizes it on first use. Not for two threads at once. Members keep the names they had as the
 *  Evaluator's members; each part's header (tp_rings.hpp, replica_pipelines.hpp, ...) says which it writes. */
struct EvaluatorScratch {
  /** @brief The (links, stages x replicas, windowed) this scratch is sized for (EvaluatorCore::prepare); -1 = none. */
  long long shape[3] = {-1, -1, -1};
  std::vector<Route> routes_;  ///< concurrent_times: each transfer's route
  std::vector<int> emb_src_, emb_dst_;  ///< finish_iteration: the embedding rings' hops
  std::vector<double> tail_scratch_;  ///< per stage, end of its DP all-reduce (evaluate_hosts)
  std::vector<double> emb_hop_s_;     ///< finish_iteration: the embedding rings' hop times
  TailScratch tail_ring_scratch_;     ///< finish_iteration: iteration_end_with_tail's buffers
  std::vector<int> link_count_;
  std::vector<double> extra_load_;           ///< background flows per link (DP overlap refinement), else 0
  std::vector<std::vector<int>> dp_groups_;  ///< DP groups of one stage (scratch)
  std::vector<double> ring_time_;             ///< TP all-reduce time per replica (scratch)
  std::vector<int> src_, dst_;
  std::vector<double> times_, lat_buf_;
  std::vector<double> ring_scratch_;  ///< ring_steps_s's per-step times
  std::vector<double> tp_clock_;      ///< per TP rank: its clock through one op (scratch)
  TransferFluid fluid_;                ///< tree all-reduces (scratch)
  std::vector<int> tree_up_, tree_down_, tree_first_, member_hosts_;
  std::vector<double> fwd_, bwd_;                        ///< op times per (stage, replica)
  /** @brief Per (stage, replica): the logits' forward time inside fwd_ (twice that in bwd_), which interleaved 1F1B
   *  runs with the last model chunk only (interleaved.hpp). */
  std::vector<double> logits_f_;
  std::vector<double> lat_f_, xfer_f_, lat_b_, xfer_b_;  ///< hand-off latency/transfer per (boundary, replica)
  std::vector<double> xfer_f_free_, xfer_b_free_;  ///< approximation 6: the transfers before the DP load
  /** @brief Per hand-off (boundary, replica), with a TCP window: PipelineLinks::headroom_* (else empty). */
  std::vector<double> room_f_, room_b_, room_f_free_, room_b_free_, sroom_f_, sroom_b_;
  std::vector<double> room_, group_room_;  ///< pp_handoffs: concurrent_times' headroom (scratch)
  PipelineScratch pipe_scratch_;
  std::vector<double> dp_s_;  ///< DP all-reduce time per stage
  std::vector<int> links_f_, links_b_, slinks_f_, slinks_b_;  ///< hand-off route link ids (3 per entry)
  /** @brief Per hand-off route link: the flows the replica's hand-off (its tp transfers) puts on it. */
  std::vector<int> weights_f_, weights_b_, sweights_f_, sweights_b_;
  /** @brief Per hand-off route link: its capacity per flow of the hand-off over the route's tightest such
   *  capacity (PipelineLinks::route_slack_*; 1 on the bottleneck). */
  std::vector<double> slack_f_, slack_b_, sslack_f_, sslack_b_;
  std::vector<double> sf_, sb_, slf_, sxf_, slb_, sxb_, last_end_;  ///< one group's inputs/outputs
  std::vector<int> group_parent_, group_members_, group_first_, group_of_;  ///< replica_groups (scratch)
  std::vector<int> group_src_, group_dst_;  ///< pp_handoffs: a larger group's transfers (scratch)
  std::vector<double> group_times_;         ///< their times (scratch)
  std::vector<int> link_owner_;  ///< replica_groups: per link, the first replica using it (-1 = none)
  std::vector<double> stage_done_;            ///< per stage: max over replicas of last backward end
  std::vector<double> replica_done_;          ///< per (stage, replica): its pipeline's end at that stage
  PipelineMemoKey pipe_key_;        ///< scratch: the key being looked up
  std::vector<int> link_rename_;  ///< scratch: link id -> its first-use name (-1 = unseen)
  std::vector<double> member_start_;          ///< scratch: per DP member, when it enters the all-reduce
  RingSet hier_local_, hier_cross_, hier_fallback_;  ///< hierarchical all-reduce phases (scratch)
  std::vector<std::pair<int, int>> dp_hops_;  ///< dp_phase_hops: one phase's hops (scratch)
  std::vector<int> hier_order_, cross_ring_;  ///< its grouping's hosts (scratch)
  RegionBlocks region_blocks_;  ///< hierarchical: a DP group's members region by region (scratch)
  std::vector<double> bytes_each_;  ///< rings_phase_s: chunk bytes per transfer (scratch)
  std::vector<int> ring_of_;        ///< rings_phase_s: ring of each transfer (scratch)
  std::vector<double> dp_iso_;      ///< refine_dp_overlap: per-stage DP times in isolation (scratch)
  std::vector<int> touched_links_;  ///< refine_dp_overlap: links given background load (scratch)
  std::vector<int> dp_ring_links_, dp_ring_links_first_;  ///< refine_dp_overlap: DP ring links per stage
  std::vector<int> dp_flow_links_, dp_flow_first_;  ///< dp_link_flows: links of stage s in [first[s], first[s+1])
  std::vector<double> tp_all_hops_, tp_all_lat_;  ///< tp_hop_times: every stage's TP hop times (scratch)
  /// With a TCP window and several channels: each TP hop's and each DP ring hop's headroom (RingModel), else empty.
  std::vector<double> tp_all_room_, ring_room_;
  std::vector<double> tp_duty_;                    ///< tp_hop_times: per stage, its all-reduce duty (scratch)
  std::vector<double> bound_round_trip_, bound_f_end_;  ///< time_lower_bound_of_hosts (scratch)
  std::vector<double> bound_done_, bound_op_end_, bound_entered_, bound_hop_;  ///< time_lower_bound_of_hosts (scratch)
  std::vector<double> bound_link_work_;  ///< time_lower_bound_of_hosts: bytes per link id, 0 between calls
  std::vector<int> bound_links_;         ///< time_lower_bound_of_hosts: the links with work (scratch)
  bool dp_flows_ready_ = false;  ///< dp_link_flows done for the placement evaluate_hosts is evaluating
  std::vector<double> dp_flow_counts_;               ///< dp_link_flows: flows on each of those links
  std::vector<int> dp_link_slot_;                    ///< dp_link_flows: per link, its entry (scratch)
};

}  // namespace hulk
