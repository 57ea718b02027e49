#pragma once
/** @file evaluator_bound.hpp
 *  @brief The Evaluator's lower bound (Evaluator::time_lower_bound_of_hosts; evaluator_bound.cpp says why it
 *  bounds): every replica's fill, busiest stage and drain with hand-offs at their alone times, then each DP member's
 *  sends at the routes' alone rates. */
#include <vector>

#include "sim/evaluate/evaluator_core.hpp"

namespace hulk::eval {
/** @brief A lower bound of the estimate of host_of_rank (+infinity where that is); see Evaluator. */
double time_lower_bound_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank);

/** @brief The lower bound's DP part: the least end of every stage's all-reduces, each member entering no earlier
 *  than done[stage * dp + replica] (evaluator_bound.cpp). */
double dp_lower_bound_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank,
                        const std::vector<double>& done);
/** @brief One DP group's all-reduce (hosts of its n members, member i entering it no earlier than entered[i]): the
 *  least time any of the estimates (per stage, or the all-stage fluid) gives its last arrival, each member's sends
 *  one after another but for the connection's channels, each at its route's alone rate. Adds the bytes the
 *  group's transfers put on each link to bound_link_work_, and 1 to `phased` if it runs the hierarchical phases
 *  (a balanced hierarchical group, in one region or several) (evaluator_bound.cpp). */
double dp_group_lower_bound_s(const EvaluatorCore& core, EvaluatorScratch& w, const int* hosts, const double* entered,
                              int n, double bytes, int& phased);
/** @brief The busiest link's PP hand-off work (s): the bytes every replica's messages put on it over the
 *  iteration (m per direction and boundary, each its flows on the link x pp_message_bytes) over its capacity.
 *  Needs the hand-offs of pp_handoffs(); 0 where the pipelines are not all simulated jointly (evaluator_bound.cpp). */
double handoff_link_work_s(const EvaluatorCore& core, EvaluatorScratch& w);
/** @brief Adds `bytes` to bound_link_work_ on every link of route r. */
void add_link_work(const EvaluatorCore& core, EvaluatorScratch& w, const Route& r, double bytes);
/** @brief The busiest link of bound_link_work_ (bytes): its bytes over its capacity (s); clears the work. */
double busiest_link_s(const EvaluatorCore& core, EvaluatorScratch& w);
/** @brief Seconds to send `bytes` over route r with no other flow on it (latency excluded): the least any
 *  estimate gives (flow cap, TCP window, the links' capacities under share_links). */
double alone_transfer_s(const EvaluatorCore& core, const Route& r, double bytes);

}  // namespace hulk::eval
