// Approximation 3 of docs/model.md above the transfer fluid's size (dp_ring_fluid.hpp). In SimGrid the members
// that enter early move the part of their ring that does not wait for the last one, the stages with small gradients
// leave the links to the large ones once done, and the stages whose all-reduces overlap for their whole length
// divide the links for their whole length. A fluid over rings follows the three for a few events per stage, where
// one over transfers costs the square of their number.
#include "sim/evaluate/dp_ring_fluid.hpp"

#include <algorithm>
#include <limits>

#include "sim/evaluate/dp_allreduce.hpp"
#include "sim/evaluate/region_blocks.hpp"

namespace hulk::eval {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/** Starts a new phase of the unit being built (its rings follow). */
RingSet& new_phase(DpRingFluidScratch& f, int& used) {
  if (static_cast<int>(f.phases.size()) <= used) {
    f.phases.emplace_back();
    f.member_start.emplace_back();
  }
  f.phases[used].clear();
  f.member_start[used].clear();
  return f.phases[used++];
}

/** Adds to phase k a ring of the members at positions order[first, first + n) (dp indices), chunk bytes, steps. */
void add_ring(DpRingFluidScratch& f, int k, const std::vector<int>& hosts, const std::vector<double>& entry,
              const int* order, int n, double chunk, int steps) {
  RingSet& rs = f.phases[k];
  const int before = static_cast<int>(rs.members.size());
  rs.members.resize(before + n);
  for (int i = 0; i < n; ++i) {
    rs.members[before + i] = hosts[order[i]];
    f.member_start[k].push_back(entry[order[i]]);
  }
  rs.begin.push_back(before + n);
  rs.chunk_bytes.push_back(chunk);
  rs.steps.push_back(steps);
}

/** The phases of the DP all-reduce of one group (stage s, tensor index t) as collectives.cpp runs it: hosts and
 *  entries per dp index. Appends them to f.phases from index `used`. */
void build_unit(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& hosts,
                const std::vector<double>& entry, double bytes, int& used) {
  DpRingFluidScratch& f = w.dp_ring_fluid_;
  const int D = static_cast<int>(hosts.size());
  std::vector<int>& order = w.hier_order_;  // dp indices in ring order
  order.resize(D);
  for (int i = 0; i < D; ++i) order[i] = i;
  RegionBlocks& rb = w.region_blocks_;
  const bool hierarchical = core.scenario_.only_job().collective == "hierarchical";
  if (hierarchical) {
    rb.group(*core.network_, hosts.data(), D);
    order = rb.order;  // unbalanced: one ring over the members region by region
  }
  if (!hierarchical || !rb.balanced()) {
    new_phase(f, used);
    add_ring(f, used - 1, hosts, entry, order.data(), D, bytes / D, 2 * (D - 1));
    return;
  }
  const int R = rb.regions, k = rb.per_region;
  auto in_regions = [&]() {  // the reduce-scatter, and later the all-gather, inside each region
    new_phase(f, used);
    for (int b = 0; b < R; ++b) add_ring(f, used - 1, hosts, entry, order.data() + b * k, k, bytes / k, k - 1);
  };
  in_regions();
  new_phase(f, used);
  std::vector<int>& cross = w.cross_ring_;
  cross.resize(R);
  for (int j = 0; j < k; ++j) {
    for (int b = 0; b < R; ++b) cross[b] = order[b * k + j];
    add_ring(f, used - 1, hosts, entry, cross.data(), R, bytes / (static_cast<double>(k) * R), 2 * (R - 1));
  }
  in_regions();
}

/** Appends phase k's links (one entry per hop crossing it) to f.links. */
void collect_links(const EvaluatorCore& core, DpRingFluidScratch& f, int k) {
  const RingSet& rs = f.phases[k];
  double cap = kInf;
  for (int r = 0; r < rs.size(); ++r) {
    const int* ring = rs.members.data() + rs.begin[r];
    const int n = rs.begin[r + 1] - rs.begin[r];
    if (n < 2 || rs.steps[r] <= 0) continue;
    for (int i = 0; i < n; ++i) {
      const Route& route = core.network_->route(ring[i], ring[(i + 1) % n]);
      f.links.insert(f.links.end(), route.links.begin(), route.links.begin() + route.n_links);
      f.hop_lat.push_back(route.latency_s);
      f.hop_links_end.push_back(static_cast<int>(f.links.size()));
      double hop_cap = route.flow_cap_Bps;
      // The TCP window: one window per round trip per flow (concurrent_times' cap).
      if (core.tcp_window_bytes_ > 0 && route.latency_s > 0)
        hop_cap = std::min(hop_cap, core.tcp_window_bytes_ / (2.0 * route.latency_s));
      f.hop_cap.push_back(hop_cap);
      cap = std::min(cap, hop_cap);
    }
  }
  f.links_first.push_back(static_cast<int>(f.links.size()));
  f.hop_first.push_back(static_cast<int>(f.hop_lat.size()));
  f.phase_cap.push_back(cap);
  // The same links once each with their hop count: the max-min filling walks these (the tensor indices' rings of
  // a stage mostly cross the same links, so a phase has far fewer distinct links than hop crossings).
  const int begin = static_cast<int>(f.ulinks.size());
  for (int i = f.links_first[k]; i < f.links_first[k + 1]; ++i) {
    const int l = f.links[i];
    int& slot = f.link_slot[l];
    if (slot < begin || slot >= static_cast<int>(f.ulinks.size()) || f.ulinks[slot] != l) {
      slot = static_cast<int>(f.ulinks.size());
      f.ulinks.push_back(l);
      f.ucount.push_back(0.0);
    }
    f.ucount[slot] += 1.0;
  }
  f.ulinks_first.push_back(static_cast<int>(f.ulinks.size()));
}

/** Max-min fair rates of the running units' hops (every hop of a unit at its unit's rate: a ring moves at the pace
 *  of its slowest hop, so its other hops take no more than that pace), by progressive filling. */
void fill_rates(const EvaluatorCore& core, DpRingFluidScratch& f) {
  if (static_cast<int>(f.link_used.size()) != core.network_->links()) {
    f.link_used.assign(core.network_->links(), 0.0);
    f.link_weight.assign(core.network_->links(), 0.0);
  }
  int unfrozen = 0;
  for (int u : f.active) {
    f.rate[u] = -1.0;
    ++unfrozen;
    for (int i = f.ulinks_first[f.phase[u]]; i < f.ulinks_first[f.phase[u] + 1]; ++i) {
      const int l = f.ulinks[i];
      if (f.link_weight[l] == 0.0 && f.link_used[l] == 0.0) f.filled_links.push_back(l);
      f.link_weight[l] += f.ucount[i];
    }
  }
  double level = 0.0;
  while (unfrozen > 0) {
    double x = kInf;  // the level at which the next link (or unit cap) saturates
    for (int u : f.active)
      if (f.rate[u] == -1.0) x = std::min(x, f.phase_cap[f.phase[u]]);
    for (int l : f.filled_links)
      if (f.link_weight[l] > 0) x = std::min(x, (core.link_capacity_Bps(l) - f.link_used[l]) / f.link_weight[l]);
    x = level = std::max(x, level);  // never below the last level (rounding)
    ++f.event;                        // marks the links saturated at x
    for (int l : f.filled_links)
      if (f.link_weight[l] > 0 && (core.link_capacity_Bps(l) - f.link_used[l]) / f.link_weight[l] <= x)
        f.link_mark[l] = f.event;
    for (int u : f.active) {
      if (f.rate[u] != -1.0) continue;
      const int k = f.phase[u];
      bool frozen = f.phase_cap[k] <= x;
      for (int i = f.ulinks_first[k]; i < f.ulinks_first[k + 1] && !frozen; ++i)
        frozen = f.link_mark[f.ulinks[i]] == f.event;
      if (!frozen) continue;
      f.rate[u] = -2.0;  // frozen at this level, below
      --unfrozen;
    }
    for (int u : f.active) {  // the units frozen at x leave the filling
      if (f.rate[u] != -2.0) continue;
      f.rate[u] = x;
      for (int i = f.ulinks_first[f.phase[u]]; i < f.ulinks_first[f.phase[u] + 1]; ++i) {
        f.link_weight[f.ulinks[i]] -= f.ucount[i];
        f.link_used[f.ulinks[i]] += x * f.ucount[i];
      }
    }
  }
  for (int l : f.filled_links) f.link_used[l] = f.link_weight[l] = 0.0;
  f.filled_links.clear();
}

/** Every running unit's duration at its max-min rate: its rings' time with each hop its latency plus the chunk at
 *  that rate (ring_steps.hpp). */
void price_units(const EvaluatorCore& core, EvaluatorScratch& w) {
  DpRingFluidScratch& f = w.dp_ring_fluid_;
  fill_rates(core, f);
  const RingModel model{core.channels_, core.latency_at_receiver_, nullptr};
  // Every link's capacity the units' rates use, and its flows.
  for (int u : f.active)
    for (int i = f.ulinks_first[f.phase[u]]; i < f.ulinks_first[f.phase[u] + 1]; ++i) {
      const int l = f.ulinks[i];
      if (f.link_weight[l] == 0.0) f.filled_links.push_back(l);
      f.link_used[l] += f.rate[u] * f.ucount[i];
      f.link_weight[l] += f.ucount[i];
    }
  // Each of those links' unused capacity per flow, once (link_used holds it from here on).
  for (int l : f.filled_links)
    f.link_used[l] = std::max(0.0, core.link_capacity_Bps(l) - f.link_used[l]) / f.link_weight[l];
  // Each hop's time as last priced (refine_dp_overlap's buffer: it never runs in the same estimate); a unit whose
  // hop times are all unchanged keeps its duration (the same bits, without its rings' recurrence).
  std::vector<double>& priced = w.dp_iso_;
  for (int u : f.active) {
    const int k = f.phase[u];
    const RingSet& rs = f.phases[k];
    // A hop off its unit's bottleneck may go faster than the unit's rate: by an equal share of what its links'
    // flows leave unused (so that together they never exceed a link's capacity).
    bool same = f.duration[u] >= 0;
    for (int r = 0, hop = f.hop_first[k]; r < rs.size(); ++r) {
      const int n = rs.begin[r + 1] - rs.begin[r];
      if (n < 2 || rs.steps[r] <= 0) continue;
      for (int end = hop + n; hop < end; ++hop) {
        double rate = f.hop_cap[hop];
        for (int j = hop == 0 ? 0 : f.hop_links_end[hop - 1]; j < f.hop_links_end[hop]; ++j)
          rate = std::min(rate, f.rate[u] + f.link_used[f.links[j]]);
        const double time = f.hop_lat[hop] + rs.chunk_bytes[r] / rate;
        same = same && priced[hop] == time;
        priced[hop] = time;
      }
    }
    if (same) continue;
    double out = 0.0, last = 0.0;
    int hop = f.hop_first[k], last_hop = -1, last_n = 0, last_steps = 0;
    for (int r = 0; r < rs.size(); ++r) {
      const int n = rs.begin[r + 1] - rs.begin[r];
      if (n < 2 || rs.steps[r] <= 0) continue;
      // The stage's tensor indices' rings often cross the same hosts: a ring whose hops take the previous ring's
      // times takes its time (the same recurrence).
      const bool as_last = last_hop >= 0 && n == last_n && rs.steps[r] == last_steps &&
                           std::equal(priced.begin() + hop, priced.begin() + hop + n, priced.begin() + last_hop) &&
                           std::equal(f.hop_lat.begin() + hop, f.hop_lat.begin() + hop + n,
                                      f.hop_lat.begin() + last_hop);
      if (!as_last)
        last = ring_steps_s(priced.data() + hop, f.hop_lat.data() + hop, n, rs.steps[r], model, w.ring_scratch_);
      out = std::max(out, last);
      last_hop = hop;
      last_n = n;
      last_steps = rs.steps[r];
      hop += n;
    }
    f.duration[u] = out;
  }
  for (int l : f.filled_links) f.link_used[l] = f.link_weight[l] = 0.0;
  f.filled_links.clear();
}

/** When unit u's first phase with rings may start (its effective start, dp_ring_fluid.hpp), at the hop times of the
 *  unit alone; f.end[u] receives the end of those rings from the entries, which the phase never beats (as the
 *  lower bound, evaluator_bound.hpp, assumes). Moves f.phase[u] to that phase. */
double first_start(const EvaluatorCore& core, EvaluatorScratch& w, int u) {
  DpRingFluidScratch& f = w.dp_ring_fluid_;
  int k = f.unit_first[u];
  double alone = 0.0;
  for (; k < f.unit_first[u + 1]; ++k)
    if ((alone = rings_phase_s(core, w, f.phases[k])) > 0) break;
  f.phase[u] = k;
  if (k == f.unit_first[u + 1]) return 0.0;  // nothing to send
  f.end[u] = rings_phase_s(core, w, f.phases[k], f.member_start[k].data());
  return f.end[u] - alone;
}

/** Runs the units from their ready times to their ends (f.end: on entry the first phase's floor). */
void run_units(const EvaluatorCore& core, EvaluatorScratch& w) {
  DpRingFluidScratch& f = w.dp_ring_fluid_;
  const int U = static_cast<int>(f.ready.size());
  f.active.clear();
  double now = 0.0;
  for (;;) {
    // The next event: the earliest start of a waiting unit, or the earliest end of a running one.
    double t = kInf;
    for (int u = 0; u < U; ++u)
      if (f.ready[u] < kInf) t = std::min(t, f.ready[u]);
    for (int u : f.active) t = std::min(t, std::max(now + f.left[u] * f.duration[u], f.end[u]));
    if (t == kInf) break;
    for (size_t i = 0; i < f.active.size();) {  // ends first: their flows leave the links
      const int u = f.active[i];
      if (std::max(now + f.left[u] * f.duration[u], f.end[u]) > t) {
        if (f.duration[u] > 0) f.left[u] = std::max(0.0, f.left[u] - (t - now) / f.duration[u]);
        ++i;
        continue;
      }
      f.active.erase(f.active.begin() + i);
      if (++f.phase[u] < f.unit_first[u + 1]) {
        f.ready[u] = t;  // the next phase follows at once
        f.end[u] = 0.0;
      } else {
        f.end[u] = t;
      }
    }
    now = t;
    for (int u = 0; u < U; ++u) {
      if (f.ready[u] > now) continue;
      f.ready[u] = kInf;
      f.left[u] = 1.0;
      f.duration[u] = -1.0;  // priced afresh
      f.active.push_back(u);
    }
    price_units(core, w);
  }
}

/** The phases [first, used) just built for one tensor index join the stage's unit built before them (the last one)
 *  when they line up phase for phase: its rings then run as one unit (the tensor indices of a stage enter together
 *  and mostly cross the same links, so they share one max-min rate, with 1/tp of the events). True when merged
 *  (`used` back to `first`). */
bool merge_into_stage_unit(DpRingFluidScratch& f, int first, int& used) {
  const int n = used - first, prev = f.unit_first[f.unit_first.size() - 2];
  if (n == 0 || f.unit_first.back() - prev != n) return false;
  for (int j = 0; j < n; ++j) {
    const RingSet& from = f.phases[first + j];
    RingSet& to = f.phases[prev + j];
    if (from.size() != to.size()) return false;
  }
  for (int j = 0; j < n; ++j) {
    const RingSet& from = f.phases[first + j];
    RingSet& to = f.phases[prev + j];
    for (int r = 0; r < from.size(); ++r)
      to.add(from.members.data() + from.begin[r], from.begin[r + 1] - from.begin[r], from.chunk_bytes[r],
             from.steps[r]);
    f.member_start[prev + j].insert(f.member_start[prev + j].end(), f.member_start[first + j].begin(),
                                    f.member_start[first + j].end());
  }
  used = first;
  return true;
}

}  // namespace

