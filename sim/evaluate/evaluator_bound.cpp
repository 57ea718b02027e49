#include "sim/evaluate/evaluator_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/evaluate/dp_allreduce.hpp"
#include "sim/evaluate/region_blocks.hpp"
#include "sim/evaluate/replica_pipelines.hpp"
#include "sim/evaluate/tp_rings.hpp"

namespace hulk::eval {

namespace {
// Interleaved 1F1B: a stage's ops are its model chunks (w.fwd_ / w.bwd_ hold all its layers), whose fill and drain the
// bound below does not follow; each stage still runs its m micro-batches' layers forward and backward one after
// another. done receives that per (stage, replica); returns the largest.
double stage_work_bound(const std::vector<double>& fwd, const std::vector<double>& bwd, int m,
                        std::vector<double>& done) {
  double bound = 0.0;
  for (std::size_t i = 0; i < done.size(); ++i) bound = std::max(bound, done[i] = m * (fwd[i] + bwd[i]));
  return bound;
}
}  // namespace

// Why it is a lower bound of evaluate_hosts(): the pipeline event simulation (pipeline_critical_path.cpp) runs each
// stage's ops one after another in the schedule's order, each taking its op time; a message progresses at a rate
// <= 1 of its alone transfer time and arrives one route latency after (or before) its transfer; and the DP-loaded
// second pass (approximation 6) only adds flows, so every hand-off there takes at least its first-pass time. So,
// along one replica, with every hand-off at latency + alone transfer:
// - fill: stage s starts its first op (F 0 in GPipe and 1F1B) no earlier than activation 0 can reach it;
// - round trip: B(s, j) ends no earlier than F(s, j)'s end plus the hand-off to s+1, F(s+1, j), the round trip of
//   s+1 for j, the gradient's hand-off back and b_s (the last stage: b_s after its F(s, j));
// - the stage's ops in its order, each after the previous one, an F after the fill, a B after its round trip: in
//   1F1B this is the bubble of the warm-up window (F(j + w + 1) waits for B(j)), on slow links most of the time;
// - blocking p2p: after an op with an output the rank waits until the message has left (its transfer, and under a
//   latency-first model its latency);
// - drain: a stage's last op is B m-1, which needs the gradient of stage s+1's B m-1: the stage ends no earlier
//   than s+1's last op, the hand-off back and its own backward.
// That bounds when each replica's stage s is done (its entry in w.replica_done_, in either pass). The iteration ends
// no earlier than the last arrival of each DP all-reduce (evaluate_hosts: w.stage_done_ + w.dp_s_), whose member d
// enters no earlier than its replica's stage is done (the per-stage estimates start every member at w.stage_done_,
// the all-stage fluid at the member's own end). From there the member's sends go out one after another, but for the
// connection's channels (chunk q waits until chunk q - channels has left, in ring_steps.cpp and in the fluid's
// add_ring), each at most at the route's alone rate (every estimate divides capacities among flows and caps a flow
// by the flow cap and the TCP window), and the last one still has its route's latency to go (dp_member_lower_bound_s).
double time_lower_bound_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank) {
  core.prepare(w);
  EvalBreakdown out;
  if (!core.hosts_fit(host_of_rank, out)) return out.iteration_time_s;  // +inf, as the evaluation
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, v = core.scenario_.only_job().virtual_stages;
  const int m = std::max(1, core.cost_.micro_batches);
  stage_op_times(core, w, host_of_rank, m, out);
  if (P > 1) pp_handoffs(core, w, host_of_rank, out);
  // Fill and drain hold for schedules whose every stage starts with F 0 and ends with B m-1 (GPipe and 1F1B); any
  // other keeps only the ops in order and the round trips.
  const bool chained = core.schedule_chained_;
  const auto at = [D](int s, int d) { return static_cast<size_t>(s) * D + d; };
  // Blocking p2p (Megatron's): after an op with an output the rank waits until that message has left, at least its
  // transfer after the op (and its latency too where the latency comes first).
  const bool blocking = core.scenario_.only_job().pipeline_p2p_blocking();
  const auto send_wait = [&](size_t boundary, bool forward) {
    if (!blocking) return 0.0;
    const double latency = forward ? w.lat_f_[boundary] : w.lat_b_[boundary];
    return (forward ? w.xfer_f_[boundary] : w.xfer_b_[boundary]) + (core.latency_at_receiver_ ? 0.0 : latency);
  };
  std::vector<double>& round_trip = w.bound_round_trip_;
  std::vector<double>& f_end = w.bound_f_end_;
  round_trip.resize(P);
  f_end.resize(m);
  std::vector<double>& done = w.bound_done_;         // per (stage, replica): the least end of its pipeline part
  std::vector<double>& op_end_of = w.bound_op_end_;  // per stage of the replica: the least end of its last op
  done.assign(static_cast<size_t>(P) * D, 0.0);
  op_end_of.resize(P);
  double bound = v > 1 ? stage_work_bound(w.fwd_, w.bwd_, m, done) : 0.0;  // model chunks: only each stage's work
  for (int d = 0; d < D && v == 1; ++d) {
    round_trip[P - 1] = w.bwd_[at(P - 1, d)];
    for (int s = P - 2; s >= 0; --s) {
      const size_t h = at(s, d);  // boundary s -> s+1
      round_trip[s] = w.lat_f_[h] + w.xfer_f_[h] + w.fwd_[at(s + 1, d)] + round_trip[s + 1] + w.lat_b_[h] +
                      w.xfer_b_[h] + w.bwd_[h];
    }
    double first_arrival = 0.0;  // earliest arrival of activation 0 at stage s
    for (int s = 0; s < P; ++s) {
      const size_t i = at(s, d);
      if (s > 0 && chained) {
        const size_t h = at(s - 1, d);  // boundary s-1 -> s
        first_arrival += w.fwd_[h] + w.lat_f_[h] + w.xfer_f_[h];
      }
      std::fill(f_end.begin(), f_end.end(), -std::numeric_limits<double>::infinity());
      double t = first_arrival, op_end = 0.0;
      for (const StageOp& op : core.schedule_[s]) {
        if (!op.backward) {
          op_end = t + w.fwd_[i];
          f_end[op.mb] = op_end;
          t = op_end + (s + 1 < P ? send_wait(at(s, d), true) : 0.0);
        } else {
          op_end = std::max(t + w.bwd_[i], f_end[op.mb] + round_trip[s]);
          t = op_end + (s > 0 ? send_wait(at(s - 1, d), false) : 0.0);
        }
      }
      done[i] = t;
      op_end_of[s] = op_end;
    }
    if (chained)  // the drain, from the last stage down
      for (int s = P - 2; s >= 0; --s) {
        const size_t h = at(s, d);  // boundary s -> s+1
        op_end_of[s] = std::max(op_end_of[s], op_end_of[s + 1] + w.lat_b_[h] + w.xfer_b_[h] + w.bwd_[h]);
        done[h] = std::max(done[h], op_end_of[s] + (s > 0 ? send_wait(at(s - 1, d), false) : 0.0));
      }
    for (int s = 0; s < P; ++s) bound = std::max(bound, done[at(s, d)]);
  }
  if (P > 1 && v == 1) {
    // Every message crossing the busiest link: none is sent before some replica's first forward ended, and the
    // last one's receiver still runs an op with it.
    double first_op = std::numeric_limits<double>::infinity(), least_op = first_op;
    for (int d = 0; d < D; ++d) first_op = std::min(first_op, w.fwd_[at(0, d)]);
    for (size_t i = 0; i < w.fwd_.size() && i < static_cast<size_t>(P) * D; ++i)
      least_op = std::min({least_op, w.fwd_[i], w.bwd_[i]});
    const double work = handoff_link_work_s(core, w);
    if (work > 0) bound = std::max(bound, first_op + work + least_op);
  }
  return D < 2 ? bound : std::max(bound, dp_lower_bound_s(core, w, host_of_rank, done));
}

