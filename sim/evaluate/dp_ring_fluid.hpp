#pragma once
/** @file dp_ring_fluid.hpp
 *  @brief Approximation 3 of docs/model.md above the transfer fluid's size: the ring and hierarchical DP all-reduces
 *  of every stage as units of a fluid simulation whose flows are whole rings (the stage's tensor indices in one unit
 *  when their phases line up, else one unit each). A unit runs its phases
 *  one after another (one ring; or, hierarchical by region as collectives.cpp runs it, the reduce-scatter inside the
 *  regions, the rings across them and the all-gather inside them). While a phase runs, each of its hops is one flow
 *  on the links it crosses, and the phase progresses at the rate 1 / (its rings' time with the hop times those
 *  flows give, eval::rings_phase_s). The first phase starts as early as its members' entries allow: its rings
 *  simulated step by step from each member's entry end as late as when started at (that end - their time from one
 *  common start), both at the hop times of the unit alone. Writes w.dp_s_. Buffers: w.dp_ring_fluid_. */
#include <vector>

#include "sim/evaluate/evaluator_core.hpp"

namespace hulk::eval {

/** @brief Whether dp_ring_fluid estimates the job's DP all-reduces: a ring or hierarchical collective over several
 *  stages and replicas (the caller tries the transfer fluid first). */
bool dp_ring_fluid_applies(const EvaluatorCore& core);

/** @brief Every stage's DP time (w.dp_s_, from w.stage_done_) from the fluid over rings, each unit's members
 *  entering at their replica's end (w.replica_done_). */
void dp_ring_fluid(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank);

}  // namespace hulk::eval
