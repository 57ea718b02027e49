#include "sim/lab/reproduce_run.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "sim/core/atomic_file.hpp"
#include "sim/core/data_dir.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/core/subprocess.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk {
namespace {

namespace fs = std::filesystem;

/** "5 paper scenarios" for the bundled reproduction, "3 scenarios in DIR" for a user's folder. */
std::string scenario_set_name(const std::string& dir, size_t count) {
  std::error_code ec;
  const bool paper = fs::equivalent(dir, data_path("scenarios/paper"), ec);
  const std::string noun = count == 1 ? " scenario" : " scenarios";
  return std::to_string(count) + (paper ? " paper" + noun : noun + " in " + dir);
}

/** Scenarios of one job and of several jobs sharing the cluster are summarised (and the claim tested) apart: their
 *  times are not comparable. The claim is tested on gnn when it ran, else on the last requested method. */
void summarise(const std::vector<Scenario>& scenarios, const std::vector<std::string>& methods, const std::string& dir,
               ReproduceReport& report) {
  const std::string claim_method =
      std::find(methods.begin(), methods.end(), "gnn") != methods.end() ? "gnn" : methods.back();
  std::vector<Scenario> one_s, several_s;
  std::vector<CompareReport> one, several;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    (names_jobs(scenarios[i]) ? several_s : one_s).push_back(scenarios[i]);
    (names_jobs(scenarios[i]) ? several : one).push_back(report.reports[i]);
  }
  if (!one.empty()) {
    const ClaimVerdict claim = claim_verdict(one, claim_method);
    report.groups.push_back({scenario_set_name(dir, one.size()), one, claim});
    report.doc = reproduce_json(one_s, one, methods, claim);
  }
  if (!several.empty()) {
    const ClaimVerdict claim = claim_verdict(several, claim_method);
    const std::string name = std::to_string(several.size()) + " scenario" + (several.size() == 1 ? "" : "s") +
                             " of several jobs sharing one cluster" +
                             " (times: the weighted mean iteration time of the jobs)";
    report.groups.push_back({name, several, claim});
    nlohmann::json part = reproduce_json(several_s, several, methods, claim);
    if (!report.doc.contains("scenarios")) report.doc["scenarios"] = nlohmann::json::array();
    for (const nlohmann::json& scn : part["scenarios"]) report.doc["scenarios"].push_back(scn);
    part.erase("scenarios");
    report.doc["several_jobs"] = part;
  }
}

}  // namespace

std::vector<std::string> reproduce_scenario_files(const std::string& dir) {
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "", "not a folder of scenario YAML files");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError(dir, 0, "", "no .yaml scenarios in this folder");
  return files;
}

std::vector<Scenario> load_reproduce_scenarios(const std::vector<std::string>& files) {
  std::vector<Scenario> scenarios;
  for (const auto& f : files) scenarios.push_back(load_scenario_file(f));  // fail fast on any bad file
  // The report's rows are keyed by the scenario's name: two files of one name (a copy left unrenamed) gave rows that
  // could not be told apart.
  std::map<std::string, std::string> file_of_name;
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    if (const auto [it, fresh] = file_of_name.emplace(scenarios[i].name, files[i]); !fresh)
      throw InputError(files[i], 0, "name",
                       "'" + scenarios[i].name + "' is also the name of " + it->second +
                           " (expected one name per scenario: the report's rows are keyed by it)");
  return scenarios;
}

void check_reproduce_out(const std::string& out) {
  for (const char* name : {"reproduce.json", "reproduce.csv", "reproduce.partial.csv"}) {
    const fs::path file = fs::path(out) / name;
    std::error_code ec;
    if (fs::is_directory(file, ec))
      throw InputError(file.string(), 0, "--out", std::string("is a folder where reproduce writes its file ") + name +
                                                      " (expected a file or nothing there)");
  }
}

ReproduceReport run_reproduce(const std::vector<Scenario>& scenarios, const std::vector<std::string>& methods,
                              const MethodOptions& options, const std::string& dir, const std::string& out,
                              const std::function<void(const std::string&)>& progress,
                              const std::function<void(const CompareReport&)>& on_scenario) {
  ReproduceReport report;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    if (progress)
      progress("reproduce: [" + std::to_string(i + 1) + "/" + std::to_string(scenarios.size()) + "] " +
               scenarios[i].name);
    // round-robin as a reference whatever the methods: the paper's claim is against it.
    CompareReport one = run_compare(scenarios[i], methods, options, true, true);
    if (interrupt_requested()) {  // its methods were cut short: not a result; no verdict on part of the set
      write_file_atomic(out + "/reproduce.partial.csv", reproduce_csv(report.reports));
      throw Interrupted(std::to_string(report.reports.size()) + " of " + std::to_string(scenarios.size()) +
                        " scenarios finished, their rows in " + out + "/reproduce.partial.csv (no verdict, " +
                        "reproduce.csv and .json untouched); a rerun starts over");
    }
    report.reports.push_back(std::move(one));
    if (on_scenario) on_scenario(report.reports.back());
  }
  summarise(scenarios, methods, dir, report);
  write_file_atomic(out + "/reproduce.json", report.doc.dump(2) + "\n");
  write_file_atomic(out + "/reproduce.csv", reproduce_csv(report.reports));
  std::error_code stale;
  fs::remove(out + "/reproduce.partial.csv", stale);  // of an earlier, interrupted run
  return report;
}

bool plot_reproduce(const std::string& plot_script, const std::string& out) {
  // Debian's matplotlib belongs to /usr/bin/python3; a python3 earlier on PATH (pyenv, venv) may lack it.
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string cmd = python + " " + plot_script + " reproduce " + out + "/reproduce.json --out " + out + " 1>&2";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace hulk
