#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <tuple>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "sim/core/errors.hpp"
#include "sim/workload/placement_check.hpp"
#include "sim/engine/rank_actor.hpp"
#include "sim/engine/sg_platform.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

namespace {

/** Deterministic total order of events: by time, then by endpoints, then by what they belong to. */
bool event_less(const RawEvent& a, const RawEvent& b) {
  return std::tie(a.iteration, a.start_s, a.end_s, a.src, a.dst, a.tag.kind, a.tag.stage, a.tag.dp, a.tag.tp,
                  a.tag.mb, a.tag.layer, a.tag.idx, a.tag.dir) <
         std::tie(b.iteration, b.start_s, b.end_s, b.src, b.dst, b.tag.kind, b.tag.stage, b.tag.dp, b.tag.tp,
                  b.tag.mb, b.tag.layer, b.tag.idx, b.tag.dir);
}

}  // namespace

SimResult simulate(const Scenario& scenario, const Placement& placement, const SimOptions& options) {
  const std::string problem = placement_problem(scenario, placement, scenario.job.check_memory);
  if (!problem.empty()) throw InputError(scenario.file, 0, "placement", problem);
  const JobSpec& job = scenario.job;
  const PlatformSpec& platform = scenario.platform;

  int argc = 1;
  char arg0[] = "hulk";
  char* argv[] = {arg0, nullptr};
  sg4::Engine engine(&argc, argv);
  sg_configure_engine(scenario.network);
  const SgPlatform sg = sg_build_platform(platform, job);

  const int ranks = job.par.ranks();
  SimShared shared;
  shared.job = &job;
  shared.plan = ParallelPlan(job.par);
  shared.cost = compute_job_cost(job);
  shared.record_spans = options.record_spans;
  std::vector<int> host_of_rank(ranks), region_of_host;
  for (const HostSpec& h : platform.hosts) region_of_host.push_back(h.region);
  for (int r = 0; r < ranks; ++r) {
    host_of_rank[r] = placement.gpu_of_rank[r].host;
    shared.region_of_rank.push_back(region_of_host[host_of_rank[r]]);
    shared.flops_scale_of_rank.push_back(sg.flops_scale[host_of_rank[r]]);
    shared.exec_bound_of_rank.push_back(sg.exec_bound[host_of_rank[r]]);
  }
  MessageFabric fabric(host_of_rank, region_of_host, options.record_events);
  shared.fabric = &fabric;
  shared.ledgers.resize(ranks);
  shared.barrier = sg4::Barrier::create(ranks);
  std::vector<sg4::ActorPtr> actors;
  for (int r = 0; r < ranks; ++r)
    actors.push_back(sg4::Actor::create("rank" + std::to_string(r), sg.hosts[host_of_rank[r]], [r, &shared]() {
      RankActor actor(r, shared);
      actor();
    }));
  // Pipeline channels are eager: a stage's activation/gradient starts transferring when it is sent, whatever the
  // receiver is doing (as with pre-posted receive buffers), and the receiver's own activity list stays short.
  for (int r = 0; r < ranks; ++r) {
    const int next = shared.plan.pp_next(r);
    if (next < 0) continue;
    fabric.set_permanent_receiver(r, next, actors[next]);
    fabric.set_permanent_receiver(next, r, actors[r]);
  }
  engine.run();
  for (int r = 0; r < ranks; ++r) {  // release the receivers (SimGrid keeps them alive otherwise)
    const int next = shared.plan.pp_next(r);
    if (next < 0) continue;
    fabric.set_permanent_receiver(r, next, nullptr);
    fabric.set_permanent_receiver(next, r, nullptr);
  }

  SimResult res;
  res.placement = placement;
  const double iters = job.iterations;
  res.total_time_s = shared.iteration_end_s.empty() ? engine.get_clock() : shared.iteration_end_s.back();
  res.iteration_time_s = res.total_time_s / iters;
  for (int r = 0; r < ranks; ++r) {
    const RankLedger& l = shared.ledgers[r];
    res.compute_s += l.compute_s;
    res.comm_tp_s += l.tp_s;
    res.comm_dp_s += l.dp_s;
    res.comm_pp_s += l.pp_s;
    res.bubble_s += l.bubble_s;
    res.bytes.intra_host += l.bytes.intra_host;
    res.bytes.intra_region += l.bytes.intra_region;
    res.bytes.inter_region += l.bytes.inter_region;
    res.messages += l.messages;
    res.peak_memory_bytes.push_back(shared.cost.stages[shared.plan.coord_of(r).pp].peak_memory_bytes);
  }
  const double per_rank_iter = ranks * iters;
  res.compute_s /= per_rank_iter;
  res.comm_tp_s /= per_rank_iter;
  res.comm_dp_s /= per_rank_iter;
  res.comm_pp_s /= per_rank_iter;
  res.bubble_s /= per_rank_iter;
  res.bytes.intra_host /= iters;
  res.bytes.intra_region /= iters;
  res.bytes.inter_region /= iters;

  if (options.record_events) {
    std::vector<RawEvent> raw;
    for (auto& l : shared.ledgers) {
      raw.insert(raw.end(), l.events.begin(), l.events.end());
      std::vector<RawEvent>().swap(l.events);
    }
    std::sort(raw.begin(), raw.end(), event_less);
    res.events.reserve(raw.size());
    for (const RawEvent& e : raw) {
      CommEvent c;
      c.iteration = e.iteration;
      c.kind = e.tag.kind_name();
      c.collective = e.tag.id();
      c.src_rank = e.src;
      c.dst_rank = e.dst;
      c.src_host = host_of_rank[e.src];
      c.dst_host = host_of_rank[e.dst];
      c.bytes = e.bytes;
      c.start_s = e.start_s;
      c.end_s = e.end_s;
      res.events.push_back(std::move(c));
    }
  }
  if (options.record_spans)
    for (auto& l : shared.ledgers) res.spans.insert(res.spans.end(), l.spans.begin(), l.spans.end());
  return res;
}

}  // namespace hulk
