#pragma once
/** @file single_thread.hpp
 *  @brief Torch's intra-op thread count held at one for a scope. */
#include <ATen/Parallel.h>

namespace hulk::gnn {

/** @brief One intra-op thread while it lives, the previous count restored after. Why: torch splits large reductions
 *  (means, index_add over a graph's edges) across its threads, and how it splits depends on the thread count; with
 *  one thread they always sum in the same order, so training and inference give the same bytes on any machine
 *  whatever its cores (determinism). The graphs are small enough that one thread loses nothing measurable. */
class SingleThread {
 public:
  SingleThread() : previous_(at::get_num_threads()) {
    if (previous_ != 1) at::set_num_threads(1);
  }
  ~SingleThread() {
    if (previous_ != 1) at::set_num_threads(previous_);
  }
  SingleThread(const SingleThread&) = delete;
  SingleThread& operator=(const SingleThread&) = delete;

 private:
  int previous_;
};

}  // namespace hulk::gnn
