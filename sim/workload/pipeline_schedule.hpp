#pragma once
/** @file pipeline_schedule.hpp
 *  @brief Order of forward/backward micro-batch passes of one pipeline stage (GPipe and 1F1B). Pure code. */
#include <string>
#include <vector>

namespace hulk {

/** @brief One pass of one micro-batch on one stage. */
struct PipeOp {
  bool forward = true;  ///< true = forward pass, false = backward pass
  int micro_batch = 0;  ///< 0-based micro-batch index
  int chunk = 0;        ///< model chunk of the stage (interleaved 1F1B; 0 otherwise)
};

/** @brief The passes stage `stage` (0-based) of a `stages`-deep pipeline runs in one iteration of
 *  `micro_batches` micro-batches.
 *  - "gpipe": all forwards F0..F(m-1), then all backwards B0..B(m-1) (Megatron's "no pipelining" order; backward
 *    order does not change the time of uniform stages and keeps pipeline messages FIFO per rank pair).
 *  - "1f1b": Megatron non-interleaved: warm-up of min(p-i-1, m) forwards, steady state one forward then one
 *    backward, cool-down backwards.
 *  - "1f1b" with virtual_stages v > 1: Megatron's interleaved schedule (forward_backward_pipelining_with_interleaving):
 *    the stage holds v model chunks (chunk c is virtual stage c x stages + stage); its m x v chunk passes run in
 *    groups of `stages` micro-batches per chunk, warm-up (stages - stage - 1) x 2 + (v - 1) x stages forwards (all of
 *    them when m = stages), then one forward one backward, then the cool-down backwards.
 *  @throws std::invalid_argument on an unknown schedule name (validated earlier by the scenario parser). */
std::vector<PipeOp> pipeline_schedule(const std::string& schedule, int stages, int stage, int micro_batches,
                                      int virtual_stages = 1);

/** @brief Largest number of micro-batches whose forward is done and backward not yet, over the schedule: the
 *  activations a stage holds at its peak. */
int max_in_flight(const std::vector<PipeOp>& ops);

}  // namespace hulk
