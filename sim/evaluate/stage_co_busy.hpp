#pragma once
/** @file stage_co_busy.hpp
 *  @brief How much of one stage's busy time another stage is busy too, from the schedule alone (approximation 1 of
 *  docs/model.md: other stages' tensor-parallel rings weigh on a link only while those stages run ops). */
#include <vector>

#include "sim/evaluate/pipeline_critical_path.hpp"

namespace hulk {

/** @brief A backward's cost in forwards in stage_co_busy's pipeline, as EvaluatorCore builds it: its compute is
 *  twice the forward's (the gradients of the inputs and of the weights). Cost 1 (all-reduces as long in both
 *  directions) puts the WAN clusters' p90 (pair, EvaluatorAccuracy.SampledClusters*) at 6.1% instead of 4.4%. */
constexpr double kUnitBackwardCost = 2.0;

/** @brief co[s * p + o]: the share of stage s's busy time during which stage o runs an op too, in the pipeline of
 *  `schedule` (per stage, its op order; one model chunk per stage) with every forward taking 1, every backward
 *  `backward_cost`, and hand-offs free. Empty when the schedule has model chunks (interleaved) or one stage. */
std::vector<double> stage_co_busy(const std::vector<std::vector<StageOp>>& schedule, double backward_cost);

}  // namespace hulk
