#include "placement.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "cost_model.hpp"
#include "errors.hpp"
#include "plan.hpp"

namespace hulk {

std::vector<GpuSlot> all_gpus(const PlatformSpec& platform) {
  std::vector<GpuSlot> out;
  for (int h = 0; h < static_cast<int>(platform.hosts.size()); ++h)
    for (int s = 0; s < platform.hosts[h].gpus; ++s) out.push_back({h, s});
  return out;
}

Placement round_robin_placement(const Scenario& scenario) {
  const auto& hosts = scenario.platform.hosts;
  const int ranks = scenario.job.par.ranks();
  Placement p;
  // Rounds over the hosts in listed order, one GPU per host per round; hosts with fewer GPUs drop out of later
  // rounds. With equal hosts this is exactly rank r -> host r mod H, slot r div H.
  for (int round = 0; static_cast<int>(p.gpu_of_rank.size()) < ranks; ++round) {
    bool any = false;
    for (int h = 0; h < static_cast<int>(hosts.size()) && static_cast<int>(p.gpu_of_rank.size()) < ranks; ++h) {
      if (round < hosts[h].gpus) {
        p.gpu_of_rank.push_back({h, round});
        any = true;
      }
    }
    if (!any)
      throw InputError(scenario.file, 0, "job.parallelism",
                       "the job needs " + std::to_string(ranks) + " GPUs but the platform has " +
                           std::to_string(scenario.platform.total_gpus()));
  }
  return p;
}

namespace {

std::string gib(double bytes) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed << bytes / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return os.str();
}

}  // namespace

std::string placement_problem(const Scenario& scenario, const Placement& placement, bool check_memory) {
  const auto& hosts = scenario.platform.hosts;
  const int ranks = scenario.job.par.ranks();
  if (static_cast<int>(placement.gpu_of_rank.size()) != ranks)
    return "placement has " + std::to_string(placement.gpu_of_rank.size()) + " ranks, the job has " +
           std::to_string(ranks);
  std::set<GpuSlot> used;
  for (int r = 0; r < ranks; ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    if (g.host < 0 || g.host >= static_cast<int>(hosts.size()))
      return "rank " + std::to_string(r) + " is on host index " + std::to_string(g.host) + ", which does not exist";
    if (g.slot < 0 || g.slot >= hosts[g.host].gpus)
      return "rank " + std::to_string(r) + " is on GPU " + std::to_string(g.slot) + " of host " + hosts[g.host].name +
             ", which has " + std::to_string(hosts[g.host].gpus) + " GPUs";
    if (!used.insert(g).second)
      return "GPU " + std::to_string(g.slot) + " of host " + hosts[g.host].name + " is given to two ranks";
  }
  if (!check_memory) return "";
  const JobCost cost = compute_job_cost(scenario.job);
  const ParallelPlan plan(scenario.job.par);
  for (int r = 0; r < ranks; ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    const StageCost& st = cost.stages[plan.coord_of(r).pp];
    const GpuSpec& gpu = hosts[g.host].gpu;
    if (st.peak_memory_bytes > gpu.memory_bytes)
      return "rank " + std::to_string(r) + " (stage " + std::to_string(plan.coord_of(r).pp) + ") needs " +
             gib(st.peak_memory_bytes) + " (weights+optimizer " + gib(st.weight_state_bytes) + ", activations " +
             gib(st.activation_bytes_per_mb) + " x " + std::to_string(st.in_flight_micro_batches) +
             " micro-batches) but GPU " + std::to_string(g.slot) + " of host " + hosts[g.host].name + " (" + gpu.name +
             ") has " + gib(gpu.memory_bytes);
  }
  return "";
}

nlohmann::json placement_to_json(const Scenario& scenario, const Placement& placement) {
  const auto& par = scenario.job.par;
  nlohmann::json ranks = nlohmann::json::array();
  for (size_t r = 0; r < placement.gpu_of_rank.size(); ++r) {
    const GpuSlot& g = placement.gpu_of_rank[r];
    const HostSpec& h = scenario.platform.hosts.at(g.host);
    ranks.push_back({{"rank", r},
                     {"host", h.name},
                     {"slot", g.slot},
                     {"region", scenario.platform.regions.at(h.region)}});
  }
  return {{"parallelism", {{"dp", par.dp}, {"tp", par.tp}, {"pp", par.pp}}}, {"ranks", ranks}};
}

Placement placement_from_json(const Scenario& scenario, const nlohmann::json& doc, const std::string& file) {
  const nlohmann::json* p = &doc;
  if (doc.is_object() && doc.contains("placement") && doc["placement"].is_object()) p = &doc["placement"];
  if (!p->is_object() || !p->contains("ranks") || !(*p)["ranks"].is_array())
    throw InputError(file, 0, "ranks", "expected an object with a \"ranks\" array (the format `hulk simulate` writes)");
  const auto& hosts = scenario.platform.hosts;
  const int n = static_cast<int>((*p)["ranks"].size());
  const int expected = scenario.job.par.ranks();
  if (n != expected)
    throw InputError(file, 0, "ranks",
                     "has " + std::to_string(n) + " entries, the job has " + std::to_string(expected) + " ranks");
  Placement out;
  out.gpu_of_rank.assign(n, GpuSlot{-1, -1});
  std::vector<bool> seen(n, false);
  for (int i = 0; i < n; ++i) {
    const auto& e = (*p)["ranks"][i];
    const std::string key = "ranks[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("rank") || !e.contains("host") || !e.contains("slot") ||
        !e["rank"].is_number_integer() || !e["host"].is_string() || !e["slot"].is_number_integer())
      throw InputError(file, 0, key, "expected {\"rank\": int, \"host\": name, \"slot\": int}");
    const int rank = e["rank"].get<int>();
    if (rank < 0 || rank >= n || seen[rank])
      throw InputError(file, 0, key + ".rank", "rank " + std::to_string(rank) + " is out of range or repeated");
    seen[rank] = true;
    const std::string name = e["host"].get<std::string>();
    int host = -1;
    for (int h = 0; h < static_cast<int>(hosts.size()); ++h)
      if (hosts[h].name == name) host = h;
    if (host < 0) throw InputError(file, 0, key + ".host", "unknown host '" + name + "' (not in the platform)");
    out.gpu_of_rank[rank] = {host, e["slot"].get<int>()};
  }
  const std::string problem = placement_problem(scenario, out, false);
  if (!problem.empty()) throw InputError(file, 0, "ranks", problem);
  return out;
}

Placement load_placement_file(const Scenario& scenario, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open placement file");
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded()) throw InputError(path, 0, "", "not valid JSON (expected a placement object)");
  return placement_from_json(scenario, doc, path);
}

}  // namespace hulk
