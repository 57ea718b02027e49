#include "sim/engine/rank_actor.hpp"

#include <cstdio>

#include <algorithm>
#include <string>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

#include "sim/engine/collectives.hpp"
#include "sim/engine/latency_ring.hpp"
#include "sim/engine/private_ring.hpp"
#include "sim/engine/trace_recorder.hpp"
#include "sim/workload/pipeline_schedule.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

namespace {
double now() { return sg4::Engine::get_clock(); }
}  // namespace

void record_span(RankLedger& ledger, int rank, const std::string& name, const char* cat, double start_s,
                 double end_s) {
  ledger.trace->span(rank, name, cat, start_s, end_s);
}

void RankActor::span(const std::string& name, const char* cat, double start_s, double end_s) {
  if (shared_->record_spans) record_span(shared_->ledgers[rank_], rank_, name, cat, start_s, end_s);
}

void RankActor::compute(double flops, const char* what, int mb) {
  if (flops <= 0) return;
  const double t0 = now();
  const double bound = shared_->exec_bound_of_rank[rank_];
  if (bound > 0)
    sg4::this_actor::exec_init(flops * shared_->flops_scale_of_rank[rank_])->set_bound(bound)->wait();
  else
    sg4::this_actor::execute(flops * shared_->flops_scale_of_rank[rank_]);
  const double t1 = now();
  shared_->ledgers[rank_].compute_s += t1 - t0;
  if (shared_->record_spans) span(std::string(what) + " mb" + std::to_string(mb), "compute", t0, t1);
}

CommTag RankActor::tp_tag(char dir, int mb, int layer, int idx) const {
  CommTag tag;
  tag.kind = CommTag::TP;
  tag.dir = dir;
  tag.stage = coord_.pp;
  tag.dp = coord_.dp;
  tag.mb = mb;
  tag.layer = layer;
  tag.idx = idx;
  return tag;
}

void RankActor::tp_allreduce(const CommTag& tag) {
  if (tp_group_.size() < 2) return;
  const double t0 = now();
  allreduce(*ep_, "ring", tp_group_, {}, job_->cost.tp_allreduce_bytes, tag);
  const double t1 = now();
  shared_->ledgers[rank_].tp_s += t1 - t0;
  span("tp allreduce", "tp", t0, t1);
}

void RankActor::add_compute(double flops, const char* what) {
  if (flops > 0) body_.push_back(BodyStep{false, flops, what, CommTag{}});
}

void RankActor::add_tp_allreduce(char dir, int mb, int layer, int idx) {
  if (tp_group_.size() > 1) body_.push_back(BodyStep{true, 0, nullptr, tp_tag(dir, mb, layer, idx)});
}

void RankActor::run_body(const std::vector<BodyStep>& body, int mb) {
  if (job_->rings && job_->rings->covers(local_)) {
    // A private group: the whole body in closed form (private_ring.hpp), one meeting and one sleep per member.
    BodyTiming timing;
    timing.allreduce_bytes = job_->cost.tp_allreduce_bytes;
    timing.flops_scale = shared_->flops_scale_of_rank[rank_];
    timing.host_speed = sg4::this_actor::get_host()->get_speed();
    job_->rings->run_body(*ep_, tp_group_, body, mb, timing, shared_->ledgers, shared_->fabric->record_events(),
                             shared_->record_spans);
    return;
  }
  for (const BodyStep& step : body) {
    if (step.allreduce) tp_allreduce(step.tag);
    else compute(step.flops, step.what, mb);
  }
}

namespace {
CommTag pp_tag(const RankCoord& coord, char dir, int mb, int chunk) {
  CommTag tag;
  tag.kind = CommTag::PP;
  tag.dir = dir;
  tag.stage = coord.pp;
  tag.dp = coord.dp;
  tag.tp = coord.tp;
  tag.mb = mb;
  tag.layer = chunk;
  return tag;
}
}  // namespace

