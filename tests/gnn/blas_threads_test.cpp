// The BLAS pool at one thread (gnn/blas_threads.hpp): OpenBLAS's count drops to one, whatever it was.
#include <gtest/gtest.h>

#include "gnn/blas_threads.hpp"

extern "C" int openblas_get_num_threads() __attribute__((weak));
extern "C" void openblas_set_num_threads(int threads) __attribute__((weak));

namespace hulk::gnn {
namespace {

TEST(BlasThreads, OpenBlasRunsOneThreadWhateverItStartedWith) {
  if (openblas_get_num_threads == nullptr) GTEST_SKIP() << "torch is linked with another BLAS library than OpenBLAS";
  for (const int threads : {2, 4}) {  // as OpenBLAS starts on machines of two or four cores, whatever this one has
    openblas_set_num_threads(threads);
    use_one_blas_thread();
    use_one_blas_thread();  // idempotent
    EXPECT_EQ(openblas_get_num_threads(), 1) << "started with " << threads;
  }
}

}  // namespace
}  // namespace hulk::gnn