double dp_lower_bound_s(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank,
                        const std::vector<double>& done) {
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp;
  const auto at = [D](int s, int d) { return static_cast<size_t>(s) * D + d; };
  double bound = 0.0;
  // Every stage's all-reduce: each member's own chain of sends, and the stage's busiest link (its all-reduce
  // starts no earlier than its first member entered). A link carries at most its capacity in the fluid; stage by
  // stage, a ring hop may have `channels` chunks in flight each at its share, the balanced hierarchical phases
  // follow each other but a stage's unbalanced groups run beside them (twice as much then); the per-stage tree
  // prices later transfers alone, so it gives no such total.
  const std::string& algo = core.scenario_.only_job().collective;
  const bool fluid = dp_fluid_applies(core);
  std::vector<int>& hosts = w.member_hosts_;
  std::vector<double>& entered = w.bound_entered_;
  hosts.resize(D);
  entered.resize(D);
  for (int s = 0; s < P; ++s) {
    const double bytes = core.cost_.stages[s].dp_grad_bytes;
    if (!(bytes > 0)) continue;
    for (int d = 0; d < D; ++d) entered[d] = done[at(s, d)];
    // Stage by stage, the all-reduce starts when the stage's last replica is done (w.stage_done_); in the fluid each
    // member at its own replica's end.
    if (!fluid) std::fill(entered.begin(), entered.end(), *std::max_element(entered.begin(), entered.end()));
    int phased = 0;  // balanced hierarchical groups of the stage (in one region or several)
    for (int t = 0; t < par.tp; ++t) {
      for (int d = 0; d < D; ++d) hosts[d] = host_of_rank[core.plan_.rank_of(s, d, t)];
      bound = std::max(bound, dp_group_lower_bound_s(core, w, hosts.data(), entered.data(), D, bytes, phased));
    }
    const double busiest = busiest_link_s(core, w);
    const bool beside = phased > 0 && phased < par.tp;
    const double link_rate_factor = fluid ? 1.0 : algo == "tree" ? 0.0 : (beside ? 2.0 : 1.0) * core.channels_;
    if (link_rate_factor > 0)
      bound = std::max(bound, *std::min_element(entered.begin(), entered.end()) + busiest / link_rate_factor);
  }
  return bound;
}