void RankActor::pp_send(int dst, char dir, int mb, int chunk) {
  const CommTag tag = pp_tag(coord_, dir, mb, chunk);
  if (!blocking_p2p_) {
    // Overlapped: handed to the connection's courier; this rank's compute goes on.
    ep_->send_eager(dst, job_->cost.pp_message_bytes, tag);
    return;
  }
  // Blocking (Megatron's send_forward / send_backward): the rank waits until the message has left.
  const double t0 = now();
  ep_->send(dst, job_->cost.pp_message_bytes, tag);
  ep_->wait_sends();
  const double t1 = now();
  shared_->ledgers[rank_].pp_s += t1 - t0;
  span(std::string(dir == 'a' ? "send act" : "send grad") + " mb" + std::to_string(mb), "pp", t0, t1);
}

/** Accounts a wait for a pipeline message from t0 to t1: until its sender posted it the pipeline was empty
 *  (bubble); after that the message was in flight (pp). */
static void account_pp_wait(RankLedger& ledger, double posted_s, double t0, double t1) {
  const double posted = std::min(std::max(posted_s, t0), t1);
  ledger.bubble_s += posted - t0;
  ledger.pp_s += t1 - posted;
}

void RankActor::pp_receive(int src, const char* what, int mb) {
  const double t0 = now();
  // Overlapped p2p: pipeline mailboxes have a permanent receiver (see simulate()), the sender's transfer started
  // when its courier had it, so the receive is posted only now, when the message is needed; FIFO per pair keeps
  // the order. Blocking p2p: a rendezvous, the transfer starts now if the sender is already waiting.
  PendingRecv pending;
  ep_->post_recv(src, pending);
  std::unique_ptr<SgMessage> msg = ep_->complete(pending);
  const double t1 = now();
  account_pp_wait(shared_->ledgers[rank_], msg->post_time_s, t0, t1);
  if (shared_->record_spans) {
    const std::string name = std::string(what) + " mb" + std::to_string(mb);
    const double posted = std::min(std::max(msg->post_time_s, t0), t1);
    span(name, "bubble", t0, posted);
    span(name, "pp", posted, t1);
  }
}

void RankActor::pp_exchange(int peer, char dir, int mb, int from, const char* what, int next_mb) {
  const double t0 = now();
  PendingRecv pending;
  ep_->post_recv(from, pending);
  ep_->send(peer, job_->cost.pp_message_bytes, pp_tag(coord_, dir, mb, 0));
  std::unique_ptr<SgMessage> msg = ep_->complete(pending);
  ep_->wait_sends();
  const double t1 = now();
  account_pp_wait(shared_->ledgers[rank_], msg->post_time_s, t0, t1);
  if (shared_->record_spans) {
    const double posted = std::min(std::max(msg->post_time_s, t0), t1);
    const std::string name = std::string(what) + " mb" + std::to_string(next_mb);
    span(name, "bubble", t0, posted);
    span(name, "pp", posted, t1);
  }
}

int RankActor::chunk_neighbour(int chunk, int step) const {
  const int p = job_->plan.parallelism().pp, v = job_->job->virtual_stages;
  const int vs = chunk * p + coord_.pp + step;  // the neighbour's virtual stage
  if (vs < 0 || vs >= p * v) return -1;
  return job_->global(job_->plan.rank_of(vs % p, coord_.dp, coord_.tp));
}

