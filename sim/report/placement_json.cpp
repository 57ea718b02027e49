#include "sim/report/placement_json.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "sim/core/input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/workload/placement_check.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {

/** @brief Larger slots than any host's GPUs (placement_problem then names the host); bounded so the int holds it. */
constexpr long long kMaxGpuSlot = 1 << 20;

namespace {

/** One job's placement object (`scenario` is a one-job scenario or view; `job` its name, "" for one job). */
nlohmann::json one_job_to_json(const Scenario& scenario, const Placement& placement, const std::string& job) {
  const auto& par = scenario.only_job().par;
  nlohmann::json ranks = nlohmann::json::array();
  for (size_t r = 0; r < placement.gpu_of_rank.size(); ++r)
    ranks.push_back(rank_json(scenario, placement, static_cast<int>(r), job));
  return {{"parallelism", {{"dp", par.dp}, {"tp", par.tp}, {"pp", par.pp}}}, {"ranks", ranks}};
}

/** The keys a rank entry may hold: what rank_json writes. A misspelt "regoin" read as no region would go
 *  unnoticed, so any other key is refused. */
bool known_rank_key(const std::string& name) {
  for (const char* k : {"rank", "job", "stage", "replica", "tp_index", "host", "slot", "region"})
    if (name == k) return true;
  return false;
}

/** The coordinates written beside a rank are for the reader; one that contradicts the rank id (a file of another
 *  rank order) is refused, never ignored. */
void check_rank_coords(const nlohmann::json& e, const ParallelPlan& plan, int rank, const std::string& job,
                       const std::string& file, const std::string& key) {
  const RankCoord c = plan.coord_of(rank);
  const std::pair<const char*, int> coords[] = {{"stage", c.pp}, {"replica", c.dp}, {"tp_index", c.tp}};
  for (const auto& [name, want] : coords)
    if (e.contains(name) && (!e[name].is_number_integer() || e[name].get<long long>() != want))
      throw InputError(file, 0, key + "." + name,
                       e[name].dump() + " is not rank " + std::to_string(rank) + "'s " + name + " (expected " +
                           std::to_string(want) + ": rank = (stage * dp + replica) * tp + tp_index)");
  if (!job.empty() && e.contains("job") && (!e["job"].is_string() || e["job"].get<std::string>() != job))
    throw InputError(file, 0, key + ".job",
                     e["job"].dump() + " is not the job of this entry (expected \"" + job + "\")");
}

/** One job's placement from its object `*p`; keys in messages start with `prefix` ("" or "jobs[1]."). */
Placement one_job_from_json(const Scenario& scenario, const nlohmann::json* p, const std::string& file,
                            const std::string& prefix, const std::string& job) {
  const ParallelPlan plan(scenario.only_job().par);
  if (!p->is_object() || !p->contains("ranks") || !(*p)["ranks"].is_array())
    throw InputError(file, 0, prefix + "ranks",
                     "expected an object with a \"ranks\" array (the format `hulk simulate` writes)");
  // A file written for another shape of the job would be read in the wrong rank layout, even with as many ranks.
  if (p->contains("parallelism")) {
    const nlohmann::json& par = (*p)["parallelism"];
    const Parallelism& want = scenario.only_job().par;
    const auto degree = [&par](const char* k) {
      return par.is_object() && par.contains(k) && par[k].is_number_integer() ? par[k].get<int>() : -1;
    };
    if (!par.is_object() || degree("dp") != want.dp || degree("tp") != want.tp || degree("pp") != want.pp)
      throw InputError(file, 0, prefix + "parallelism",
                       par.dump() + " is not the scenario's job (expected {\"dp\":" + std::to_string(want.dp) +
                           ",\"pp\":" + std::to_string(want.pp) + ",\"tp\":" + std::to_string(want.tp) +
                           "}: the ranks would be read in another layout)");
  }
  const auto& hosts = scenario.platform.hosts;
  const int n = static_cast<int>((*p)["ranks"].size());
  const int expected = scenario.only_job().par.ranks();
  if (n != expected)
    throw InputError(file, 0, prefix + "ranks",
                     "has " + std::to_string(n) + " entries, the job has " + std::to_string(expected) + " ranks");
  Placement out;
  out.gpu_of_rank.assign(n, GpuSlot{-1, -1});
  std::vector<bool> seen(n, false);
  for (int i = 0; i < n; ++i) {
    const auto& e = (*p)["ranks"][i];
    const std::string key = prefix + "ranks[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.contains("rank") || !e.contains("host") || !e.contains("slot") ||
        !e["rank"].is_number_integer() || !e["host"].is_string() || !e["slot"].is_number_integer())
      throw InputError(file, 0, key, "expected {\"rank\": int, \"host\": name, \"slot\": int}");
    for (const auto& [name, value] : e.items())
      if (!known_rank_key(name))
        throw InputError(file, 0, key + "." + name,
                         "unknown key (expected rank, host, slot and, optionally, job, stage, replica, tp_index, "
                         "region)");
    // Read as 64-bit first: get<int> wraps 4294967297 to 1 without a word (and above 2^63 the value reads negative).
    const long long rank_value = e["rank"].get<long long>(), slot_value = e["slot"].get<long long>();
    if (rank_value < 0 || rank_value >= n || seen[rank_value])
      throw InputError(file, 0, key + ".rank", "rank " + e["rank"].dump() + " is out of range or repeated");
    const int rank = static_cast<int>(rank_value);
    check_rank_coords(e, plan, rank, job, file, key);
    if (slot_value < 0 || slot_value > kMaxGpuSlot)
      throw InputError(file, 0, key + ".slot", "slot " + e["slot"].dump() + " is out of range (expected a GPU index "
                                               "of its host, from 0)");
    seen[rank] = true;
    const std::string name = e["host"].get<std::string>();
    int host = -1;
    for (int h = 0; h < static_cast<int>(hosts.size()); ++h)
      if (hosts[h].name == name) host = h;
    if (host < 0) throw InputError(file, 0, key + ".host", "unknown host '" + name + "' (not in the platform)");
    // The region is written for the reader; one that contradicts the host is a mistake somewhere, never ignored.
    if (e.contains("region")) {
      const std::string& region = scenario.platform.regions.at(hosts[host].region);
      if (!e["region"].is_string() || e["region"].get<std::string>() != region)
        throw InputError(file, 0, key + ".region",
                         "region " + e["region"].dump() + " is not host '" + name + "''s region (expected \"" +
                             region + "\" or no region key)");
    }
    out.gpu_of_rank[rank] = {host, static_cast<int>(slot_value)};
  }
  const std::string problem = placement_problem(scenario, out, false);
  if (!problem.empty()) throw InputError(file, 0, prefix + "ranks", problem);
  return out;
}

