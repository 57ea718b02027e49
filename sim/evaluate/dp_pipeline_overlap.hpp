#pragma once
/** @file dp_pipeline_overlap.hpp
 *  @brief The Evaluator's DP-during-pipeline part (approximation 6 of docs/model.md): the DP all-reduces of stages
 *  that finished early as load on the hand-offs of the stages still in their pipeline. Writes w.dp_flow_*,
 *  w.extra_load_ (back to zero after each boundary). */
#include <vector>

#include "sim/evaluate/evaluator_core.hpp"

namespace hulk::eval {

/** @brief True when some stage's DP all-reduce starts while another stage is still in its pipeline. */
bool dp_overlaps_pipeline(const EvaluatorCore& core, EvaluatorScratch& w);
/** @brief Per stage, the directed links its DP all-reduce uses and its flows on each (dp_flow_*). */
void dp_link_flows(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank);
/** @brief Appends to dp_hops_ the (host, host) hops of DP group (stage s, tp rank t) in phase 0 or 1 of its
 *  all-reduce (dp_link_flows). */
void dp_phase_hops(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank, int s, int t,
                   int phase);
/** @brief Adds to extra_load_ the DP flows that overlap PP boundary `boundary`'s hand-offs in time (weighted by
 *  the overlap's share of the boundary's window). */
void add_handoff_dp_load(const EvaluatorCore& core, EvaluatorScratch& w, int boundary);
/** @brief Zeroes extra_load_ on the links add_handoff_dp_load touched. */
void clear_extra_load(const EvaluatorCore& core, EvaluatorScratch& w);

}  // namespace hulk::eval
