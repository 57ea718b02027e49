#include "gnn/blas_threads.hpp"

// Weak: resolved when the OpenBLAS that libtorch loads is there, null with another BLAS library.
extern "C" void openblas_set_num_threads(int threads) __attribute__((weak));

namespace hulk::gnn {

void use_one_blas_thread() {
  if (openblas_set_num_threads != nullptr) openblas_set_num_threads(1);
}

}  // namespace hulk::gnn
