#include "sim/engine/collectives.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sim/engine/sg_endpoint.hpp"

namespace hulk {
namespace {

/** `steps` ring steps of `chunk_bytes`: send to the next member, receive from the previous, each send after the
 *  previous step's receive (the data dependency of reduce-scatter/all-gather). Receives are posted ahead so a
 *  transfer starts when its sender is ready. A member that joins late finds its predecessor's chunks waiting and
 *  forwards them in order, one after another, so the ring keeps its pipelining. */
void ring_steps(Endpoint& ep, const std::vector<int>& ring, double chunk_bytes, int steps, const CommTag& tag) {
  const int n = static_cast<int>(ring.size());
  if (n < 2 || steps <= 0) return;
  const int pos = static_cast<int>(std::find(ring.begin(), ring.end(), ep.rank()) - ring.begin());
  const int next = ring[(pos + 1) % n], prev = ring[(pos + n - 1) % n];
  std::vector<PendingRecv>& recvs = ep.scratch_recvs;
  recvs.clear();
  recvs.resize(steps);  // sized before posting: posted receives must not move
  for (int s = 0; s < steps && s < kRingRecvWindow; ++s) ep.post_recv(prev, recvs[s]);
  for (int s = 0; s < steps; ++s) {
    ep.send(next, chunk_bytes, tag);
    ep.complete(recvs[s]);
    if (s + kRingRecvWindow < steps) ep.post_recv(prev, recvs[s + kRingRecvWindow]);
  }
  ep.wait_sends();
}

void ring_allreduce(Endpoint& ep, const std::vector<int>& ring, double bytes, const CommTag& tag) {
  const int n = static_cast<int>(ring.size());
  ring_steps(ep, ring, bytes / n, 2 * (n - 1), tag);
}

void hierarchical_allreduce(Endpoint& ep, const std::vector<int>& members, const std::vector<int>& regions,
                            double bytes, const CommTag& tag) {
  const HierarchicalLayout layout = hierarchical_layout(regions);
  if (!layout.balanced) {
    std::vector<int> ring;
    for (const auto& block : layout.blocks)
      for (int p : block) ring.push_back(members[p]);
    ring_allreduce(ep, ring, bytes, tag);
    return;
  }
  const int R = static_cast<int>(layout.blocks.size());
  const int k = static_cast<int>(layout.blocks[0].size());
  int my_block = -1, my_local = -1;
  for (int b = 0; b < R && my_block < 0; ++b)
    for (int j = 0; j < k; ++j)
      if (members[layout.blocks[b][j]] == ep.rank()) {
        my_block = b;
        my_local = j;
        break;
      }
  std::vector<int> local_ring, cross_ring;
  for (int p : layout.blocks[my_block]) local_ring.push_back(members[p]);
  for (int b = 0; b < R; ++b) cross_ring.push_back(members[layout.blocks[b][my_local]]);
  ring_steps(ep, local_ring, bytes / k, k - 1, tag);                // reduce-scatter inside the region
  ring_steps(ep, cross_ring, bytes / (k * R), 2 * (R - 1), tag);    // all-reduce of my shard across regions
  ring_steps(ep, local_ring, bytes / k, k - 1, tag);                // all-gather inside the region
}

void tree_allreduce(Endpoint& ep, const std::vector<int>& members, double bytes, const CommTag& tag) {
  const int n = static_cast<int>(members.size());
  const int i = static_cast<int>(std::find(members.begin(), members.end(), ep.rank()) - members.begin());
  const int parent = i == 0 ? -1 : members[(i - 1) / 2];
  std::vector<int> children;
  for (int c : {2 * i + 1, 2 * i + 2})
    if (c < n) children.push_back(members[c]);
  // Different mailboxes (child->me for the reduce, parent->me for the broadcast): post everything up front.
  std::vector<PendingRecv> from_children(children.size());
  for (size_t c = 0; c < children.size(); ++c) ep.post_recv(children[c], from_children[c]);
  PendingRecv from_parent;
  if (parent >= 0) ep.post_recv(parent, from_parent);
  for (auto& r : from_children) ep.complete(r);
  if (parent >= 0) {
    ep.send(parent, bytes, tag);
    ep.complete(from_parent);
  }
  for (int c : children) ep.send(c, bytes, tag);
  ep.wait_sends();
}

/** One rank's neighbours in one of the two trees of double_tree_allreduce. */
struct TreeLinks {
  int parent = -1;
  std::vector<int> children;
};

/** Rank (node, local)'s links in tree t (0: nodes in order, 1: nodes in reverse order). */
TreeLinks tree_links(const std::vector<std::vector<int>>& by_node, int node, int local, int t) {
  TreeLinks l;
  const std::vector<int>& mine = by_node[node];
  if (local + 1 < static_cast<int>(mine.size())) l.children.push_back(mine[local + 1]);
  if (local > 0) {
    l.parent = mine[local - 1];
    return l;
  }
  const int n = static_cast<int>(by_node.size());
  const auto node_at = [&](int pos) { return t == 0 ? pos : n - 1 - pos; };
  const int pos = t == 0 ? node : n - 1 - node;
  if (pos > 0) l.parent = by_node[node_at((pos - 1) / 2)][0];
  for (int c : {2 * pos + 1, 2 * pos + 2})
    if (c < n) l.children.push_back(by_node[node_at(c)][0]);
  return l;
}

}  // namespace

void ring_half_allreduce(Endpoint& ep, const std::vector<int>& members, double bytes, const CommTag& tag) {
  const int n = static_cast<int>(members.size());
  ring_steps(ep, members, bytes / n, n - 1, tag);
}

void tree_allreduce_phase(Endpoint& ep, const std::vector<std::vector<int>>& members_by_node, double bytes, int tree,
                          int phase, const simgrid::s4u::SemaphorePtr& root_ready, const CommTag& tag) {
  int node = -1, local = -1;
  for (int i = 0; i < static_cast<int>(members_by_node.size()) && node < 0; ++i)
    for (int k = 0; k < static_cast<int>(members_by_node[i].size()); ++k)
      if (members_by_node[i][k] == ep.rank()) {
        node = i;
        local = k;
        break;
      }
  if (node < 0) throw std::logic_error("tree_allreduce_phase: the calling rank is not a member");
  const TreeLinks t = tree_links(members_by_node, node, local, tree);
  const int chunks = std::max(1, std::min(kTreeMaxChunks, static_cast<int>(bytes / kTreeMinChunkBytes)));
  const double chunk = bytes / chunks;
  const bool root = t.parent < 0;
  // Every receive is posted up front, so each transfer starts when its sender is ready; they never move once posted.
  const std::vector<int> from = phase == 0 ? t.children : root ? std::vector<int>{} : std::vector<int>{t.parent};
  std::vector<PendingRecv> recvs(from.size() * chunks);
  for (int c = 0; c < chunks; ++c)
    for (std::size_t k = 0; k < from.size(); ++k) ep.post_recv(from[k], recvs[c * from.size() + k]);
  for (int c = 0; c < chunks; ++c) {
    for (std::size_t k = 0; k < from.size(); ++k) ep.complete(recvs[c * from.size() + k]);
    if (phase == 0) {  // reduce: the children's chunks in, the partial sum up (the root hands it to its broadcast)
      if (root) root_ready->release();
      else ep.send(t.parent, chunk, tag);
    } else {  // broadcast: the result down
      if (root) root_ready->acquire();
      for (int child : t.children) ep.send(child, chunk, tag);
    }
  }
  ep.wait_sends();
}

HierarchicalLayout hierarchical_layout(const std::vector<int>& region_of_member) {
  HierarchicalLayout out;
  std::map<int, int> block_of_region;
  for (int p = 0; p < static_cast<int>(region_of_member.size()); ++p) {
    auto it = block_of_region.find(region_of_member[p]);
    if (it == block_of_region.end()) {
      it = block_of_region.emplace(region_of_member[p], static_cast<int>(out.blocks.size())).first;
      out.blocks.emplace_back();
    }
    out.blocks[it->second].push_back(p);
  }
  for (const auto& b : out.blocks) out.balanced = out.balanced && b.size() == out.blocks[0].size();
  return out;
}

void allreduce(Endpoint& ep, const std::string& algorithm, const std::vector<int>& members,
               const std::vector<int>& region_of_member, double bytes, const CommTag& tag) {
  if (members.size() < 2) return;
  if (algorithm == "ring") return ring_allreduce(ep, members, bytes, tag);
  if (algorithm == "hierarchical") return hierarchical_allreduce(ep, members, region_of_member, bytes, tag);
  if (algorithm == "tree") return tree_allreduce(ep, members, bytes, tag);
  throw std::invalid_argument("unknown collective '" + algorithm + "'");
}

}  // namespace hulk