double handoff_link_work_s(const EvaluatorCore& core, EvaluatorScratch& w) {
  // The pipeline simulation shares a link among the messages on it by their flows (a message of w flows on a link
  // now carrying n gets w / n of its alone rate there), and alone a message's w flows on a link move at most the
  // link's capacity: together the messages never move more than the capacity. Groups of replicas above
  // kJointReplicas are run one by one with their sharing folded into the transfer times: no such total there.
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp;
  if (D > kJointReplicas || core.scenario_.only_job().virtual_stages > 1)
    return 0.0;  // interleaved: messages per boundary differ
  std::vector<double>& work = w.bound_link_work_;
  if (static_cast<int>(work.size()) != core.network_->links()) work.assign(core.network_->links(), 0.0);
  const double bytes = static_cast<double>(std::max(1, core.cost_.micro_batches)) * core.cost_.pp_message_bytes;
  for (int dir = 0; dir < 2; ++dir) {
    const std::vector<int>& links = dir == 0 ? w.links_f_ : w.links_b_;
    const std::vector<int>& weights = dir == 0 ? w.weights_f_ : w.weights_b_;
    for (size_t e = 0; e < static_cast<size_t>(P - 1) * D; ++e)
      for (int k = 0; k < 3; ++k) {
        const int l = links[3 * e + k];
        if (l < 0) continue;
        if (work[l] == 0.0) w.bound_links_.push_back(l);
        work[l] += std::max(1, weights[3 * e + k]) * bytes;
      }
  }
  return busiest_link_s(core, w);
}

void add_link_work(const EvaluatorCore& core, EvaluatorScratch& w, const Route& r, double bytes) {
  std::vector<double>& work = w.bound_link_work_;
  if (static_cast<int>(work.size()) != core.network_->links()) work.assign(core.network_->links(), 0.0);
  for (int k = 0; k < r.n_links; ++k) {
    const int l = r.links[k];
    if (work[l] == 0.0) w.bound_links_.push_back(l);
    work[l] += bytes;
  }
}

double busiest_link_s(const EvaluatorCore& core, EvaluatorScratch& w) {
  double busiest = 0.0;
  for (const int l : w.bound_links_) {
    busiest = std::max(busiest, w.bound_link_work_[l] / core.link_capacity_Bps(l));
    w.bound_link_work_[l] = 0.0;
  }
  w.bound_links_.clear();
  return busiest;
}

double alone_transfer_s(const EvaluatorCore& core, const Route& r, double bytes) {
  // concurrent_times' and the fluid's rate of a flow with no other flow on its links (its extra load >= 0 only
  // lowers it).
  double share = r.flow_cap_Bps;
  if (core.tcp_window_bytes_ > 0 && r.latency_s > 0)
    share = std::min(share, core.tcp_window_bytes_ / (2.0 * r.latency_s));
  for (int k = 0; k < r.n_links; ++k) share = std::min(share, core.link_capacity_Bps(r.links[k]));
  return bytes / share;
}

