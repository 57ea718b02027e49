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

}  // namespace hulk
