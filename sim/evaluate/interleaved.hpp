#pragma once
/** @file interleaved.hpp
 *  @brief What interleaved 1F1B (JobSpec::virtual_stages) changes in the analytic evaluator's pipeline inputs: a
 *  hand-off boundary from the last stage back to the first, and per-chunk op times. Pure code. */
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Hand-off boundaries of one pipeline replica: pp - 1, or with virtual stages pp (boundary pp - 1 joins the
 *  last stage to the first: the last stage's model chunk c feeds the first stage's chunk c + 1). */
int handoff_boundaries(const JobSpec& job);

/** @brief The receiving stage of boundary b (b + 1, or 0 for the boundary back to the first stage). */
inline int boundary_receiver(int boundary, int pp) { return (boundary + 1) % pp; }

/** @brief Splits one stage's op times (all its layers, and on the last stage the logits: logits_fwd_s forward, twice
 *  that backward) into its `chunks` model chunks' op times: each chunk runs 1 / chunks of the layers, the last chunk
 *  the logits too. fwd_out / bwd_out receive `chunks` entries each. */
void chunk_op_times(double fwd_s, double bwd_s, double logits_fwd_s, int chunks, double* fwd_out, double* bwd_out);

}  // namespace hulk
