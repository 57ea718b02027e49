// The Evaluator's facade (evaluator.hpp): an estimate runs the parts in order.
#include "sim/evaluate/evaluator.hpp"

#include <algorithm>

#include "sim/evaluate/dp_allreduce.hpp"
#include "sim/evaluate/dp_pipeline_overlap.hpp"
#include "sim/evaluate/evaluation_count.hpp"
#include "sim/evaluate/evaluator_bound.hpp"
#include "sim/evaluate/evaluator_scratch_slots.hpp"
#include "sim/evaluate/iteration_tail.hpp"
#include "sim/evaluate/replica_pipelines.hpp"
#include "sim/evaluate/tp_rings.hpp"

namespace hulk {
namespace {

/** From w.stage_done_ and w.dp_s_: each stage's DP end, then the iteration's tail (iteration_tail.hpp, the
 *  embedding rings' hops sharing their links); sets out.iteration_time_s, dp_comm_s and iteration_costs. */
void finish_iteration(const EvaluatorCore& core, EvaluatorScratch& w, const std::vector<int>& host_of_rank,
                      EvalBreakdown& out) {
  // DP all-reduce of each stage after its last backward, then the iteration's tail (iteration_tail.hpp).
  const Parallelism& par = core.scenario_.only_job().par;
  const int P = par.pp, D = par.dp, T = par.tp;
  double end = 0.0;
  std::vector<double>& stage_end = w.tail_scratch_;
  stage_end.assign(P, 0.0);
  for (int s = 0; s < P; ++s) {
    stage_end[s] = w.stage_done_[s] + w.dp_s_[s];
    if (stage_end[s] >= end) {
      end = stage_end[s];
      out.dp_comm_s = w.dp_s_[s];
    }
  }
  TailContext tail{&core.scenario_.only_job(),
                   &core.plan_,
                   &core.cost_,
                   &core.stages_,
                   core.network_.get(),
                   &core.speed_,
                   {core.channels_, core.latency_at_receiver_}};
  // The embedding all-reduces of every replica and tensor index run at once: their hops share links.
  const double emb_bytes = core.cost_.stages.front().embedding_grad_bytes;
  if (core.scenario_.only_job().step_costs && P > 1 && emb_bytes > 0) {
    // Buffers of their own: src_ and dst_ hold the hand-offs, which later evaluations reuse.
    std::vector<int>& src = w.emb_src_;
    std::vector<int>& dst = w.emb_dst_;
    src.clear();
    dst.clear();
    for (int d = 0; d < D; ++d)
      for (int t = 0; t < T; ++t) {
        const int a = host_of_rank[core.plan_.rank_of(0, d, t)], b = host_of_rank[core.plan_.rank_of(P - 1, d, t)];
        src.insert(src.end(), {a, b});
        dst.insert(dst.end(), {b, a});
      }
    w.emb_hop_s_.resize(src.size());
    eval::concurrent_times(core, w, src.data(), dst.data(), static_cast<int>(src.size()), emb_bytes / 2,
                           w.emb_hop_s_.data());
    tail.embedding_hop_s = w.emb_hop_s_.data();
  }
  out.iteration_time_s =
      iteration_end_with_tail(tail, host_of_rank, stage_end, w.tail_ring_scratch_, &out.iteration_costs);
}

}  // namespace

Evaluator::Evaluator(const Scenario& scenario, std::shared_ptr<const RouteModel> network)
    : core_(scenario, std::move(network)), id_(new_estimator_id()) {}

EvaluatorScratch& Evaluator::thread_scratch() const { return thread_scratch_of<EvaluatorScratch>(id_); }

double Evaluator::iteration_time_s(const Placement& placement) const { return evaluate(placement).iteration_time_s; }

std::vector<int> Evaluator::host_indices(const Placement& placement) {
  std::vector<int> hosts(placement.gpu_of_rank.size());
  for (size_t r = 0; r < hosts.size(); ++r) hosts[r] = placement.gpu_of_rank[r].host;
  return hosts;
}

EvalBreakdown Evaluator::evaluate(const Placement& placement) const { return evaluate_hosts(host_indices(placement)); }

void Evaluator::set_pipeline_cache(bool across_evaluations) {
  core_.own_memo_ = across_evaluations ? nullptr : std::make_shared<PipelineMemo>(std::size_t{8} << 20);
  core_.pipe_memo_ = core_.own_memo_ ? core_.own_memo_.get() : &PipelineMemo::process();
}

EvalBreakdown Evaluator::evaluate_hosts(const std::vector<int>& host_of_rank, EvaluatorScratch& w) const {
  count_evaluator_call();
  core_.prepare(w);
  EvalBreakdown out;
  w.dp_flows_ready_ = false;  // a new placement
  if (!core_.hosts_fit(host_of_rank, out)) return out;
  const int m = std::max(1, core_.cost_.micro_batches);

  eval::stage_op_times(core_, w, host_of_rank, m, out);
  eval::pp_handoffs(core_, w, host_of_rank, out);
  eval::replica_pipelines(core_, w, m, out);
  eval::dp_times(core_, w, host_of_rank);
  if (eval::dp_overlaps_pipeline(core_, w)) {
    // Approximation 6: once more with the DP all-reduces of the stages that finished early on the hand-offs' links
    // (one pass: a second one, from the slower pipeline, ranked the design families' placements no better).
    eval::dp_link_flows(core_, w, host_of_rank);
    const EvalBreakdown first = out;
    w.xfer_f_free_ = w.xfer_f_;
    w.xfer_b_free_ = w.xfer_b_;
    w.room_f_free_ = w.room_f_;
    w.room_b_free_ = w.room_b_;
    out.pp_hop_s = out.pipeline_s = out.bubble_s = 0.0;
    eval::pp_handoffs(core_, w, host_of_rank, out, true);
    if (w.xfer_f_ == w.xfer_f_free_ && w.xfer_b_ == w.xfer_b_free_ && w.room_f_ == w.room_f_free_ &&
        w.room_b_ == w.room_b_free_) {
      out = first;  // no hand-off got slower: the pipelines and DP times would come out the same
    } else {
      eval::replica_pipelines(core_, w, m, out);
      eval::dp_times(core_, w, host_of_rank);
    }
  }
  finish_iteration(core_, w, host_of_rank, out);
  out.feasible = true;
  return out;
}

double Evaluator::time_lower_bound(const Placement& placement) const {
  return time_lower_bound_of_hosts(host_indices(placement));
}

double Evaluator::time_lower_bound_of_hosts(const std::vector<int>& host_of_rank, EvaluatorScratch& scratch) const {
  return eval::time_lower_bound_s(core_, scratch, host_of_rank);
}

double Evaluator::concurrent_rings_s(const std::vector<std::vector<int>>& host_rings, double bytes,
                                     EvaluatorScratch& scratch) const {
  core_.prepare(scratch);
  return eval::ring_allreduce_s(core_, scratch, host_rings, bytes);
}

}  // namespace hulk
