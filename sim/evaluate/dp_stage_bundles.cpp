// Approximation 3's per-stage fallback for ring all-reduces: every stage's ring alone (dp_s_ on entry), then the
// stages whose all-reduces overlap in time share their links as bundles (stage_sharing.hpp). A ring's hops wait for
// each other and for latencies, so a stage puts on each link, per ring hop crossing it, its mean rate alone (the
// bytes each hop moves over its time alone), not the link's rate while a chunk is in flight: a latency-bound ring
// leaves the link to the others most of the time. A stage that finishes frees its share. With a load fixed for the
// whole all-reduce instead (the other stages' rings weighted by their overlap), greedy's placement of the `larger`
// family's seed 3119 (15 stages of 12 replicas) came out 30% above SimGrid: its first and last stages, still in
// their all-reduce after the others finished, kept paying for links the others had freed.
#include <algorithm>
#include <limits>

#include "sim/evaluate/evaluator.hpp"

namespace hulk {

void Evaluator::share_ring_stages(const std::vector<int>& host_of_rank) const {
  const Parallelism& par = scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  StageBundles& b = bundles_;
  b.clear();
  std::vector<int>& name = bundle_link_name_;  // network link id -> its number in b (-1 = not yet used)
  if (static_cast<int>(name.size()) != network_->links()) name.assign(network_->links(), -1);
  std::vector<int>& used = touched_links_;  // network links in the order they got their number
  used.clear();
  std::vector<int>& entry = dp_link_slot_;  // per network link: its entry in the current stage (-1 = none)
  if (static_cast<int>(entry.size()) != network_->links()) entry.assign(network_->links(), -1);
  for (int s = 0; s < P; ++s) {
    const int from = static_cast<int>(b.link.size());
    double cap = std::numeric_limits<double>::infinity();
    for (int t = 0; t < T; ++t)
      for (int d = 0; d < D; ++d) {
        const Route& r =
            network_->route(host_of_rank[plan_.rank_of(s, d, t)], host_of_rank[plan_.rank_of(s, (d + 1) % D, t)]);
        for (int k = 0; k < r.n_links; ++k) {
          const int l = r.links[k];
          if (name[l] < 0) {
            name[l] = static_cast<int>(b.capacity.size());
            b.capacity.push_back(link_capacity_Bps(l));
            used.push_back(l);
          }
          if (entry[l] < 0) {
            entry[l] = static_cast<int>(b.link.size());
            b.link.push_back(name[l]);
            b.flows.push_back(0.0);
          }
          b.flows[entry[l]] += 1.0;
        }
      }
    for (int e = from; e < static_cast<int>(b.link.size()); ++e) entry[used[b.link[e]]] = -1;
    // Its mean rate per hop alone: the ring's 2(D-1)/D of the buffer over its time alone.
    const double bytes_per_hop = 2.0 * (D - 1) / D * cost_.stages[s].dp_grad_bytes;
    if (dp_s_[s] > 0) cap = bytes_per_hop / dp_s_[s];
    b.first.push_back(static_cast<int>(b.link.size()));
    b.rate_cap.push_back(cap);
    b.start.push_back(stage_done_[s]);
    b.alone.push_back(dp_s_[s]);
    b.fixed.push_back(0.0);  // the latencies are in the mean rate
  }
  for (int l : used) name[l] = -1;
  used.clear();
  shared_stage_times(b, bundle_scratch_, dp_iso_);
  dp_s_ = dp_iso_;
}

}  // namespace hulk
