#include "sim/engine/simulator.hpp"

#include <cmath>
#include <stdexcept>

#include <algorithm>
#include <filesystem>
#include <memory>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "sim/core/errors.hpp"
#include "sim/workload/placement_check.hpp"
#include "sim/engine/engine_startup.hpp"
#include "sim/engine/private_ring.hpp"
#include "sim/engine/rank_actor.hpp"
#include "sim/engine/sg_platform.hpp"
#include "sim/engine/trace_recorder.hpp"
#include "sim/report/outputs.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

namespace {

/** The shared state of all rank actors (everything but the fabric, which the caller owns). */
void prepare_shared(const JobSpec& job, const SgPlatform& sg, const std::vector<int>& host_of_rank,
                    const std::vector<int>& region_of_host, const SimOptions& options, SimShared& shared) {
  const int ranks = job.par.ranks();
  shared.job = &job;
  shared.plan = ParallelPlan(job.par);
  shared.cost = compute_job_cost(job);
  shared.record_spans = options.record_spans;
  shared.progress_every_s = options.progress_every_s;
  for (int r = 0; r < ranks; ++r) {
    shared.region_of_rank.push_back(region_of_host[host_of_rank[r]]);
    shared.flops_scale_of_rank.push_back(sg.flops_scale[host_of_rank[r]]);
    shared.exec_bound_of_rank.push_back(sg.exec_bound[host_of_rank[r]]);
  }
  shared.ledgers.resize(ranks);
  shared.barrier = sg4::Barrier::create(ranks);
}

/** Makes (or, with nullptr receivers, unmakes) every pipeline pair an eager channel in both directions. */
void set_pipeline_receivers(const SimShared& shared, MessageFabric& fabric, const std::vector<sg4::ActorPtr>& actors,
                            bool release) {
  for (int r = 0; r < static_cast<int>(actors.size()); ++r) {
    const int next = shared.plan.pp_next(r);
    if (next < 0) continue;
    fabric.set_permanent_receiver(r, next, release ? nullptr : actors[next]);
    fabric.set_permanent_receiver(next, r, release ? nullptr : actors[r]);
  }
}

/** One actor per rank on its host, then the engine runs to the end. */
void run_ranks(sg4::Engine& engine, const SgPlatform& sg, const std::vector<int>& host_of_rank, SimShared& shared,
               MessageFabric& fabric) {
  const int ranks = static_cast<int>(host_of_rank.size());
  std::vector<sg4::ActorPtr> actors;
  for (int r = 0; r < ranks; ++r)
    actors.push_back(sg4::Actor::create("rank" + std::to_string(r), sg.hosts[host_of_rank[r]], [r, &shared]() {
      RankActor actor(r, shared);
      actor();
    }));
  // Overlapped p2p: pipeline channels are eager, a stage's activation/gradient starts transferring when its
  // courier sends it, whatever the receiver is doing (as with pre-posted receive buffers), and the receiver's own
  // activity list stays short. Blocking p2p (Megatron's 1F1B) is a rendezvous: no permanent receiver.
  const bool eager = !shared.job->pipeline_p2p_blocking();
  if (eager) set_pipeline_receivers(shared, fabric, actors, false);
  engine.run();
  if (eager) set_pipeline_receivers(shared, fabric, actors, true);  // SimGrid keeps the receivers alive otherwise
}

/** Per-iteration, per-rank means of the ledgers' totals. */
void summarise_ledgers(const SimShared& shared, double iters, SimResult& res) {
  const int ranks = static_cast<int>(shared.ledgers.size());
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
}

/** comm.csv and trace.json of the run, streamed from the recorder into `dir` (each written atomically). */
void write_trace_files(const std::string& dir, const Scenario& scenario, const Placement& placement,
                       const SimOptions& options, const std::vector<int>& host_of_rank, TraceRecorder& trace) {
  if (options.record_events)
    write_file_atomic(dir + "/comm.csv", [&](std::ostream& out) {
      out << comm_csv_header();
      std::string row;
      trace.drain_events([&](const RawEvent& e) {
        row.clear();
        append_comm_csv_row(row, scenario, to_comm_event(e, host_of_rank));
        out << row;
      });
    });
  if (options.record_spans)
    write_file_atomic(dir + "/trace.json", [&](std::ostream& out) {
      ChromeTraceWriter writer(out, scenario, placement);
      trace.drain_spans([&](const Span& s) { writer.add(s); });
      writer.finish();
    });
}

}  // namespace

