#include "sim/evaluate/pipeline_critical_path.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/workload/pipeline_schedule.hpp"

namespace hulk {

std::vector<std::vector<StageOp>> stage_op_orders(const std::string& schedule, int stages, int micro_batches) {
  // The one op order is workload's pipeline_schedule (what the SimGrid rank actors run); this only lays it out
  // for all stages at once in the evaluator's form.
  std::vector<std::vector<StageOp>> out(stages);
  for (int s = 0; s < stages; ++s) {
    const std::vector<PipeOp> ops = pipeline_schedule(schedule, stages, s, micro_batches);
    out[s].reserve(ops.size());
    for (const PipeOp& op : ops) out[s].push_back({!op.forward, op.micro_batch});
  }
  return out;
}

namespace {

using Flight = PipelineScratch::Flight;

// One run of the critical-path event loop over the caller's scratch buffers. Each step below is one kind of event
// of pipeline_makespan_s's small fluid simulation; the arithmetic (and its order) is that of the single function it
// was split from, so results are bit-identical.
class PipelineRun {
 public:
  PipelineRun(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
              const PipelineLinks& links, PipelineScratch& sc)
      : schedule_(schedule), fwd_s_(fwd_s), bwd_s_(bwd_s), links_(links), sc_(sc),
        p_(static_cast<int>(schedule.size())), m_(static_cast<int>(schedule[0].size() / 2)),
        shared_(links.route_links_fwd && links.route_links_bwd && links.link_ids > 0) {
    reset_buffers();
  }

  /** Runs every op of every stage; returns the makespan and fills last_end_s (if non-null). */
  double run(double* last_end_s) {
    size_t remaining = 2 * static_cast<size_t>(p_) * m_;
    // Event loop: the earliest of (a) an op end, among ops whose input is known, and (b) a flight event. An op whose
    // input is unknown waits for a message not yet delivered, so it cannot end before the events considered.
    while (remaining > 0) {
      double op_end = 0.0;
      const int stage = earliest_op_end(op_end);
      double flight_t = 0.0;
      const int flight = earliest_flight_event(flight_t);
      if (flight >= 0 && (stage < 0 || flight_t <= op_end)) {
        apply_flight_event(flight, flight_t);
        continue;
      }
      if (stage < 0) throw std::logic_error("pipeline schedule deadlocked (bug in stage_op_orders)");
      finish_op(stage, op_end);
      --remaining;
    }
    drain_link_counts();
    return makespan(last_end_s);
  }

 private:
  // act_at[s*m+j]: activation j available at stage s; grad_at[s*m+j]: gradient j available at stage s.
  void reset_buffers() {
    const size_t n = static_cast<size_t>(p_) * m_;
    sc_.act_at.assign(n, -1.0);
    sc_.grad_at.assign(n, -1.0);
    sc_.f_end.assign(n, -1.0);
    sc_.next.assign(p_, 0);
    sc_.clock.assign(p_, 0.0);
    sc_.active.clear();
    if (shared_ && static_cast<int>(sc_.flows_on_link.size()) < links_.link_ids)
      sc_.flows_on_link.assign(links_.link_ids, 0);
  }

  // When the input of stage s's op is available (-1 = not yet known).
  double ready_of(int s, const StageOp& op) const {
    const size_t idx = static_cast<size_t>(s) * m_ + op.mb;
    if (!op.backward) return s == 0 ? 0.0 : sc_.act_at[idx];
    return s == p_ - 1 ? sc_.f_end[idx] : sc_.grad_at[idx];
  }

  // The stage whose next op ends first among those whose input is known (-1 = none), and that end.
  int earliest_op_end(double& best_end) const {
    int best = -1;
    for (int s = 0; s < p_; ++s) {
      if (sc_.next[s] >= schedule_[s].size()) continue;
      const StageOp& op = schedule_[s][sc_.next[s]];
      const double ready = ready_of(s, op);
      if (ready < 0) continue;
      const double end = std::max(sc_.clock[s], ready) + (op.backward ? bwd_s_[s] : fwd_s_[s]);
      if (best < 0 || end < best_end) {
        best = s;
        best_end = end;
      }
    }
    return best;
  }

  // Messages in flight (SimGrid CM02 order): first the route latency, during which they use no bandwidth, then
  // the transfer, progressing in "alone seconds": alone on its links a message needs transfer_*; with k active
  // messages of this pipeline on its busiest link it progresses at 1/k (processor sharing, as SimGrid's fair
  // sharing). Rates change only at events, so progress is linear between events.
  double rate_of(const Flight& f) const {
    int k = 1;
    for (int i = 0; i < 3; ++i)
      if (f.links[i] >= 0) k = std::max(k, sc_.flows_on_link[f.links[i]]);
    return 1.0 / k;
  }

