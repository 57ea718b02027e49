#pragma once
/** @file blas_threads.hpp
 *  @brief The BLAS library's own thread pool held at one thread. */

namespace hulk::gnn {

/** @brief With OpenBLAS (Debian's libtorch links it; tools/scripts/install-deps.sh installs its pthread build): one BLAS
 *  thread, openblas_set_num_threads(1). Why: OpenBLAS starts one thread per core, torch's intra-op thread count
 *  (single_thread.hpp) does not reach it, and how it splits a matrix product changes the sums' order: the committed
 *  model's scores on gpt3-6.7b-3d differed in their last bits between 1, 2, 3 and 4 threads (scratch check), so the
 *  same command could place differently on machines with other core counts. Also, in a process that loaded torch
 *  itself, the idle worker spun on sched_yield after each product, taking one of the two cores from the annealing
 *  runs that follow the inference. The products are small (graphs of at most a few thousand nodes, 64 hidden
 *  units); training on the 64-GPU family wrote the same bytes either way. With another BLAS library (no such
 *  symbol): nothing. Idempotent. */
void use_one_blas_thread();

}  // namespace hulk::gnn
