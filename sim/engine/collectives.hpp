#pragma once
/** @file collectives.hpp
 *  @brief All-reduce algorithms as real point-to-point messages between rank actors (no closed forms):
 *  - ring: reduce-scatter then all-gather around the group, 2(n-1) steps of S/n bytes;
 *  - hierarchical: intra-region ring reduce-scatter (k-1 steps of S/k), inter-region ring all-reduce of the
 *    k shards among members with the same local index (k concurrent rings of R members, 2(R-1) steps of
 *    S/(kR)), intra-region ring all-gather. Regions = region of each member's host, ordered by first appearance
 *    in group order; members inside a region keep group order. Fallback when regions hold unequal numbers of
 *    members: one ring over the group re-ordered region by region (still a correct all-reduce that crosses each
 *    region boundary once per direction);
 *  - tree: binary tree over group order (member i has children 2i+1, 2i+2), whole-buffer (not pipelined)
 *    reduce to member 0 followed by a whole-buffer broadcast.
 *  Every call must be made by every member with the same arguments. */
#include <string>
#include <vector>

#include <simgrid/s4u/Semaphore.hpp>

namespace hulk {

/** @brief Receives kept posted ahead per ring member (NCCL's step slots, NCCL_STEPS = 8). Bounded rather than "all
 *  steps" because SimGrid scans a per-actor list of unfinished activities on every completion, which dominated the
 *  1,024-GPU benchmark. Sends need no window of their own: Endpoint::send keeps them in order on the connection to
 *  the next member (a chunk starts when the previous one has left). private_ring.cpp follows the same rules. */
constexpr int kRingRecvWindow = 8;

class Endpoint;
struct CommTag;

/** @brief Members (positions in the group) grouped per region, as the hierarchical all-reduce uses them. */
struct HierarchicalLayout {
  std::vector<std::vector<int>> blocks;  ///< positions per region, regions in order of first appearance
  bool balanced = true;                  ///< every region holds the same number of members
};

/** @brief Groups member positions by region (pure). */
HierarchicalLayout hierarchical_layout(const std::vector<int>& region_of_member);

/** @brief All-reduce of `bytes` over `members` (global ranks, in group order) with algorithm "ring",
 *  "hierarchical" or "tree". region_of_member[i] = region of members[i]'s host (used by "hierarchical").
 *  Blocks the calling rank actor until its part is done. */
void allreduce(Endpoint& ep, const std::string& algorithm, const std::vector<int>& members,
               const std::vector<int>& region_of_member, double bytes, const CommTag& tag);

/** @brief Reduce-scatter or all-gather of `bytes` in all (each member ends with, or starts from, bytes / n) over
 *  `members` in ring order: n-1 steps of bytes / n, the traffic of either (NCCL's ring). */
void ring_half_allreduce(Endpoint& ep, const std::vector<int>& members, double bytes, const CommTag& tag);

/** @brief Largest number of pipeline chunks of tree_allreduce; chunks are at least kTreeMinChunkBytes. More chunks
 *  fill the pipeline faster and cost one SimGrid message each. */
constexpr int kTreeMaxChunks = 256;
constexpr double kTreeMinChunkBytes = 512.0 * 1024;  ///< NCCL's tree step size with its default 4 MiB buffer

/** @brief One phase of one of the two trees of NCCL's double binary tree all-reduce, on `bytes` (half the buffer):
 *  a chain through each node's GPUs (local 0 first, the one that talks to the other nodes) and a binary tree over
 *  the nodes, in order for tree 0 (node p's children 2p+1, 2p+2) and in reverse order for tree 1, so that a node
 *  that is a leaf in one tree is inner in the other. Phase 0 (reduce) sends the chunks up (kTreeMaxChunks,
 *  kTreeMinChunkBytes), each after the children's; phase 1 (broadcast) sends them down, at the root each after
 *  `root_ready` is released by the root's reduce (once per chunk). Each (tree, phase) runs as its own set of ranks
 *  (NCCL's channels: their own connections), so the reduce and the broadcast overlap as in NCCL, on opposite
 *  directions of each link. members_by_node[i] = this set's ranks of node i, local 0 first. */
void tree_allreduce_phase(Endpoint& ep, const std::vector<std::vector<int>>& members_by_node, double bytes, int tree,
                          int phase, const simgrid::s4u::SemaphorePtr& root_ready, const CommTag& tag);

}  // namespace hulk