void RankActor::forward(const PipeOp& op, const PipeOp* next_op) {
  const int mb = op.micro_batch, v = job_->job->virtual_stages;
  const StageCost& st = *work_;
  const int prev = chunk_neighbour(op.chunk, -1), next = chunk_neighbour(op.chunk, +1);
  if (prev >= 0 && received_act_mb_ != mb) pp_receive(prev, "recv act", mb);
  received_act_mb_ = -1;
  // Megatron: each layer = attention (half the flops, then an all-reduce) + MLP (the other half, all-reduce). A
  // model chunk holds layers / v of the stage's layers; the logits follow the last chunk.
  body_.clear();
  const int layers = st.layers / v, first = op.chunk * layers;
  for (int l = first; l < first + layers; ++l) {
    add_compute(st.layer_fwd_flops / 2, "fwd");
    add_tp_allreduce('f', mb, l, 0);
    add_compute(st.layer_fwd_flops / 2, "fwd");
    add_tp_allreduce('f', mb, l, 1);
  }
  if (op.chunk == v - 1) add_compute(st.extra_fwd_flops, "fwd");
  run_body(body_, mb);
  if (next < 0) return;
  if (blocking_p2p_ && next_op && !next_op->forward) {
    // Megatron's send_forward_recv_backward: the gradient of the next backward comes back in the same exchange.
    pp_exchange(next, 'a', mb, next, "recv grad", next_op->micro_batch);
    received_grad_mb_ = next_op->micro_batch;
    return;
  }
  pp_send(next, 'a', mb, op.chunk);
}

void RankActor::add_recompute_layer(int mb, int layer) {
  const double flops = work_->recompute_layer_flops;
  if (job_->cost.recompute_tp_allreduces == 2) {
    // Full recomputation re-runs the layer's forward, all-reduces included (tag dir 'r').
    add_compute(flops / 2, "recompute");
    add_tp_allreduce('r', mb, layer, 0);
    add_compute(flops / 2, "recompute");
    add_tp_allreduce('r', mb, layer, 1);
  } else {
    add_compute(flops, "recompute");  // selective: the attention core only, no all-reduce
  }
}

void RankActor::backward(const PipeOp& op, const PipeOp* next_op) {
  const int mb = op.micro_batch, v = job_->job->virtual_stages;
  const StageCost& st = *work_;
  const int prev = chunk_neighbour(op.chunk, -1), next = chunk_neighbour(op.chunk, +1);
  if (next >= 0 && received_grad_mb_ != mb) pp_receive(next, "recv grad", mb);
  received_grad_mb_ = -1;
  body_.clear();
  if (op.chunk == v - 1) add_compute(2 * st.extra_fwd_flops, "bwd");
  // Backward = 2x forward flops, in reverse layer order, again two all-reduces per layer.
  const int layers = st.layers / v, first = op.chunk * layers;
  for (int l = first + layers - 1; l >= first; --l) {
    if (st.recompute_layer_flops > 0) add_recompute_layer(mb, l);
    add_compute(st.layer_fwd_flops, "bwd");
    add_tp_allreduce('b', mb, l, 0);
    add_compute(st.layer_fwd_flops, "bwd");
    add_tp_allreduce('b', mb, l, 1);
  }
  run_body(body_, mb);
  if (prev < 0) return;
  if (blocking_p2p_ && next_op && next_op->forward) {
    // Megatron's send_backward_recv_forward: the next forward's input comes in the same exchange.
    pp_exchange(prev, 'g', mb, prev, "recv act", next_op->micro_batch);
    received_act_mb_ = next_op->micro_batch;
    return;
  }
  pp_send(prev, 'g', mb, op.chunk);
}

/** A progress line on stderr, at most every progress_every_s wall seconds: long simulations (minutes) are not
 *  silent. Rank 0 reports: its position is a fair measure of the iteration's progress (it starts first and, in
 *  1F1B, finishes last). */
static void report_progress(SimShared& sh, const JobRun& job, int iteration, std::size_t op, std::size_t ops,
                            double simulated_s) {
  const auto now_wall = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now_wall - sh.last_progress).count() < sh.progress_every_s) return;
  sh.last_progress = now_wall;
  std::fprintf(stderr, "hulk: simulating: iteration %d/%d, rank 0 at pipeline op %zu/%zu, simulated time %.3f s\n",
               iteration + 1, job.job->iterations, op, ops, simulated_s);
}

