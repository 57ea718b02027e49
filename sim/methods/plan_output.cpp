// The files `hulk plan` writes: plan.csv, best.yaml and the chosen placement (plan.hpp).
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/csv_text.hpp"
#include "sim/methods/plan.hpp"
#include "sim/methods/plan_journal.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/scenario/yaml_access.hpp"

namespace hulk {
namespace {

/** A number as CSV text with 6 significant digits; "" for NaN (not known). */
std::string number(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return "inf";
  char t[32];
  std::snprintf(t, sizeof t, "%.6g", v);
  return t;
}

std::string absolute(const std::string& base_dir, const std::string& path) {
  const std::filesystem::path p(path);
  return (p.is_absolute() ? p : std::filesystem::path(base_dir) / p).lexically_normal().string();
}

/** The keys of a scenario that hold paths, made absolute (best.yaml lives in another folder than the scenario). */
void absolute_paths(YAML::Node root, const std::string& base_dir) {
  YAML::Node platform = root["platform"];
  if (platform && platform.IsMap()) {
    if (platform["hulk"] && platform["hulk"]["dir"])
      platform["hulk"]["dir"] = absolute(base_dir, platform["hulk"]["dir"].as<std::string>());
    if (platform["simgrid"] && platform["simgrid"]["file"])
      platform["simgrid"]["file"] = absolute(base_dir, platform["simgrid"]["file"].as<std::string>());
  }
  YAML::Node events = root["events"];
  if (events && events.IsSequence())
    for (std::size_t i = 0; i < events.size(); ++i)
      if (events[i].IsMap() && events[i]["trace"])
        events[i]["trace"] = absolute(base_dir, events[i]["trace"].as<std::string>());
}

}  // namespace

std::string plan_csv(const PlanReport& report) {
  std::string out = "dp,tp,pp,micro_batch,schedule,recompute,gpus,method,lower_bound_s,estimate_s,simgrid_s,"
                    "tokens_per_s,peak_memory_gb,gpu_usd_per_hour,egress_gb_per_iteration,usd_per_mtokens,chosen,"
                    "pruned\n";
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const PlanRow& r = report.rows[i];
    const Layout& l = r.layout;
    const double t = r.time_s();
    out += std::to_string(l.par.dp) + "," + std::to_string(l.par.tp) + "," + std::to_string(l.par.pp) + "," +
           std::to_string(l.micro_batch) + "," + l.schedule + "," + l.recompute + "," + std::to_string(r.gpus) + "," +
           r.method + "," + number(r.lower_bound_s) + "," + number(r.estimate_s) + "," + number(r.simgrid_s) + "," +
           (std::isfinite(t) && t > 0 ? number(r.tokens / t) : "") + "," +
           (r.peak_memory_bytes > 0 ? number(r.peak_memory_bytes / 1e9) : "") + "," +
           number(r.cost.gpu_usd_per_s * 3600) + "," + number(r.cost.egress_gb_per_iteration) + "," +
           (std::isfinite(t) ? number(r.usd_per_mtokens()) : "") + "," +
           (static_cast<int>(i) == report.best ? "yes" : "") + "," + csv_field(r.pruned) + "\n";
  }
  return out;
}

std::string best_scenario_yaml(const Scenario& s, const PlanRow& best, const std::string& placement_file) {
  YAML::Node root = YamlReader::load_file(s.file);
  const std::string base_dir = std::filesystem::absolute(std::filesystem::path(s.file)).parent_path().string();
  absolute_paths(root, base_dir);
  root.remove("plan");
  YAML::Node job = root["job"];
  YAML::Node par(YAML::NodeType::Map);
  par["dp"] = best.layout.par.dp;
  par["tp"] = best.layout.par.tp;
  par["pp"] = best.layout.par.pp;
  job["parallelism"] = par;
  job["micro_batch"] = best.layout.micro_batch;
  job["schedule"] = best.layout.schedule;
  job["recompute"] = best.layout.recompute;
  root["placement"] = "file:" + placement_file;
  YAML::Emitter emit;
  emit << root;
  return "# Written by `hulk plan` from " + s.file + ": its chosen layout (" + best.layout.name() + ", " +
         best.method + " placement).\n" + emit.c_str() + "\n";
}

void write_plan(const Scenario& s, const PlanReport& report, const std::string& dir) {
  const PlanRow& best = report.chosen();
  const std::string placement_name = "best-placement.json";
  const Scenario chosen = with_layout(s, best.layout);
  write_file_atomic(dir + "/" + placement_name, placement_to_json(chosen, best.placement).dump(2) + "\n");
  write_file_atomic(dir + "/plan.csv", plan_csv(report));
  write_file_atomic(dir + "/best.yaml", best_scenario_yaml(s, best, placement_name));
  // The plan is complete: a later plan into DIR starts afresh instead of resuming this one.
  std::error_code ignored;
  std::filesystem::remove(plan_journal_path(dir), ignored);
}

}  // namespace hulk
