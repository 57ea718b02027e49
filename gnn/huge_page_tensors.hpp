#pragma once
/** @file huge_page_tensors.hpp
 *  @brief Torch's CPU tensors of 2 MiB or more on transparent huge pages. */

namespace hulk::gnn {

/** @brief Makes torch allocate CPU tensors through an allocator that advises the kernel to back those of
 *  >= 2 MiB with transparent huge pages (sim/core/huge_page_allocator.hpp says why: THP defaults to `madvise` on
 *  Debian, and a fresh 4 KiB page per fault made the page faults of a 1,024-node graph's forward pass a third of a
 *  GNN placement's time). Smaller tensors keep torch's 64-byte alignment. Contents and results are unchanged.
 *  Idempotent; call before the first tensor is made (tensors made before keep their own deleter either way). */
void use_huge_page_tensors();

}  // namespace hulk::gnn
