#pragma once
/** @file pipeline_critical_path.hpp
 *  @brief Per-stage operation order of the GPipe and 1F1B pipeline schedules and the critical-path makespan of one
 *  pipeline given per-stage op times. Pure code, shared by the analytic evaluator and the lower bound. */
#include <string>
#include <vector>

namespace hulk {

/** @brief One pipeline operation: forward or backward of a micro-batch. */
struct StageOp {
  bool backward = false;
  int mb = 0;
};

/** @brief Op order of every stage, identical to simcore's pipeline_schedule() (sim/pipeline_schedule.hpp on the
 *  simcore branch; duplicated here in the evaluator's layout, all stages at once). gpipe: F0..F(m-1) then B0..B(m-1) (Megatron pops activations FIFO);
 *  1f1b (Megatron non-interleaved): w = min(p-s-1, m) warm-up forwards, then (F(w+i), B(i)) for i < m-w, then
 *  the remaining backwards. Any other name is treated as 1f1b (the scenario loader validates names). */
std::vector<std::vector<StageOp>> stage_op_orders(const std::string& schedule, int stages, int micro_batches);

/** @brief Reusable buffers of pipeline_makespan_s (avoids allocations in hot loops). */
struct PipelineScratch {
  std::vector<double> f_end, b_end;
  std::vector<size_t> next;
  std::vector<double> clock;
};

/** @brief Critical path of one pipeline: F(s,j) starts after the stage's previous op and after F(s-1,j) ended
 *  plus comm_fwd_s[s-1]; B(s,j) after the previous op and after B(s+1,j) ended plus comm_bwd_s[s] (the last stage's
 *  B(j) follows its own F(j) through the op order). Sends are asynchronous (never delay the sender).
 *  @param fwd_s,bwd_s per-stage op durations (s); @param comm_fwd_s,comm_bwd_s per boundary s (s -> s+1 and
 *  s+1 -> s), p-1 entries (s); @param last_end_s if non-null, receives per stage the end of its last op (s).
 *  @return end of the last op over all stages (s). The result is monotone non-decreasing in every input. */
double pipeline_makespan_s(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
                           const double* comm_fwd_s, const double* comm_bwd_s, double* last_end_s,
                           PipelineScratch& scratch);

}  // namespace hulk