double dp_group_lower_bound_s(const EvaluatorCore& core, EvaluatorScratch& w, const int* hosts, const double* entered,
                              int n, double bytes, int& phased) {
  // Each route is looked up once per member (at 1,024 GPUs the lookups, not the arithmetic, are the bound's cost).
  const auto route = [&](int a, int b) -> Route { return core.network_->route(hosts[a], hosts[b]); };
  // A member's `steps` chunks to one successor: chunk q leaves no earlier than chunk q - channels left plus its
  // transfer, so the last leaves ceil(steps / channels) transfers after the member entered (at least).
  const auto sends = [&](const Route& r, double chunk, int steps) {
    if (steps <= 0) return 0.0;
    add_link_work(core, w, r, steps * chunk);
    return std::ceil(static_cast<double>(steps) / core.channels_) * alone_transfer_s(core, r, chunk);
  };
  double end = 0.0;
  if (core.scenario_.only_job().collective == "tree") {
    // A member's buffer up to its parent, then the result back down (the root: with its first child).
    for (int i = 0; i < n; ++i) {
      const int child = i == 0 ? 1 : i, parent = (child - 1) / 2;
      const Route &up = route(child, parent), &down = route(parent, child);
      end = std::max(end, entered[i] + alone_transfer_s(core, up, bytes) + up.latency_s +
                              alone_transfer_s(core, down, bytes) + down.latency_s);
      if (i > 0) {
        add_link_work(core, w, up, bytes);
        add_link_work(core, w, down, bytes);
      }
    }
    return end;
  }
  // The ring's member order: dp order, or (hierarchical) region by region.
  RegionBlocks& rb = w.region_blocks_;
  int R = 1, k = n;
  const int* order = nullptr;
  if (core.scenario_.only_job().collective == "hierarchical") {
    rb.group(*core.network_, hosts, n);
    order = rb.order.data();
    if (rb.balanced()) R = rb.regions, k = rb.per_region;
    phased += rb.balanced();  // its phases (one region: the two in-region ones), unbalanced groups beside them
  }
  const auto at = [&](int position) { return order ? order[position] : position; };
  if (R == 1) {
    // One ring of n, each member 2(n-1) chunks of bytes / n to the next. Besides each member's own chain: the chunk
    // a member sends at step q is the one it received at step q-1 (arrived: latency and transfer), so from the
    // member at position p, 2(n-1) hops in a row around the ring, each at least its latency and alone transfer:
    // twice around but for the last two hops.
    std::vector<double>& hop = w.bound_hop_;
    hop.resize(n);
    double around = 0.0;
    for (int p = 0; p < n; ++p) {
      const int member = at(p);
      const Route& r = route(member, at((p + 1) % n));
      hop[p] = r.latency_s + alone_transfer_s(core, r, bytes / n);
      around += hop[p];
      end = std::max(end, entered[member] + sends(r, bytes / n, 2 * (n - 1)) + r.latency_s);
    }
    for (int p = 0; p < n; ++p)
      end = std::max(end, entered[at(p)] + 2.0 * around - hop[(p + n - 2) % n] - hop[(p + n - 1) % n]);
    return end;
  }
  // Balanced hierarchical: reduce-scatter in the region's ring (k-1 chunks of bytes / k), the cross-region ring
  // (2(R-1) chunks of bytes / (kR)), the all-gather in the region's ring; the region's ring comes last unless k = 1.
  for (int position = 0; position < n; ++position) {
    const int member = at(position), block = position / k, j = position % k;
    const Route& local = route(member, at(block * k + (j + 1) % k));
    const Route& cross = route(member, at(((block + 1) % R) * k + j));
    const double local_s = k > 1 ? sends(local, bytes / k, k - 1) : 0.0;
    const double chain = local_s + sends(cross, bytes / (static_cast<double>(k) * R), 2 * (R - 1)) +
                         (k > 1 ? sends(local, bytes / k, k - 1) + local.latency_s : cross.latency_s);
    end = std::max(end, entered[member] + chain);
  }
  return end;
}

}  // namespace hulk::eval