  void count(const Flight& f, int delta) {
    for (int i = 0; i < 3; ++i)
      if (f.links[i] >= 0) sc_.flows_on_link[f.links[i]] += delta;
  }

  // Rates are cached per flight and refreshed whenever a link's flow count changes.
  void refresh_rates() {
    for (auto& f : sc_.active)
      if (f.transferring) f.rate = rate_of(f);
  }

  void advance_to(double t) {
    if (t > now_)
      for (auto& f : sc_.active)
        if (f.transferring) f.remaining_s -= (t - now_) * f.rate;
    now_ = std::max(now_, t);
  }

  // The next flight event (-1 = none) and its time: a message whose latency (or DP-drain pause) elapsed starts
  // transferring, or a transfer ends.
  int earliest_flight_event(double& flight_t) const {
    int flight = -1;
    for (size_t i = 0; i < sc_.active.size(); ++i) {
      const auto& f = sc_.active[i];
      const double t = f.transferring ? now_ + std::max(0.0, f.remaining_s) / f.rate : std::max(now_, f.start_at);
      if (flight < 0 || t < flight_t) {
        flight = static_cast<int>(i);
        flight_t = t;
      }
    }
    return flight;
  }

  void apply_flight_event(int flight, double t) {
    advance_to(t);
    Flight& f = sc_.active[flight];
    if (!f.transferring) {
      f.transferring = true;
      count(f, +1);
    } else {
      count(f, -1);
      *f.target = t;
      sc_.active.erase(sc_.active.begin() + flight);
    }
    refresh_rates();
  }

  void post(double t, double latency, double transfer, const int* route, double* target, int sender) {
    if (!shared_ || transfer <= 0.0) {  // no sharing model: independent transfers
      *target = t + latency + transfer;
      return;
    }
    advance_to(t);
    sc_.active.push_back(Flight{transfer, latency, {route[0], route[1], route[2]}, target, sender, t + latency, false, 1.0});
  }

  // Stage s's next op ends at `end`: record it and send its output to the neighbour stage.
  void finish_op(int s, double end) {
    const StageOp op = schedule_[s][sc_.next[s]++];
    const size_t idx = static_cast<size_t>(s) * m_ + op.mb;
    sc_.clock[s] = end;
    if (!op.backward) {
      sc_.f_end[idx] = end;
      if (s + 1 < p_)
        post(end, links_.latency_fwd_s[s], links_.transfer_fwd_s[s], shared_ ? links_.route_links_fwd + 3 * s : nullptr,
             &sc_.act_at[idx + m_], s);
    } else if (s > 0) {
      post(end, links_.latency_bwd_s[s - 1], links_.transfer_bwd_s[s - 1],
           shared_ ? links_.route_links_bwd + 3 * (s - 1) : nullptr, &sc_.grad_at[idx - m_], s);
    }
    if (sc_.next[s] == schedule_[s].size() && links_.drain_pause_s && links_.drain_pause_s[s] > 0)
      start_dp_drain(s, end);
  }

  // The stage's DP all-reduce starts now and starves its long-latency messages still in flight.
  void start_dp_drain(int s, double end) {
    for (auto& f : sc_.active)
      if (f.sender == s && f.latency_s > links_.drain_latency_threshold_s[s]) {
        if (f.transferring) {  // stops using bandwidth until the all-reduce ends
          count(f, -1);
          f.transferring = false;
        }
        f.start_at = std::max(f.start_at, end + links_.drain_pause_s[s]);
      }
    refresh_rates();
  }

  // The last messages only matter for the link state (all zero between calls); the ops are all done.
  void drain_link_counts() {
    for (const auto& f : sc_.active)
      if (f.transferring) count(f, -1);
    sc_.active.clear();
  }

  double makespan(double* last_end_s) const {
    double out = 0.0;
    for (int s = 0; s < p_; ++s) {
      if (last_end_s) last_end_s[s] = sc_.clock[s];
      out = std::max(out, sc_.clock[s]);
    }
    return out;
  }

  const std::vector<std::vector<StageOp>>& schedule_;
  const double* fwd_s_;
  const double* bwd_s_;
  const PipelineLinks& links_;
  PipelineScratch& sc_;
  const int p_, m_;
  const bool shared_;
  double now_ = 0.0;
};

}  // namespace

double pipeline_makespan_s(const std::vector<std::vector<StageOp>>& schedule, const double* fwd_s, const double* bwd_s,
                           const PipelineLinks& links, double* last_end_s, PipelineScratch& sc) {
  if (schedule.empty()) return 0.0;
  return PipelineRun(schedule, fwd_s, bwd_s, links, sc).run(last_end_s);
}

}  // namespace hulk