/** Several jobs: {"jobs": [{"name", "parallelism", "ranks"}...]}, each job found by name. */
Placement jobs_from_json(const Scenario& scenario, const nlohmann::json& p, const std::string& file) {
  if (!p.is_object() || !p.contains("jobs") || !p["jobs"].is_array())
    throw InputError(file, 0, "jobs",
                     "expected an object with a \"jobs\" array of {\"name\", \"ranks\"} (one per job of the "
                     "scenario, the format `hulk simulate` writes)");
  const nlohmann::json& list = p["jobs"];
  std::vector<Placement> per_job;
  for (int j = 0; j < job_count(scenario); ++j) {
    const std::string& name = job_at(scenario, j).name;
    int found = -1;
    for (int i = 0; i < static_cast<int>(list.size()); ++i)
      if (list[i].is_object() && list[i].contains("name") && list[i]["name"] == name) {
        if (found >= 0)
          throw InputError(file, 0, "jobs[" + std::to_string(i) + "].name",
                           "job '" + name + "' appears twice (also jobs[" + std::to_string(found) + "])");
        found = i;
      }
    if (found < 0) throw InputError(file, 0, "jobs", "has no entry for job '" + name + "' of the scenario");
    per_job.push_back(one_job_from_json(job_view(scenario, j), &list[found], file,
                                        "jobs[" + std::to_string(found) + "].", name));
  }
  if (static_cast<int>(list.size()) != job_count(scenario))
    throw InputError(file, 0, "jobs",
                     "has " + std::to_string(list.size()) + " entries, the scenario has " +
                         std::to_string(job_count(scenario)) + " jobs (an entry names no job of the scenario)");
  Placement out = concat_placements(per_job);
  const std::string problem = placement_problem(scenario, out, false);
  if (!problem.empty()) throw InputError(file, 0, "jobs", problem);
  return out;
}

}  // namespace

