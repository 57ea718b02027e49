// Approximation 6 of docs/model.md: the DP all-reduce of a stage that finished early shares links with the PP
// hand-offs of the stages still in their pipeline. Without it the evaluator prices those hand-offs as if the links
// were free, and a search finds placements that look fast and are not: on a 132-rank GPipe job of the `larger`
// design family (seed 900, 12 x 11 stages) the last stage's DP all-reduce started at 5.2 s over the WAN links the
// other stages' backward hand-offs used; SimGrid's pipeline ended at 32 s, the evaluator's at 9.8 s.
#include "sim/evaluate/dp_pipeline_overlap.hpp"

#include <algorithm>

#include "sim/evaluate/dp_allreduce.hpp"
#include "sim/evaluate/region_blocks.hpp"

namespace hulk::eval {

void dp_phase_hops(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank, int s, int t,
                   int phase) {
  // Phase 0: tree: reduce up the tree; ring: every hop; hierarchical: the rings in the regions (reduce-scatter,
  // and later the all-gather on the same hops). Phase 1: tree: broadcast down, the same edges reversed;
  // hierarchical: the rings across regions.
  const int D = core.scenario_.only_job().par.dp;
  const std::string& algo = core.scenario_.only_job().collective;
  std::vector<std::pair<int, int>>& hops = w.dp_hops_;
  std::vector<int>& hosts = w.member_hosts_;
  std::vector<int>& order = w.hier_order_;  // hosts of the members, region by region when hierarchical
  auto ring = [&](const int* members, int n) {
    if (n < 2) return;
    for (int i = 0; i < n; ++i) hops.emplace_back(members[i], members[(i + 1) % n]);
  };
  hosts.resize(D);
  for (int i = 0; i < D; ++i) hosts[i] = host_of_rank[core.plan_.rank_of(s, i, t)];
  if (algo == "tree") {  // children 2i+1, 2i+2
    for (int i = 1; i < D; ++i)
      hops.emplace_back(phase == 0 ? hosts[i] : hosts[(i - 1) / 2], phase == 0 ? hosts[(i - 1) / 2] : hosts[i]);
    return;
  }
  order.assign(hosts.begin(), hosts.end());
  int R = 1, k = D;
  if (algo == "hierarchical") {
    RegionBlocks& rb = w.region_blocks_;
    rb.group(*core.network_, hosts.data(), D);
    order.clear();
    for (int i : rb.order) order.push_back(hosts[i]);
    // Unbalanced: one ring over the members region by region.
    if (rb.balanced()) R = rb.regions, k = rb.per_region;
  }
  if (R == 1) {
    if (phase == 0) ring(order.data(), D);
    return;
  }
  if (phase == 0) {
    for (int b = 0; b < R; ++b) ring(order.data() + b * k, k);
    return;
  }
  std::vector<int>& cross = w.cross_ring_;
  cross.resize(R);
  for (int j = 0; j < k; ++j) {
    for (int b = 0; b < R; ++b) cross[b] = order[b * k + j];
    ring(cross.data(), R);
  }
}

void dp_link_flows(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank) {
  // Per stage, the flows its DP all-reduce puts on each directed link: its hops phase by phase (as collectives.cpp
  // runs them), each link counted with the largest number of its flows in any one phase (phases follow each other).
  // Once per placement: refine_dp_overlap and approximation 6 both use them, up to three times per evaluation.
  if (w.dp_flows_ready_) return;
  w.dp_flows_ready_ = true;
  const int P = core.scenario_.only_job().par.pp, T = core.scenario_.only_job().par.tp;
  w.dp_flow_links_.clear();
  w.dp_flow_counts_.clear();
  w.dp_flow_first_.assign(P + 1, 0);
  std::vector<int>& phase_count = w.link_count_;  // zero between uses (concurrent_times resets it too)
  std::vector<int>& touched = w.touched_links_;
  // Per link: its entry in the current stage's list, or -1 (every entry is -1 again between stages and calls).
  std::vector<int>& slot = w.dp_link_slot_;
  if (static_cast<int>(slot.size()) != core.network_->links()) slot.assign(core.network_->links(), -1);
  for (int s = 0; s < P; ++s) {
    w.dp_flow_first_[s] = static_cast<int>(w.dp_flow_links_.size());
    // The tp groups' all-reduces run at once: a phase's flows are those of every group (a link that eight groups'
    // rings cross carries eight flows, not the largest group's one).
    for (int phase = 0; phase < 2; ++phase) {
      w.dp_hops_.clear();
      for (int t = 0; t < T; ++t) dp_phase_hops(core, w, host_of_rank, s, t, phase);
      for (const auto& [a, b] : w.dp_hops_) {
        if (a == b) continue;
        const Route& r = core.network_->route(a, b);
        for (int k = 0; k < r.n_links; ++k)
          if (phase_count[r.links[k]]++ == 0) touched.push_back(r.links[k]);
      }
      // The phase ends: every link's count is a candidate for its stage's per-link maximum.
      for (int l : touched) {
        if (slot[l] < 0) {
          slot[l] = static_cast<int>(w.dp_flow_links_.size());
          w.dp_flow_links_.push_back(l);
          w.dp_flow_counts_.push_back(0.0);
        }
        double& flows = w.dp_flow_counts_[slot[l]];
        flows = std::max(flows, static_cast<double>(phase_count[l]));
        phase_count[l] = 0;
      }
      touched.clear();
    }
    for (int i = w.dp_flow_first_[s]; i < static_cast<int>(w.dp_flow_links_.size()); ++i)
      slot[w.dp_flow_links_[i]] = -1;
  }
  w.dp_flow_first_[P] = static_cast<int>(w.dp_flow_links_.size());
}

void add_handoff_dp_load(const EvaluatorCore& core, EvaluatorScratch& w, int boundary) {
  // Boundary b carries hand-offs until stage b's last backward (w.stage_done_[b]); stage o's DP flows weigh on it
  // with the fraction of that window its all-reduce [w.stage_done_[o], + w.dp_s_[o]] covers.
  const double window = w.stage_done_[boundary];
  if (window <= 0) return;
  for (int o = 0; o < core.scenario_.only_job().par.pp; ++o) {
    const double from = w.stage_done_[o], to = std::min(window, w.stage_done_[o] + w.dp_s_[o]);
    if (to <= from) continue;
    const double weight = (to - from) / window;
    for (int i = w.dp_flow_first_[o]; i < w.dp_flow_first_[o + 1]; ++i) {
      const int l = w.dp_flow_links_[i];
      if (w.extra_load_[l] == 0.0) w.touched_links_.push_back(l);
      w.extra_load_[l] += weight * w.dp_flow_counts_[i];
    }
  }
}

void clear_extra_load(const EvaluatorCore& /*core*/, EvaluatorScratch& w) {
  for (int l : w.touched_links_) w.extra_load_[l] = 0.0;
  w.touched_links_.clear();
}

bool dp_overlaps_pipeline(const EvaluatorCore& core, EvaluatorScratch& w) {
  const int P = core.scenario_.only_job().par.pp;
  if (P < 2 || core.scenario_.only_job().par.dp < 2) return false;
  const double last = *std::max_element(w.stage_done_.begin(), w.stage_done_.end());
  for (int s = 0; s < P; ++s)
    if (w.dp_s_[s] > 0 && w.stage_done_[s] < last) return true;
  return false;
}

}  // namespace hulk::eval
