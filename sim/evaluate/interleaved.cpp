#include "sim/evaluate/interleaved.hpp"

namespace hulk {

int handoff_boundaries(const JobSpec& job) {
  return job.virtual_stages > 1 ? job.par.pp : job.par.pp - 1;
}

void chunk_op_times(double fwd_s, double bwd_s, double logits_fwd_s, int chunks, double* fwd_out, double* bwd_out) {
  // The layers' part of an op time is linear in the layers (the evaluator's op times are: per-layer compute and TP
  // all-reduces, extrapolated linearly past three layers), so a chunk of layers / chunks takes that fraction of it.
  const double layers_f = (fwd_s - logits_fwd_s) / chunks, layers_b = (bwd_s - 2.0 * logits_fwd_s) / chunks;
  for (int c = 0; c < chunks; ++c) {
    const bool last = c == chunks - 1;
    fwd_out[c] = layers_f + (last ? logits_fwd_s : 0.0);
    bwd_out[c] = layers_b + (last ? 2.0 * logits_fwd_s : 0.0);
  }
}

}  // namespace hulk