void RankActor::outer_allreduce() {
  JobRun& job = *job_;
  int slice = 0;
  const std::vector<int> group = job.global(outer_group(job.plan, *job.islands, local_, slice));
  if (group.size() < 2) return;
  std::vector<int> regions;
  for (int r : group) regions.push_back(shared_->region_of_rank[r]);
  CommTag tag;
  tag.kind = CommTag::OUTER;
  tag.stage = coord_.pp;
  tag.tp = coord_.tp;
  tag.dp = slice;
  const double bytes = outer_allreduce_bytes(*job.job, job.cost.stages[coord_.pp].params, *job.islands);
  const double t0 = now();
  allreduce(*ep_, "ring", group, regions, bytes, tag);
  const double t1 = now();
  shared_->ledgers[rank_].dp_s += t1 - t0;
  span("outer allreduce", "dp", t0, t1);
}

void RankActor::iteration_tail(const std::vector<int>& mp_group) {
  const JobSpec& spec = *job_->job;
  RankLedger& ledger = shared_->ledgers[rank_];
  // A collective of the tail, booked as DP time and in its own entry of the ledger's fixed costs. `meeting`: the
  // group's meeting point among the job's rings of empty messages (-1: none), which take the closed form.
  const auto collective = [&](double& into, const char* name, const std::vector<int>& group, double bytes,
                              const CommTag& tag, int meeting) {
    const double t0 = now();
    LatencyRings* fast = job_->tail_rings;
    if (meeting >= 0 && fast && zero_byte_ring(bytes, static_cast<int>(group.size())) &&
        fast->covers(*shared_->fabric, meeting, group)) {
      fast->allreduce(*ep_, meeting, group, bytes, tag, shared_->ledgers);
    } else {
      std::vector<int> regions;
      for (int r : group) regions.push_back(shared_->region_of_rank[r]);
      allreduce(*ep_, "ring", group, regions, bytes, tag);
    }
    const double t1 = now();
    into += t1 - t0;
    ledger.dp_s += t1 - t0;
    span(name, "dp", t0, t1);
  };
  if (spec.step_costs && work_->embedding_grad_bytes > 0) {
    CommTag tag;
    tag.kind = CommTag::DP;
    tag.dir = 'e';
    tag.tp = coord_.tp;
    tag.dp = coord_.dp;
    const int last = job_->plan.parallelism().pp - 1;
    collective(ledger.fixed.embedding_allreduce_s, "embedding allreduce",
               {job_->global(job_->plan.rank_of(0, coord_.dp, coord_.tp)),
                job_->global(job_->plan.rank_of(last, coord_.dp, coord_.tp))},
               work_->embedding_grad_bytes, tag, -1);
  }
  if (spec.step_costs && mp_group.size() > 1) {
    CommTag tag;
    tag.kind = CommTag::DP;
    tag.dir = 'n';
    tag.dp = coord_.dp;
    // Megatron's clip_grad_norm_fp32: the squared norm, one fp32 value, summed over the model-parallel group.
    collective(ledger.fixed.grad_norm_allreduce_s, "grad norm allreduce", mp_group, 4.0, tag, coord_.dp);
  }
  const double t0 = now();
  compute(work_->optimizer_flops, "optimizer", 0);  // books its time as compute
  ledger.fixed.optimizer_step_s += now() - t0;
  if (spec.framework_overhead_s > 0) {
    const double t1 = now();
    simgrid::s4u::this_actor::sleep_for(spec.framework_overhead_s);
    ledger.fixed.framework_overhead_s += now() - t1;
    ledger.compute_s += now() - t1;
    span("framework overhead", "compute", t1, now());
  }
}

