#include "sim/workload/pipeline_schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace hulk {

namespace {

/** Megatron-LM forward_backward_pipelining_with_interleaving: chunk pass k (0 <= k < m v) of a stage runs model chunk
 *  (k mod p v) / p (reversed for backwards) on micro-batch (k / p v) x p + k mod p. */
std::vector<PipeOp> interleaved_schedule(int p, int stage, int m, int v) {
  const int total = m * v;
  // m = p: Megatron runs every forward first (all_warmup_microbatches).
  const int warmup = m == p ? total : std::min((p - stage - 1) * 2 + (v - 1) * p, total);
  const auto op = [&](int k, bool forward) {
    const int in_group = k % (p * v), chunk = in_group / p;
    return PipeOp{forward, (k / (p * v)) * p + k % p, forward ? chunk : v - 1 - chunk};
  };
  std::vector<PipeOp> ops;
  for (int k = 0; k < warmup; ++k) ops.push_back(op(k, true));
  for (int k = 0; k < total - warmup; ++k) {
    ops.push_back(op(warmup + k, true));
    ops.push_back(op(k, false));
  }
  for (int k = total - warmup; k < total; ++k) ops.push_back(op(k, false));
  return ops;
}

}  // namespace

std::vector<PipeOp> pipeline_schedule(const std::string& schedule, int stages, int stage, int micro_batches,
                                      int virtual_stages) {
  if (virtual_stages > 1) {
    if (schedule != "1f1b") throw std::invalid_argument("virtual stages need the 1f1b schedule, not '" + schedule + "'");
    return interleaved_schedule(stages, stage, micro_batches, virtual_stages);
  }
  std::vector<PipeOp> ops;
  const int m = micro_batches;
  if (schedule == "gpipe") {
    for (int k = 0; k < m; ++k) ops.push_back({true, k, 0});
    for (int k = 0; k < m; ++k) ops.push_back({false, k, 0});
    return ops;
  }
  if (schedule != "1f1b") throw std::invalid_argument("unknown pipeline schedule '" + schedule + "'");
  // Megatron-LM forward_backward_pipelining_without_interleaving.
  const int warmup = std::min(stages - stage - 1, m);
  const int steady = m - warmup;
  int next_fwd = 0, next_bwd = 0;
  for (int k = 0; k < warmup; ++k) ops.push_back({true, next_fwd++, 0});
  for (int k = 0; k < steady; ++k) {
    ops.push_back({true, next_fwd++, 0});
    ops.push_back({false, next_bwd++, 0});
  }
  while (next_bwd < m) ops.push_back({false, next_bwd++, 0});
  return ops;
}

int max_in_flight(const std::vector<PipeOp>& ops) {
  int live = 0, peak = 0;
  for (const PipeOp& op : ops) {
    live += op.forward ? 1 : -1;
    peak = std::max(peak, live);
  }
  return peak;
}

}  // namespace hulk
