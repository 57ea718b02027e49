#pragma once
/** @file replica_pipelines.hpp
 *  @brief The Evaluator's pipeline part: PP hand-offs priced per boundary and replica, replicas grouped by the
 *  links their hand-offs share, and each group's pipelines simulated together with their memo (approximation 5 of
 *  docs/model.md; pipeline_critical_path.hpp runs the event simulation, pipeline_memo.hpp keeps its results).
 *  Writes w.lat_*, w.xfer_*, w.links_*, w.weights_*, w.slack_*, w.room_*, w.stage_done_, w.replica_done_. */
#include <vector>

#include "sim/evaluate/evaluator_core.hpp"

namespace hulk::eval {
/** @brief Largest group of replicas simulated together (approximation 5): the joint run's cost grows with its
 *  events (replicas x messages) times the messages on each link they change (up to the replicas); larger groups
 *  share each boundary's hand-offs as if in lockstep. 32 covers the sampled 128-256-GPU jobs of LargerClusters;
 *  unbounded, flat-1024's 64 replicas made greedy's placement take 22 s (hulk bench) instead of 0.5 s. */
constexpr int kJointReplicas = 32;

/** @brief Latency, transfer time and links of every PP hand-off (lat_*, xfer_*, links_*); with_dp_load: the DP
 *  all-reduces of the last pass (stage_done_, dp_s_, dp_link_flows) weigh on the hand-offs' links
 *  (approximation 6). */
void pp_handoffs(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank,
                 EvalBreakdown& out, bool with_dp_load = false);
/** @brief pp_handoffs: times_ of the boundary's transfers in src_/dst_, shared within each replica (groups of
 *  up to kJointReplicas) or within the whole group (larger groups). */
void handoff_times_by_group(const EvaluatorCore& core, EvaluatorScratch& w);
/** @brief pp_handoffs: replica d's flows on each link of `route` (joint), or 1 per link of it (larger group). */
void handoff_weights(const EvaluatorCore& core, EvaluatorScratch& w, int d, const Route& route, bool joint,
                     int* weights);
/** @brief pp_handoffs: each link's slack (slack_f_) on `route` for a hand-off of these weights. */
void handoff_slack(const EvaluatorCore& core, const Route& route, const int* weights, double* slack);
/** @brief Groups the replicas whose hand-offs share links (group_members_, group_first_, group_of_). */
void replica_groups(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank);
/** @brief Critical path of every replica's pipeline: out.pipeline_s, out.bubble_s and stage_done_. */
void replica_pipelines(const EvaluatorCore& core, EvaluatorScratch& w, int m, EvalBreakdown& out);
/** @brief Makespan (and last_end_, replica-major) of the pipelines of replicas[0..n) computed together, each
 *  message's flows counted `multiplicity` times (PipelineLinks::flow_multiplicity): computed,
 *  or taken from an earlier group of this evaluation with the same inputs up to the naming of links. */
double group_makespan_s(const EvaluatorCore& core, EvaluatorScratch& w, const int* replicas, int n, int multiplicity);
/** @brief group_makespan_s' inputs of replicas[0..n), replica-major: sf_, sb_, slf_ ... sroom_b_ (PipelineLinks). */
void gather_group_inputs(const EvaluatorCore& core, EvaluatorScratch& w, const int* replicas, int n);
/** @brief True if replicas[0..n) have equal op times, hand-off costs, links and weights (they run in lockstep). */
bool replicas_identical(const EvaluatorCore& core, EvaluatorScratch& w, const int* replicas, int n);

}  // namespace hulk::eval