void RankActor::operator()() {
  SimShared& sh = *shared_;
  JobRun& job = *job_;
  RankLedger& ledger = sh.ledgers[rank_];
  Endpoint ep(rank_, *sh.fabric, ledger);
  ep_ = &ep;
  coord_ = job.plan.coord_of(local_);
  work_ = &job.stages.stage(sh.fabric->host_of(rank_), coord_.pp);
  tp_group_ = job.global(job.plan.tp_group(local_));
  if (sh.outer_step) {
    outer_allreduce();
    ep_ = nullptr;
    return;
  }
  const std::vector<int> dp_group = job.global(job.islands ? island_dp_group(job.plan, *job.islands, local_)
                                                           : job.plan.dp_group(local_));
  std::vector<int> dp_regions;
  for (int r : dp_group) dp_regions.push_back(sh.region_of_rank[r]);
  const int p = job.plan.parallelism().pp;
  const int m = job.cost.micro_batches;
  const std::vector<PipeOp> ops = pipeline_schedule(job.job->schedule, p, coord_.pp, m, job.job->virtual_stages);
  const double dp_bytes = job.cost.stages[coord_.pp].dp_grad_bytes;
  std::vector<int> mp_group;  // the model-parallel group: every stage and tp index of this replica
  for (int s = 0; s < p; ++s)
    for (int t = 0; t < job.plan.parallelism().tp; ++t)
      mp_group.push_back(job.global(job.plan.rank_of(s, coord_.dp, t)));
  blocking_p2p_ = job.job->pipeline_p2p_blocking();
  const bool reports_progress = rank_ == 0 && sh.progress_every_s > 0;

  const CheckpointSpec& checkpoint = job.job->checkpoint;
  if (job.start_s > 0) simgrid::s4u::this_actor::sleep_until(job.start_s);  // resumes later than the other jobs
  for (int it = 0; it < job.job->iterations; ++it) {
    ledger.iteration = it;
    if (local_ == 0) job.iteration_start_s.push_back(now());
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const PipeOp* next_op = i + 1 < ops.size() ? &ops[i + 1] : nullptr;
      if (ops[i].forward) forward(ops[i], next_op);
      else backward(ops[i], next_op);
      if (reports_progress) report_progress(sh, job, it, i + 1, ops.size(), now());
    }
    if (dp_group.size() > 1) {
      CommTag tag;
      tag.kind = CommTag::DP;
      tag.stage = coord_.pp;
      tag.tp = coord_.tp;
      const double t0 = now();
      allreduce(ep, job.job->collective, dp_group, dp_regions, dp_bytes, tag);
      const double t1 = now();
      ledger.dp_s += t1 - t0;
      span("dp allreduce", "dp", t0, t1);
    }
    iteration_tail(mp_group);
    // Eager pipeline sends are the couriers' business: each is complete once its receiver had it, which the barrier
    // guarantees.
    const double t0 = now();
    job.barrier->wait();
    const double t1 = now();
    // Waiting for the job's slowest rank: a pipeline's drain when there is one; without a pipeline (pp 1) for the
    // other replicas' all-reduces to end (a tree's root ends last), which is DP time, not a bubble.
    (p > 1 ? ledger.bubble_s : ledger.dp_s) += t1 - t0;
    span("iteration barrier", p > 1 ? "bubble" : "dp", t0, t1);
    if (local_ == 0) job.iteration_end_s.push_back(t1);
    // A checkpoint after every `every`-th iteration counted from the job's start (a resumed run continues the count),
    // except after the last: all ranks pause while it is written (Megatron-LM's --save-interval saves synchronously).
    const int done = job.first_iteration + it + 1;
    if (checkpoint.every > 0 && done % checkpoint.every == 0 && it + 1 < job.job->iterations) {
      simgrid::s4u::this_actor::sleep_for(checkpoint.cost_s);
      span("checkpoint", "checkpoint", t1, now());
      if (local_ == 0) job.checkpoints.emplace_back(now(), done);
    }
  }
  ep_ = nullptr;
}

}  // namespace hulk
