// `hulk validate`: loads a scenario, checks its placement file, prints one summary line and the data warnings.
#include <algorithm>
#include <iostream>
#include <memory>

#include "tools/cli/commands.hpp"
#include "tools/cli/data_warnings.hpp"
#include "tools/cli/overrides_option.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/lab/fidelity_collective.hpp"
#include "sim/scenario/collective_bench_file.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk::cli {
namespace {

/** A job whose tensor-parallel groups cannot fit one host is valid (hulk simulates TP over the network) but rarely
 *  meant: validate says so. */
void warn_tp_wider_than_hosts(const Scenario& s) {
  int widest = 0;
  for (const HostSpec& h : s.platform.hosts) widest = std::max(widest, h.gpus);
  for (int j = 0; j < job_count(s); ++j) {
    const JobSpec& job = job_at(s, j);
    if (job.par.tp > widest)
      std::cerr << "hulk: warning: " << job_label(s, j) << ": tp " << job.par.tp << " is wider than the largest host ("
                << widest << " GPUs): every tensor-parallel group spans hosts, its all-reduces crossing the network "
                << "at every layer\n";
  }
}

void run_validate(const std::string& file, const std::vector<std::string>& sets) {
  if (is_collective_bench_file(file)) {  // `collective:` instead of `job:` (scenarios/README.md)
    if (!sets.empty()) throw InputError(file, 0, "--set", "not for a collective benchmark file");
    std::cout << collective_validation_line(load_collective_bench_file(file));
    return;
  }
  Scenario s = load_scenario_file(file, parse_set_overrides(sets));
  // The scenario's own placement file is read and checked as simulate does before it runs, so that a file that
  // gives two ranks one GPU, or that is another scenario's, is not "ok".
  if (s.placement.rfind("file:", 0) == 0) check_method_applies(s, s.placement, MethodOptions{});
  print_data_warnings(s, false);  // showing them is what validate is for
  warn_tp_wider_than_hosts(s);
  std::cout << "ok: " << s.name << ": " << s.platform.hosts.size() << " hosts, " << s.platform.total_gpus()
            << " GPUs, " << s.platform.regions.size() << " regions, ";
  if (!names_jobs(s)) {
    std::cout << "job " << parallelism_text(s.only_job());
  } else {
    std::cout << s.jobs.size() << " jobs (" << total_ranks(s) << " GPUs):";
    for (std::size_t k = 0; k < s.jobs.size(); ++k)
      std::cout << (k ? "; " : " ") << s.jobs[k].name << " " << parallelism_text(s.jobs[k]);
  }
  // The events and robust keys, only when present (the line of a scenario without them is unchanged); each trace row counts.
  if (!s.events.empty()) std::cout << ", " << s.events.size() << (s.events.size() == 1 ? " event" : " events");
  if (s.robust.samples > 0) std::cout << ", robust: " << s.robust.samples << " states";
  std::cout << "\n";
}

}  // namespace

/** `hulk validate SCENARIO [--set KEY=VALUE]...`. */
void register_validate_command(CLI::App& app) {
  auto* validate = app.add_subcommand("validate", "Parse and validate a scenario; print a summary and warnings");
  auto validate_file = std::make_shared<std::string>();
  validate->add_option("scenario", *validate_file, "scenario YAML file")->required();
  validate->footer("Example:\n  hulk validate scenarios/examples/two-region-gpt.yaml\n\nPrints one summary line on "
                   "stdout and the data warnings on stderr; a bad file is one error line and exit code 2.");
  auto validate_sets = std::make_shared<std::vector<std::string>>();
  add_set_option(validate, *validate_sets);  // a user checks an override before a long run
  validate->callback([validate_file, validate_sets] { run_validate(*validate_file, *validate_sets); });
}

}  // namespace hulk::cli
