#include "sim/workload/pipeline_schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace hulk {

std::vector<PipeOp> pipeline_schedule(const std::string& schedule, int stages, int stage, int micro_batches) {
  std::vector<PipeOp> ops;
  const int m = micro_batches;
  if (schedule == "gpipe") {
    for (int k = 0; k < m; ++k) ops.push_back({true, k});
    for (int k = 0; k < m; ++k) ops.push_back({false, k});
    return ops;
  }
  if (schedule != "1f1b") throw std::invalid_argument("unknown pipeline schedule '" + schedule + "'");
  // Megatron-LM forward_backward_pipelining_without_interleaving.
  const int warmup = std::min(stages - stage - 1, m);
  const int steady = m - warmup;
  int next_fwd = 0, next_bwd = 0;
  for (int k = 0; k < warmup; ++k) ops.push_back({true, next_fwd++});
  for (int k = 0; k < steady; ++k) {
    ops.push_back({true, next_fwd++});
    ops.push_back({false, next_bwd++});
  }
  while (next_bwd < m) ops.push_back({false, next_bwd++});
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