bool dp_ring_fluid_applies(const EvaluatorCore& core) {
  const JobSpec& job = core.scenario_.only_job();
  return job.par.pp >= 2 && job.par.dp >= 2 && (job.collective == "ring" || job.collective == "hierarchical");
}

void dp_ring_fluid(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank) {
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  DpRingFluidScratch& f = w.dp_ring_fluid_;
  f.unit_first.assign(1, 0);
  // Stage s's units: [first_unit[s], first_unit[s + 1]) (the transfer fluid's per-stage buffer: that fluid never
  // runs in the same estimate).
  std::vector<int>& first_unit = w.tree_first_;
  first_unit.assign(P + 1, 0);
  f.links.clear();
  f.links_first.assign(1, 0);
  f.ulinks.clear();
  f.ucount.clear();
  f.ulinks_first.assign(1, 0);
  if (static_cast<int>(f.link_slot.size()) != core.network_->links()) f.link_slot.assign(core.network_->links(), -1);
  f.hop_lat.clear();
  f.hop_cap.clear();
  f.hop_links_end.clear();
  f.hop_first.assign(1, 0);
  f.phase_cap.clear();
  if (static_cast<int>(f.link_mark.size()) != core.network_->links()) {
    f.link_mark.assign(core.network_->links(), 0);
    f.event = 0;
  }
  std::vector<int>& hosts = w.member_hosts_;
  std::vector<double>& entry = w.member_start_;
  int used = 0;
  for (int s = 0; s < P; ++s) {
    entry.assign(w.replica_done_.begin() + s * D, w.replica_done_.begin() + (s + 1) * D);
    hosts.resize(D);
    first_unit[s] = static_cast<int>(f.unit_first.size()) - 1;
    for (int t = 0; t < T; ++t) {
      for (int d = 0; d < D; ++d) hosts[d] = host_of_rank[core.plan_.rank_of(s, d, t)];
      const int first = used;
      build_unit(core, w, hosts, entry, core.cost_.stages[s].dp_grad_bytes, used);
      if (t > 0 && merge_into_stage_unit(f, first, used)) continue;
      f.unit_first.push_back(used);
    }
  }
  first_unit[P] = static_cast<int>(f.unit_first.size()) - 1;
  for (int k = 0; k < used; ++k) collect_links(core, f, k);
  const int U = first_unit[P];
  f.phase.assign(U, 0);
  f.ready.assign(U, kInf);
  f.left.assign(U, 0.0);
  f.duration.assign(U, 0.0);
  f.rate.assign(U, 0.0);
  f.end.assign(U, 0.0);
  for (int u = 0; u < U; ++u) {
    const double start = first_start(core, w, u);
    if (f.phase[u] < f.unit_first[u + 1]) f.ready[u] = start;
  }
  w.dp_iso_.resize(f.hop_lat.size());
  run_units(core, w);
  for (int s = 0; s < P; ++s) {
    double end = w.stage_done_[s];
    for (int u = first_unit[s]; u < first_unit[s + 1]; ++u) end = std::max(end, f.end[u]);
    w.dp_s_[s] = end - w.stage_done_[s];
  }
}

}  // namespace hulk::eval
