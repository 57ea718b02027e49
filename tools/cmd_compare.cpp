// `hulk place` and `hulk compare`.
#include <iostream>
#include <memory>

#include "tools/commands.hpp"
#include "tools/gnn_backend.hpp"
#include "sim/methods/compare_runner.hpp"
#include "sim/methods/method_registry.hpp"
#include "sim/core/errors.hpp"
#include "sim/report/outputs.hpp"
#include "sim/place/placer.hpp"
#include "sim/report/placement_json.hpp"
#include "sim/methods/scenario_loading.hpp"

namespace hulk::cli {
namespace {

struct PlaceArgs {
  std::string file, method = "greedy", out;
  MethodOptions options = cli_method_options();
};

struct CompareArgs {
  std::string file, methods = "round-robin,greedy,search", out;
  bool json = false;
  MethodOptions options = cli_method_options();
};

}  // namespace

void register_compare_commands(CLI::App& app) {
  auto* place = app.add_subcommand("place", "Compute a placement and write it as JSON");
  auto pa = std::make_shared<PlaceArgs>();
  place->add_option("scenario", pa->file, "scenario YAML file")->required();
  place->add_option("--method", pa->method, "placement method (see hulk compare --help)")->capture_default_str();
  place->footer("Methods:\n" + methods_help());
  place->add_option("--out", pa->out, "placement JSON file to write (default: stdout)");
  place->add_option("--budget", pa->options.budget, "search budget in evaluations");
  place->add_option("--model", pa->options.model_path, "GNN model file");
  place->callback([pa] {
    check_method(pa->method, "", "--method");  // a bad option is named as such, not as the scenario's key
    Scenario s = load_scenario_file(pa->file);
    PlacementOutcome placed = compute_placement(s, pa->method, pa->options);
    nlohmann::json doc = placement_to_json(s, placed.placement);
    doc["method"] = pa->method;
    doc["method_wall_s"] = placed.wall_s;
    if (pa->out.empty())
      std::cout << doc.dump(2) << "\n";
    else
      write_file_atomic(pa->out, doc.dump(2) + "\n");
    std::cerr << "placed with " << pa->method << " in " << placed.wall_s << " s\n";
  });

  auto* compare = app.add_subcommand("compare", "Compare placement methods; every time comes from SimGrid");
  auto ca = std::make_shared<CompareArgs>();
  compare->add_option("scenario", ca->file, "scenario YAML file")->required();
  compare->add_option("--methods", ca->methods, "comma-separated methods")->capture_default_str();
  compare->footer("Methods:\n" + methods_help());
  compare->add_option("--budget", ca->options.budget, "search budget in evaluations");
  compare->add_option("--model", ca->options.model_path, "GNN model file");
  compare->add_flag("--json", ca->json, "print JSON instead of the table");
  compare->add_option("--out", ca->out, "also write the JSON report to this file");
  compare->callback([ca] {
    const std::vector<std::string> methods = parse_method_list(ca->methods);
    Scenario s = load_scenario_file(ca->file);
    CompareReport report = run_compare(s, methods, ca->options, true);
    nlohmann::json doc = report_to_json(s, report);
    if (!ca->out.empty()) write_file_atomic(ca->out, doc.dump(2) + "\n");
    if (ca->json)
      std::cout << doc.dump(2) << "\n";
    else
      std::cout << report_table(report);
    // A report with no result is a failure, whatever was printed (each method's reason is in the table).
    if (!any_method_ok(report))
      throw InputError(ca->file, 0, "--methods", "every method failed on this scenario (reasons above)");
  });
}

}  // namespace hulk::cli
