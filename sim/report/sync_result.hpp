#pragma once
/** @file sync_result.hpp
 *  @brief The outer round of a DiLoCo job (JobSpec::sync) from its two simulations: one of its inner
 *  iterations (each island's DP among its own replicas) and one outer all-reduce alone.
 *
 *  round = H t_inner + t_outer without overlap; with overlap: outer, max(H t_inner, t_outer): exact where the outer
 *  all-reduce and the inner steps share no link (else optimistic: their traffic would slow each other). H inner
 *  iterations take H t_inner: inner iterations end at a barrier and are identical, so one simulated iteration times
 *  H is exact for the simulator's model. */
#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief The result JSON of a DiLoCo job: the inner run's keys, objective_s = round / H (the time per step the
 *  placers compare), and "sync": {algorithm, inner_steps, islands, replicas_per_island, slices, compression,
 *  bytes_per_value, overlap, inner_iteration_s, outer_allreduce_s, round_s, compute_time_share (compute time over
 *  the round's wall time), mfu (model FLOP/s over the round, over the GPUs' peak), inner_time_share (inner steps
 *  over wall time), wan_bytes_per_round,
 *  tokens_per_round, wan_bytes_per_token, outer_state_bytes_per_rank}. */
nlohmann::json diloco_result_json(const Scenario& scenario, const Placement& placement, const nlohmann::json& inner,
                                  const nlohmann::json& outer);

}  // namespace hulk