SimResult simulate(const Scenario& scenario, const Placement& placement, const SimOptions& options) {
  const std::string problem = placement_problem(scenario, placement, scenario.job.check_memory);
  if (!problem.empty()) throw InputError(scenario.file, 0, "placement", problem);
  const JobSpec& job = scenario.job;
  const PlatformSpec& platform = scenario.platform;

  const std::unique_ptr<sg4::Engine> engine = start_engine(scenario.network);
  const SgPlatform sg = sg_build_platform(platform, job, latency_at_receiver(scenario.network));

  const int ranks = job.par.ranks();
  std::vector<int> host_of_rank(ranks), region_of_host;
  for (const HostSpec& h : platform.hosts) region_of_host.push_back(h.region);
  for (int r = 0; r < ranks; ++r) host_of_rank[r] = placement.gpu_of_rank[r].host;
  SimShared shared;
  prepare_shared(job, sg, host_of_rank, region_of_host, options, shared);
  // Spill files go beside the outputs (the disk the user chose for this run's data; /tmp may be memory). If the
  // folder cannot be made, they go to $TMPDIR and writing the outputs reports the folder as the input error.
  std::error_code no_folder;
  if (!options.trace_dir.empty()) std::filesystem::create_directories(options.trace_dir, no_folder);
  TraceRecorder trace(ranks, options.trace_buffer_records, no_folder ? std::string() : options.trace_dir);
  for (RankLedger& l : shared.ledgers) l.trace = &trace;
  MessageFabric fabric(host_of_rank, region_of_host, options.record_events, sg, scenario.network);
  shared.fabric = &fabric;
  std::unique_ptr<PrivateRings> rings;
  if (options.tp_closed_form) {
    rings = std::make_unique<PrivateRings>(private_ring_groups(scenario, shared.plan, host_of_rank), job.par.tp,
                                           scenario.network.channels_per_peer);
    shared.rings = rings.get();
  }
  run_ranks(*engine, sg, host_of_rank, shared, fabric);

  // SimGrid returns from run() on a deadlock (it prints "Oops! Deadlock detected"): a run whose iterations did not
  // all complete has no iteration time, and must be an error rather than a success with a null or partial time.
  if (static_cast<int>(shared.iteration_end_s.size()) < job.iterations || !std::isfinite(engine->get_clock()))
    throw std::runtime_error("the simulation did not finish: " + std::to_string(shared.iteration_end_s.size()) +
                             " of " + std::to_string(job.iterations) + " iterations completed at simulated time " +
                             std::to_string(engine->get_clock()) + " s (SimGrid deadlock or non-finite time)");
  SimResult res;
  res.placement = placement;
  const double iters = job.iterations;
  res.total_time_s = shared.iteration_end_s.empty() ? engine->get_clock() : shared.iteration_end_s.back();
  res.iteration_time_s = res.total_time_s / iters;
  res.tp_closed_form_collectives = rings ? rings->collectives() : 0;
  res.tp_closed_form_messages = rings ? rings->messages() : 0;
  summarise_ledgers(shared, iters, res);
  if (!options.trace_dir.empty()) {
    write_trace_files(options.trace_dir, scenario, placement, options, host_of_rank, trace);
  } else {
    if (options.record_events)
      trace.drain_events([&](const RawEvent& e) { res.events.push_back(to_comm_event(e, host_of_rank)); });
    if (options.record_spans) trace.drain_spans([&](const Span& s) { res.spans.push_back(s); });
  }
  return res;
}

}  // namespace hulk
