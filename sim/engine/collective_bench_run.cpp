#include "sim/engine/collective_bench_run.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "sim/core/subprocess.hpp"
#include "sim/engine/collectives.hpp"
#include "sim/engine/engine_startup.hpp"
#include "sim/engine/sg_endpoint.hpp"
#include "sim/engine/sg_platform.hpp"
#include "sim/engine/trace_recorder.hpp"

namespace hulk {

namespace sg4 = simgrid::s4u;

namespace {

/** The tree's actor sets: (tree 0, reduce), (tree 0, broadcast), (tree 1, reduce), (tree 1, broadcast). */
constexpr int kTreeSets = 4;

/** Actor r's part of the benchmark's collective (tree: actor r runs set r / n for GPU r % n). */
void run_member(Endpoint& ep, const CollectiveBenchSpec& spec, const std::vector<int>& ring,
                const std::vector<std::vector<std::vector<int>>>& by_node, const std::vector<int>& region_of_member,
                const std::vector<simgrid::s4u::SemaphorePtr>& root_ready) {
  CommTag tag;
  tag.kind = CommTag::DP;
  if (spec.op != "all_reduce") return ring_half_allreduce(ep, ring, spec.bytes, tag);
  if (spec.algorithm == "tree") {
    const int set = ep.rank() / spec.ranks(), tree = set / 2, phase = set % 2;
    return tree_allreduce_phase(ep, by_node[set], spec.bytes / 2, tree, phase, root_ready[tree], tag);
  }
  allreduce(ep, "ring", ring, region_of_member, spec.bytes, tag);
}

}  // namespace

CollectiveBenchResult simulate_collective(const CollectiveBenchSpec& spec) {
  const NetworkSpec network;
  const std::unique_ptr<sg4::Engine> engine = start_engine(network);
  SgPlatform sg = sg_build_platform(spec.platform, JobSpec{}, latency_at_receiver(network), {}, true);
  const int n = spec.ranks(), g = spec.gpus_per_node;
  // The tree's two halves and two phases run as four sets of actors on the same GPUs, each with its own connections.
  const int sets = spec.algorithm == "tree" ? kTreeSets : 1, actors = sets * n;
  std::vector<int> host_of_rank(actors), region_of_host, ring(n), region_of_member(n);
  std::vector<std::vector<std::vector<int>>> by_node(sets, std::vector<std::vector<int>>(spec.nodes));
  const std::vector<simgrid::s4u::SemaphorePtr> root_ready = {simgrid::s4u::Semaphore::create(0),
                                                              simgrid::s4u::Semaphore::create(0)};
  for (const HostSpec& h : spec.platform.hosts) region_of_host.push_back(h.region);
  for (int r = 0; r < actors; ++r) {
    host_of_rank[r] = (r % n) / g;
    by_node[r / n][(r % n) / g].push_back(r);
  }
  for (int r = 0; r < n; ++r) {
    ring[r] = r;
    region_of_member[r] = region_of_host[r / g];
  }
  std::vector<RankLedger> ledgers(actors);
  TraceRecorder trace(actors, 1 << 10, "");
  for (RankLedger& l : ledgers) l.trace = &trace;
  MessageFabric fabric(host_of_rank, region_of_host, false, sg, network);
  std::vector<double> end_s(actors, 0.0);
  for (int r = 0; r < actors; ++r)
    sg4::Actor::create("rank" + std::to_string(r), sg.hosts[host_of_rank[r]], [&, r]() {
      Endpoint ep(r, fabric, ledgers[r]);
      run_member(ep, spec, ring, by_node, region_of_member, root_ready);
      end_s[r] = sg4::Engine::get_clock();
    });
  engine->run();
  CollectiveBenchResult res;
  for (int r = 0; r < actors; ++r) {
    res.time_s = std::max(res.time_s, end_s[r]);
    res.messages += ledgers[r].messages;
    res.bytes.intra_host += ledgers[r].bytes.intra_host;
    res.bytes.intra_region += ledgers[r].bytes.intra_region;
    res.bytes.inter_region += ledgers[r].bytes.inter_region;
  }
  if (!(res.time_s > 0) || !std::isfinite(res.time_s))
    throw std::runtime_error("the collective benchmark did not finish (SimGrid deadlock or non-finite time)");
  return with_bandwidths(spec, res);
}

nlohmann::json collective_result_json(const CollectiveBenchSpec& spec, const CollectiveBenchResult& r) {
  nlohmann::json j;
  j["name"] = spec.name;
  j["collective"] = {{"op", spec.op},       {"algorithm", spec.algorithm},         {"bytes", spec.bytes},
                     {"nodes", spec.nodes}, {"gpus_per_node", spec.gpus_per_node}, {"ranks", spec.ranks()}};
  j["time_s"] = r.time_s;
  j["algbw_GBps"] = r.algbw_Bps / 1e9;
  j["busbw_GBps"] = r.busbw_Bps / 1e9;
  j["bus_factor"] = collective_bus_factor(spec.op, spec.ranks());
  j["messages"] = r.messages;
  j["bytes"] = {{"intra_host", r.bytes.intra_host},
                {"intra_region", r.bytes.intra_region},
                {"inter_region", r.bytes.inter_region}};
  return j;
}

CollectiveBenchResult simulate_collective_isolated(const CollectiveBenchSpec& spec) {
  const nlohmann::json j = run_in_child([&]() { return collective_result_json(spec, simulate_collective(spec)); });
  CollectiveBenchResult r;
  r.time_s = j.at("time_s").get<double>();
  r.messages = j.at("messages").get<long long>();
  r.bytes.intra_host = j.at("bytes").at("intra_host").get<double>();
  r.bytes.intra_region = j.at("bytes").at("intra_region").get<double>();
  r.bytes.inter_region = j.at("bytes").at("inter_region").get<double>();
  return with_bandwidths(spec, r);
}

}  // namespace hulk