nlohmann::json rank_json(const Scenario& scenario, const Placement& placement, int rank, const std::string& job) {
  const RankCoord c = ParallelPlan(scenario.only_job().par).coord_of(rank);
  const GpuSlot& g = placement.gpu_of_rank.at(rank);
  const HostSpec& h = scenario.platform.hosts.at(g.host);
  nlohmann::json e = {{"rank", rank},
                      {"stage", c.pp},
                      {"replica", c.dp},
                      {"tp_index", c.tp},
                      {"host", h.name},
                      {"slot", g.slot},
                      {"region", scenario.platform.regions.at(h.region)}};
  if (!job.empty()) e["job"] = job;
  return e;
}

nlohmann::json placement_to_json(const Scenario& scenario, const Placement& placement) {
  if (!names_jobs(scenario)) return one_job_to_json(scenario, placement, "");
  nlohmann::json jobs = nlohmann::json::array();
  for (int j = 0; j < job_count(scenario); ++j) {
    const std::string& name = job_at(scenario, j).name;
    nlohmann::json one = one_job_to_json(job_view(scenario, j), job_slice(scenario, placement, j), name);
    one["name"] = name;
    jobs.push_back(one);
  }
  return {{"jobs", jobs}};
}

Placement placement_from_json(const Scenario& scenario, const nlohmann::json& doc, const std::string& file) {
  const nlohmann::json* p = &doc;
  if (doc.is_object() && doc.contains("placement") && doc["placement"].is_object()) p = &doc["placement"];
  if (names_jobs(scenario)) return jobs_from_json(scenario, *p, file);
  return one_job_from_json(scenario, p, file, "", "");
}

Placement load_placement_file(const Scenario& scenario, const std::string& path) {
  if (path.empty()) throw InputError("", 0, "placement", "no placement file named (expected file:PATH)");
  std::ifstream in = open_input_file(path, "placement file", "a placement JSON file (hulk place --out)");
  // JSON leaves duplicate keys to the reader and nlohmann keeps the last: {"slot": 0, "slot": 1} would be slot 1
  // without a word. The parse callback sees every key; the first repeated one is refused after the parse.
  std::vector<std::set<std::string>> keys_of_open_objects;
  std::string duplicate;
  const auto watch_keys = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) keys_of_open_objects.emplace_back();
    if (event == Event::object_end && !keys_of_open_objects.empty()) keys_of_open_objects.pop_back();
    if (event == Event::key && !keys_of_open_objects.empty() &&
        !keys_of_open_objects.back().insert(parsed.get<std::string>()).second && duplicate.empty())
      duplicate = parsed.get<std::string>();
    return true;
  };
  nlohmann::json doc = nlohmann::json::parse(in, watch_keys, false);
  if (doc.is_discarded()) throw InputError(path, 0, "", "not valid JSON (expected a placement object)");
  if (!duplicate.empty())
    throw InputError(path, 0, duplicate, "key '" + escape_control_chars(duplicate) +
                                             "' appears twice in one object (expected each key once)");
  return placement_from_json(scenario, doc, path);
}

}  // namespace hulk
