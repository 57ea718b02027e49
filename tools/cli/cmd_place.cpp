// `hulk place`: parse the options, compute one method's placement and write it as JSON.
#include <iostream>
#include <memory>

#include "sim/methods/method_registry.hpp"
#include "sim/methods/scenario_loading.hpp"
#include "sim/report/outputs.hpp"
#include "sim/report/placement_json.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/data_warnings.hpp"
#include "tools/cli/gnn_backend.hpp"
#include "tools/cli/method_choices.hpp"
#include "tools/cli/option_ranges.hpp"
#include "tools/cli/overrides_option.hpp"

namespace hulk::cli {
namespace {

struct PlaceArgs {
  std::string file, method = "greedy", out;
  std::vector<std::string> sets;
  bool quiet = false;
  MethodOptions options = cli_method_options();
};

const char* kPlaceFooter = R"(Examples:
  hulk place scenarios/examples/two-region-gpt.yaml --method search --out runs/search.json
  hulk simulate scenarios/examples/two-region-gpt.yaml --placement file:runs/search.json
  hulk place scenarios/examples/two-region-gpt.yaml --set wan.default.latency=100ms --method gnn

Methods (--method, default: greedy):
)";

}  // namespace

void register_place_command(CLI::App& app) {
  auto* place = app.add_subcommand("place", "Compute a placement and write it as JSON");
  auto pa = std::make_shared<PlaceArgs>();
  place->add_option("scenario", pa->file, "scenario YAML file")->required();
  place->add_option("--method", pa->method, "placement method: a name below or file:PATH")
      ->capture_default_str()
      ->check(method_choices());
  place->footer(kPlaceFooter + methods_help());
  place->add_option("--out", pa->out, "placement JSON file to write (default: stdout)");
  place->add_option("--budget", pa->options.budget, kSearchBudgetHelp)->capture_default_str()
      ->check(budget_range());
  place->add_option("--model", pa->options.model_path, learned_model_help());
  add_set_option(place, pa->sets);
  add_quiet_flag(place, pa->quiet);
  place->callback([pa] {
    check_method(pa->method, "", "--method");  // a bad option is named as such, not as the scenario's key
    Scenario s = load_scenario_file(pa->file, parse_set_overrides(pa->sets));
    print_data_warnings(s, pa->quiet);
    s.events.clear();  // methods place for the quiet network (the robust method has its own distribution)
    PlacementOutcome placed = compute_placement(s, pa->method, pa->options);
    nlohmann::json doc = placement_to_json(s, placed.placement);
    doc["method"] = pa->method;  // no wall time here (stderr has it): the same command writes the same bytes
    if (pa->out.empty())
      std::cout << doc.dump(2) << "\n";
    else
      write_file_atomic(pa->out, doc.dump(2) + "\n");
    std::cerr << "placed with " << pa->method << " in " << placed.wall_s << " s\n";
  });
}

}  // namespace hulk::cli
