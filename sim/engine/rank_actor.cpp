#include "sim/engine/rank_actor.hpp"

#include <cstdio>

#include <algorithm>
#include <string>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>

#include "sim/engine/collectives.hpp"
#include "sim/workload/pipeline_schedule.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

namespace {
double now() { return sg4::Engine::get_clock(); }
}  // namespace

void RankActor::span(const std::string& name, const char* cat, double start_s, double end_s) {
  if (!shared_->record_spans || end_s <= start_s) return;
  auto& spans = shared_->ledgers[rank_].spans;
  // Consecutive pieces of one activity (e.g. the layer-by-layer compute of one forward) become one span.
  if (!spans.empty() && spans.back().end_s == start_s && spans.back().name == name && spans.back().cat == cat) {
    spans.back().end_s = end_s;
    return;
  }
  spans.push_back(Span{rank_, name, cat, start_s, end_s});
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

void RankActor::tp_allreduce(char dir, int mb, int layer, int idx) {
  if (tp_group_.size() < 2) return;
  CommTag tag;
  tag.kind = CommTag::TP;
  tag.dir = dir;
  tag.stage = coord_.pp;
  tag.dp = coord_.dp;
  tag.mb = mb;
  tag.layer = layer;
  tag.idx = idx;
  const double t0 = now();
  allreduce(*ep_, "ring", tp_group_, {}, shared_->cost.tp_allreduce_bytes, tag);
  const double t1 = now();
  shared_->ledgers[rank_].tp_s += t1 - t0;
  span("tp allreduce", "tp", t0, t1);
}

void RankActor::pp_send(int dst, char dir, int mb) {
  CommTag tag;
  tag.kind = CommTag::PP;
  tag.dir = dir;
  tag.stage = coord_.pp;
  tag.dp = coord_.dp;
  tag.tp = coord_.tp;
  tag.mb = mb;
  // Eager and detached: the transfer starts now and never blocks this rank's compute.
  ep_->send_detached(dst, shared_->cost.pp_message_bytes, tag);
}

void RankActor::pp_receive(int src, const char* what, int mb) {
  const double t0 = now();
  // Pipeline mailboxes have a permanent receiver (see simulate()): the sender's transfer started when it was posted
  // (eager), so the receive is posted only now, when the message is needed; FIFO per pair keeps the order.
  PendingRecv pending;
  ep_->post_recv(src, pending);
  std::unique_ptr<SgMessage> msg = ep_->complete(pending);
  const double t1 = now();
  // Until the sender posted the message the pipeline was empty (bubble); after that the message was in flight.
  const double posted = std::min(std::max(msg->post_time_s, t0), t1);
  RankLedger& ledger = shared_->ledgers[rank_];
  ledger.bubble_s += posted - t0;
  ledger.pp_s += t1 - posted;
  if (shared_->record_spans) {
    const std::string name = std::string(what) + " mb" + std::to_string(mb);
    span(name, "bubble", t0, posted);
    span(name, "pp", posted, t1);
  }
}

void RankActor::forward(int mb) {
  const StageCost& st = shared_->cost.stages[coord_.pp];
  const int prev = shared_->plan.pp_prev(rank_), next = shared_->plan.pp_next(rank_);
  if (prev >= 0) pp_receive(prev, "recv act", mb);
  // Megatron: each layer = attention (half the flops, then an all-reduce) + MLP (the other half, all-reduce).
  for (int l = 0; l < st.layers; ++l) {
    compute(st.layer_fwd_flops / 2, "fwd", mb);
    tp_allreduce('f', mb, l, 0);
    compute(st.layer_fwd_flops / 2, "fwd", mb);
    tp_allreduce('f', mb, l, 1);
  }
  compute(st.extra_fwd_flops, "fwd", mb);
  if (next >= 0) pp_send(next, 'a', mb);
}

void RankActor::backward(int mb) {
  const StageCost& st = shared_->cost.stages[coord_.pp];
  const int prev = shared_->plan.pp_prev(rank_), next = shared_->plan.pp_next(rank_);
  if (next >= 0) pp_receive(next, "recv grad", mb);
  compute(2 * st.extra_fwd_flops, "bwd", mb);
  // Backward = 2x forward flops, in reverse layer order, again two all-reduces per layer.
  for (int l = st.layers - 1; l >= 0; --l) {
    compute(st.layer_fwd_flops, "bwd", mb);
    tp_allreduce('b', mb, l, 0);
    compute(st.layer_fwd_flops, "bwd", mb);
    tp_allreduce('b', mb, l, 1);
  }
  if (prev >= 0) pp_send(prev, 'g', mb);
}

/** A progress line on stderr, at most every progress_every_s wall seconds: long simulations (minutes) are not
 *  silent. Rank 0 reports: its position is a fair measure of the iteration's progress (it starts first and, in
 *  1F1B, finishes last). */
static void report_progress(SimShared& sh, int iteration, std::size_t op, std::size_t ops, double simulated_s) {
  const auto now_wall = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now_wall - sh.last_progress).count() < sh.progress_every_s) return;
  sh.last_progress = now_wall;
  std::fprintf(stderr, "hulk: simulating: iteration %d/%d, rank 0 at pipeline op %zu/%zu, simulated time %.3f s\n",
               iteration + 1, sh.job->iterations, op, ops, simulated_s);
}

void RankActor::operator()() {
  SimShared& sh = *shared_;
  RankLedger& ledger = sh.ledgers[rank_];
  Endpoint ep(rank_, *sh.fabric, ledger);
  ep_ = &ep;
  coord_ = sh.plan.coord_of(rank_);
  tp_group_ = sh.plan.tp_group(rank_);
  const std::vector<int> dp_group = sh.plan.dp_group(rank_);
  std::vector<int> dp_regions;
  for (int r : dp_group) dp_regions.push_back(sh.region_of_rank[r]);
  const int p = sh.plan.parallelism().pp;
  const int m = sh.cost.micro_batches;
  const std::vector<PipeOp> ops = pipeline_schedule(sh.job->schedule, p, coord_.pp, m);
  const double dp_bytes = sh.cost.stages[coord_.pp].dp_grad_bytes;

  for (int it = 0; it < sh.job->iterations; ++it) {
    ledger.iteration = it;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].forward) forward(ops[i].micro_batch);
      else backward(ops[i].micro_batch);
      if (rank_ == 0 && sh.progress_every_s > 0) report_progress(sh, it, i + 1, ops.size(), now());
    }
    if (dp_group.size() > 1) {
      CommTag tag;
      tag.kind = CommTag::DP;
      tag.stage = coord_.pp;
      tag.tp = coord_.tp;
      const double t0 = now();
      allreduce(ep, sh.job->collective, dp_group, dp_regions, dp_bytes, tag);
      const double t1 = now();
      ledger.dp_s += t1 - t0;
      span("dp allreduce", "dp", t0, t1);
    }
    // Pipeline sends are detached: each is complete once its receiver had it, which the barrier guarantees.
    const double t0 = now();
    sh.barrier->wait();
    const double t1 = now();
    ledger.bubble_s += t1 - t0;
    span("iteration barrier", "bubble", t0, t1);
    if (rank_ == 0) sh.iteration_end_s.push_back(t1);
  }
  ep_ = nullptr;
}

}  // namespace hulk
