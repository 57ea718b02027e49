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
#include "sim/core/jobs.hpp"
#include "sim/workload/islands.hpp"
#include "sim/workload/placement_check.hpp"
#include "sim/engine/disturbances.hpp"
#include "sim/engine/engine_startup.hpp"
#include "sim/engine/latency_ring.hpp"
#include "sim/engine/private_ring.hpp"
#include "sim/engine/rank_actor.hpp"
#include "sim/engine/sg_platform.hpp"
#include "sim/engine/trace_recorder.hpp"
#include "sim/report/outputs.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

namespace {

/** The simulation ranks of every job (job after job) on their hosts, and what each rank needs from the platform. */
void prepare_ranks(const Scenario& scenario, const SgPlatform& sg, const std::vector<int>& host_of_rank,
                   const std::vector<int>& region_of_host, const SimOptions& options, SimShared& shared) {
  const int ranks = static_cast<int>(host_of_rank.size());
  shared.record_spans = options.record_spans;
  shared.outer_step = options.outer_step;
  shared.progress_every_s = options.progress_every_s;
  shared.jobs.resize(job_count(scenario));
  for (int j = 0; j < job_count(scenario); ++j) {
    JobRun& run = shared.jobs[j];
    run.job = &job_at(scenario, j);
    run.index = j;
    run.offset = job_rank_offset(scenario, j);
    run.plan = ParallelPlan(run.job->par);
    run.cost = compute_job_cost(*run.job);
    run.stages = StagesByHost(*run.job, run.cost, scenario.platform);
    run.barrier = sg4::Barrier::create(run.job->par.ranks());
    if (!options.job_starts.empty()) {
      run.start_s = options.job_starts.at(j).at_s;
      run.first_iteration = options.job_starts.at(j).first_iteration;
    }
    for (int r = 0; r < run.job->par.ranks(); ++r) shared.job_of_rank.push_back(j);
  }
  // SimGrid host speeds are those of the first job's precision and utilisation (sg_build_platform); another job's
  // GPUs run at their own, so its flop counts are scaled by the ratio (exactly 1 for the first job).
  const JobSpec& first = job_at(scenario, 0);
  for (int r = 0; r < ranks; ++r) {
    const int h = host_of_rank[r];
    const JobSpec& job = *shared.jobs[shared.job_of_rank[r]].job;
    const GpuSpec& gpu = scenario.platform.hosts[h].gpu;
    const double own_speed = shared.job_of_rank[r] == 0
                                 ? 1.0
                                 : (gpu.peak_flops(first.precision) * first.utilisation) /
                                       (gpu.peak_flops(job.precision) * job.utilisation);
    shared.region_of_rank.push_back(region_of_host[h]);
    shared.flops_scale_of_rank.push_back(sg.flops_scale[h] * own_speed);
    shared.exec_bound_of_rank.push_back(sg.exec_bound[h]);
  }
  shared.ledgers.resize(ranks);
}

/** The TP groups of every job whose all-reduces take the closed form. A host holding ranks of two jobs is left to
 *  the per-message path: private_ring_groups counts one job's flows on the host's intra-host link. */
std::vector<std::unique_ptr<PrivateRings>> make_private_rings(const Scenario& scenario,
                                                              const std::vector<int>& host_of_rank,
                                                              SimShared& shared) {
  std::vector<int> job_on_host(scenario.platform.hosts.size(), -1);  // -2: several jobs
  for (int r = 0; r < static_cast<int>(host_of_rank.size()); ++r) {
    int& on = job_on_host[host_of_rank[r]];
    on = on == -1 || on == shared.job_of_rank[r] ? shared.job_of_rank[r] : -2;
  }
  std::vector<std::unique_ptr<PrivateRings>> rings;
  for (JobRun& run : shared.jobs) {
    const std::vector<int> hosts(host_of_rank.begin() + run.offset,
                                 host_of_rank.begin() + run.offset + run.plan.ranks());
    PrivateRingPlan plan = private_ring_groups(job_view(scenario, run.index), run.plan, hosts);
    const int tp = run.plan.parallelism().tp;
    for (std::size_t g = 0; g < plan.eligible.size(); ++g)
      if (job_on_host[hosts[g * tp]] == -2) plan.eligible[g] = 0;
    rings.push_back(std::make_unique<PrivateRings>(std::move(plan), tp, scenario.network.channels_per_peer,
                                                   run.offset));
    run.rings = rings.back().get();
  }
  return rings;
}

/** Makes (or, with nullptr receivers, unmakes) every pipeline pair of a job an eager channel in both directions. */
void set_pipeline_receivers(const JobRun& run, MessageFabric& fabric, const std::vector<sg4::ActorPtr>& actors,
                            bool release) {
  const bool interleaved = run.job->virtual_stages > 1;
  for (int local = 0; local < run.plan.ranks(); ++local) {
    int next = run.plan.pp_next(local);
    // Interleaved 1F1B: the last stage's model chunk c hands off to the first stage's chunk c + 1.
    if (next < 0 && interleaved) {
      const RankCoord c = run.plan.coord_of(local);
      next = run.plan.rank_of(0, c.dp, c.tp);
    }
    if (next < 0 || next == local) continue;
    const int r = run.global(local), n = run.global(next);
    fabric.set_permanent_receiver(r, n, release ? nullptr : actors[n]);
    fabric.set_permanent_receiver(n, r, release ? nullptr : actors[r]);
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
  for (const JobRun& run : shared.jobs)
    if (!run.job->pipeline_p2p_blocking()) set_pipeline_receivers(run, fabric, actors, false);
  engine.run();
  for (const JobRun& run : shared.jobs)  // SimGrid keeps the receivers alive otherwise
    if (!run.job->pipeline_p2p_blocking()) set_pipeline_receivers(run, fabric, actors, true);
}

/** One job's result: per-iteration, per-rank means of its ranks' ledgers, its time and placement. */
SimResult job_result(const SimShared& shared, const JobRun& run, const Placement& placement, double clock_s) {
  SimResult res;
  const int ranks = run.plan.ranks();
  // The outer step: one all-reduce. A run stopped by a failure: the iterations it completed.
  const double iters = run.iteration_end_s.empty() ? 1.0 : static_cast<double>(run.iteration_end_s.size());
  res.placement.gpu_of_rank.assign(placement.gpu_of_rank.begin() + run.offset,
                                   placement.gpu_of_rank.begin() + run.offset + ranks);
  // The outer step alone has no iterations: its time is the all-reduce's (the clock at the end).
  res.total_time_s = run.iteration_end_s.empty() ? clock_s : run.iteration_end_s.back();
  res.iteration_time_s = run.iteration_end_s.empty() ? clock_s : res.total_time_s / iters;
  res.iteration_start_s = run.iteration_start_s;
  res.iteration_end_s = run.iteration_end_s;
  res.checkpoints = run.checkpoints;
  for (int local = 0; local < ranks; ++local) {
    const RankLedger& l = shared.ledgers[run.global(local)];
    res.compute_s += l.compute_s;
    res.comm_tp_s += l.tp_s;
    res.comm_dp_s += l.dp_s;
    res.comm_pp_s += l.pp_s;
    res.bubble_s += l.bubble_s;
    res.bytes.intra_host += l.bytes.intra_host;
    res.bytes.intra_region += l.bytes.intra_region;
    res.bytes.inter_region += l.bytes.inter_region;
    res.messages += l.messages;
    res.peak_memory_bytes.push_back(run.cost.stages[run.plan.coord_of(local).pp].peak_memory_bytes);
    // Work: the slowest rank's. A collective: the member that joined last waited for no one, so its time is the
    // collective's own (the others' include waiting for it): the smallest over the members.
    IterationCosts& c = res.iteration_costs;
    const auto least_positive = [](double& into, double v) {
      if (v > 0) into = into > 0 ? std::min(into, v) : v;
    };
    c.optimizer_step_s = std::max(c.optimizer_step_s, l.fixed.optimizer_step_s / iters);
    least_positive(c.grad_norm_allreduce_s, l.fixed.grad_norm_allreduce_s / iters);
    least_positive(c.embedding_allreduce_s, l.fixed.embedding_allreduce_s / iters);
    c.framework_overhead_s = std::max(c.framework_overhead_s, l.fixed.framework_overhead_s / iters);
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
  return res;
}

/** The cluster's result of several jobs: each job's, the objective (weighted mean iteration time), the makespan,
 *  and over all ranks the means of compute and communication (rank-weighted) and the sums of bytes and messages. */
SimResult cluster_result(const Scenario& scenario, std::vector<SimResult> jobs, const Placement& placement) {
  SimResult res;
  res.placement = placement;
  std::vector<double> times;
  double ranks = 0;
  for (const SimResult& j : jobs) {
    const double n = static_cast<double>(j.placement.gpu_of_rank.size());
    times.push_back(j.iteration_time_s);
    res.makespan_s = std::max(res.makespan_s, j.total_time_s);
    res.compute_s += n * j.compute_s;
    res.comm_dp_s += n * j.comm_dp_s;
    res.comm_tp_s += n * j.comm_tp_s;
    res.comm_pp_s += n * j.comm_pp_s;
    res.bubble_s += n * j.bubble_s;
    res.bytes.intra_host += j.bytes.intra_host;
    res.bytes.intra_region += j.bytes.intra_region;
    res.bytes.inter_region += j.bytes.inter_region;
    res.messages += j.messages;
    res.peak_memory_bytes.insert(res.peak_memory_bytes.end(), j.peak_memory_bytes.begin(), j.peak_memory_bytes.end());
    ranks += n;
  }
  res.compute_s /= ranks;
  res.comm_dp_s /= ranks;
  res.comm_tp_s /= ranks;
  res.comm_pp_s /= ranks;
  res.bubble_s /= ranks;
  res.objective_s = weighted_objective(scenario, times);
  res.iteration_time_s = res.objective_s;
  res.total_time_s = res.makespan_s;
  res.jobs = std::move(jobs);
  return res;
}

/** A recorded message as a comm.csv row: hosts from the simulation ranks, then (several jobs) the job and the
 *  job's own rank numbers. */
CommEvent comm_event(const RawEvent& e, const std::vector<int>& host_of_rank, const SimShared& shared) {
  CommEvent c = to_comm_event(e, host_of_rank);
  c.job = shared.job_of_rank[e.src];
  c.src_rank -= shared.jobs[c.job].offset;
  c.dst_rank -= shared.jobs[c.job].offset;
  return c;
}

/** comm.csv and trace.json of the run, streamed from the recorder into `dir` (each written atomically). */
void write_trace_files(const std::string& dir, const Scenario& scenario, const Placement& placement,
                       const SimOptions& options, const std::vector<int>& host_of_rank, const SimShared& shared,
                       TraceRecorder& trace, double end_s) {
  if (options.record_events)
    write_file_atomic(dir + "/comm.csv", [&](std::ostream& out) {
      out << comm_csv_header(scenario);
      std::string row;
      trace.drain_events([&](const RawEvent& e) {
        row.clear();
        append_comm_csv_row(row, scenario, comm_event(e, host_of_rank, shared));
        out << row;
      });
    });
  if (options.record_spans)
    write_file_atomic(dir + "/trace.json", [&](std::ostream& out) {
      ChromeTraceWriter writer(out, scenario, placement);
      trace.drain_spans([&](const Span& s) { writer.add(s); });
      if (options.apply_events) writer.add_events(scenario, options.event_origin_s, end_s);
      writer.finish();
    });
}

/** The scenario on a quiet network. */
Scenario without_events(const Scenario& scenario) {
  Scenario quiet = scenario;
  quiet.events.clear();
  return quiet;
}

/** Throws unless every job ran all its iterations. SimGrid returns from run() on a deadlock (it prints "Oops!
 *  Deadlock detected"): such a run has no iteration time, and must be an error rather than a partial success. */
void check_finished(const SimShared& shared, const sg4::Engine& engine) {
  for (const JobRun& run : shared.jobs)
    if (static_cast<int>(run.iteration_end_s.size()) < run.job->iterations || !std::isfinite(engine.get_clock()))
      throw std::runtime_error(
          "the simulation did not finish: " + std::string(shared.jobs.size() > 1 ? "job '" + run.job->name + "': " : "") +
          std::to_string(run.iteration_end_s.size()) + " of " + std::to_string(run.job->iterations) +
          " iterations completed at simulated time " + std::to_string(engine.get_clock()) +
          " s (SimGrid deadlock or non-finite time)");
}

}  // namespace

SimResult simulate(const Scenario& scenario, const Placement& placement, const SimOptions& options) {
  const std::string problem = placement_problem(scenario, placement, checks_memory(scenario));
  if (!problem.empty()) throw InputError(scenario.file, 0, "placement", problem);
  const PlatformSpec& platform = scenario.platform;

  const std::unique_ptr<sg4::Engine> engine = start_engine(scenario.network);
  SgPlatform sg = sg_build_platform(platform, job_at(scenario, 0), latency_at_receiver(scenario.network),
                                    options.apply_events ? bandwidth_profiles(scenario, options.event_origin_s)
                                                         : std::map<int, LinkProfile>{},
                                    options.region_zones);

  const int ranks = total_ranks(scenario);
  std::vector<int> host_of_rank(ranks), region_of_host;
  for (const HostSpec& h : platform.hosts) region_of_host.push_back(h.region);
  for (int r = 0; r < ranks; ++r) host_of_rank[r] = placement.gpu_of_rank[r].host;
  SimShared shared;
  prepare_ranks(scenario, sg, host_of_rank, region_of_host, options, shared);
  // Spill files go beside the outputs (the disk the user chose for this run's data; /tmp may be memory). If the
  // folder cannot be made, they go to $TMPDIR and writing the outputs reports the folder as the input error.
  std::error_code no_folder;
  if (!options.trace_dir.empty()) std::filesystem::create_directories(options.trace_dir, no_folder);
  TraceRecorder trace(ranks, options.trace_buffer_records, no_folder ? std::string() : options.trace_dir);
  for (RankLedger& l : shared.ledgers) l.trace = &trace;
  MessageFabric fabric(host_of_rank, region_of_host, options.record_events, sg, scenario.network);
  shared.fabric = &fabric;
  std::vector<std::unique_ptr<PrivateRings>> rings;
  if (options.tp_closed_form) rings = make_private_rings(scenario, host_of_rank, shared);
  std::vector<std::unique_ptr<LatencyRings>> tail_rings;
  const bool has_events = options.apply_events && !scenario.events.empty();
  if (options.tail_closed_form && latency_rings_apply(sg, has_events, std::isfinite(options.stop_at_s)))
    for (JobRun& run : shared.jobs) {
      tail_rings.push_back(
          std::make_unique<LatencyRings>(run.plan.parallelism().dp, sg, scenario.network.channels_per_peer));
      run.tail_rings = tail_rings.back().get();
    }
  std::unique_ptr<IslandPlan> islands;
  if (runs_diloco(scenario)) {
    islands = std::make_unique<IslandPlan>(island_plan(scenario, placement));
    shared.jobs.front().islands = islands.get();
  } else if (options.outer_step) {
    throw std::logic_error("SimOptions::outer_step is for a job with sync.algorithm diloco");
  }
  bool stopped = false;
  if (options.apply_events || std::isfinite(options.stop_at_s))
    start_disturbances(options.apply_events ? scenario : without_events(scenario), sg, options.event_origin_s,
                       options.stop_at_s, &stopped);
  run_ranks(*engine, sg, host_of_rank, shared, fabric);
  if (!options.outer_step && !stopped) check_finished(shared, *engine);

  std::vector<SimResult> jobs;
  for (const JobRun& run : shared.jobs) jobs.push_back(job_result(shared, run, placement, engine->get_clock()));
  SimResult res = names_jobs(scenario) ? cluster_result(scenario, std::move(jobs), placement) : std::move(jobs.front());
  res.stopped = stopped;
  for (const auto& r : rings) {
    res.tp_closed_form_collectives += r->collectives();
    res.tp_closed_form_messages += r->messages();
  }
  for (const auto& r : tail_rings) res.tail_closed_form_messages += r->messages();
  if (!options.trace_dir.empty()) {
    write_trace_files(options.trace_dir, scenario, placement, options, host_of_rank, shared, trace,
                      engine->get_clock());
  } else {
    if (options.record_events)
      trace.drain_events([&](const RawEvent& e) { res.events.push_back(comm_event(e, host_of_rank, shared)); });
    if (options.record_spans) trace.drain_spans([&](const Span& s) { res.spans.push_back(s); });
  }
  return res;
}

}  // namespace hulk
