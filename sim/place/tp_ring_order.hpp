#pragma once
/** @file tp_ring_order.hpp
 *  @brief Re-chaining each tensor-parallel group's ring over the same GPUs.
 *
 *  A TP group all-reduces as a ring in rank order (member t sends to member t + 1). When a group spans several
 *  hosts, the ring crosses a host boundary at every change of host along that order, and across regions the order
 *  decides which WAN links it crosses: a group over regions 4, 4, 6, 7 in that order crosses the slow pair 6-7,
 *  the order 4, 7, 4, 6 avoids it, with nothing else changed (TpRingOrder tests). The
 *  decoder's role counts (gnn/decode.hpp) cannot express it: they say how many GPUs of a stage a host holds, not
 *  the order of a group's members.
 *
 *  The re-chaining keeps every group's GPUs (so every host's load, memory and stage are unchanged) and reorders its
 *  members: the sequence of their hosts with the least proxy time, member 0's host kept first and each host's
 *  members in their own order. The proxy is the evaluator's ring alone on the network: every hop (member t to
 *  t + 1) sends one chunk (tp_allreduce_bytes / tp) at once, flows counted on the links they share, paced step by
 *  step as ring_steps.hpp paces a ring. Sequences may visit a host more than once: in the example, host 4 relays
 *  between 6 and 7. A group gets every sequence tried when there are at most kTpRingExactSequences, else its hosts
 *  are chained by nearest neighbour, each host's members together. The proxy ignores other traffic and the
 *  members' compute (DP rings pair members by index, so moving members changes them): the caller's cost function
 *  decides (fastest_tp_ring_order). */
#include <functional>

#include "sim/core/spec.hpp"
#include "sim/place/stage_order.hpp"

namespace hulk {

/** @brief A group gets every ring tried when its members' hosts have at most this many distinct sequences (member
 *  0's host first): any group of up to 7 members, and 8 members on at most 7 hosts; bounds the work per group. */
constexpr long kTpRingExactSequences = 2520;

/** @brief `placement` with every TP group re-chained (file comment); equal to it when no group gains by the proxy
 *  (jobs with tp = 1, groups on one host, rings already in their best order). Placements of another size than
 *  the job's ranks are returned as they are. Deterministic. network as in stage_order_candidates(). */
Placement tp_ring_rechained(const Scenario& scenario, const Placement& placement, const RouteModel* network = nullptr);

/** @brief The faster by `time_s` of `start` (whose time is start_time_s) and its re-chained form; `start` on ties
 *  (one evaluation at most, none when re-chaining changes nothing). network as in stage_order_candidates(). */
TimedPlacement fastest_tp_ring_order(const Scenario& scenario, const Placement& start, double start_time_s,
                                     const std::function<double(const Placement&)>& time_s,
                                     const RouteModel* network = nullptr);

}  // namespace hulk
