// `hulk fidelity [DIR]`: simulated against published measured iteration times (scenarios/validation by default).
// Per hardware series the utilisation is solved on one calibration point and applied to the others; the table and
// the error summaries go to stdout, one progress line per simulation to stderr.
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "sim/core/data_dir.hpp"
#include "tools/cli/comma_list.hpp"
#include "tools/cli/commands.hpp"
#include "sim/core/errors.hpp"
#include "sim/lab/fidelity.hpp"
#include "sim/lab/plan_ranking.hpp"

namespace hulk::cli {
namespace {

struct FidelityArgs {
  std::string dir = data_path("scenarios/validation");
  std::string series;  // comma-separated
  bool series_given = false;  // --series absent: every series
  bool quiet = false;
  bool layouts = false;  // print the plan's ranking of layouts measured on the same hardware instead of the table
};

void run_fidelity_command(const FidelityArgs& args) {
  namespace fs = std::filesystem;
  // DIR is a folder holding measured.yaml, or the manifest file itself.
  const std::string manifest = fs::is_directory(args.dir) ? (fs::path(args.dir) / "measured.yaml").string() : args.dir;
  if (!fs::exists(manifest))
    throw InputError(manifest, 0, "", "no such manifest (expected DIR/measured.yaml or a manifest file; see scenarios/validation/README.md)");
  const FidelityManifest m = read_fidelity_manifest(manifest);
  const std::vector<std::string> only =
      args.series_given ? comma_list(args.series, "--series", "series names") : std::vector<std::string>{};
  const auto series = run_fidelity(m, only, simulate_scenario_iteration_s,
                                   args.quiet ? nullptr : &std::cerr);
  // The header names the manifest relative to the data root (data_dir.hpp) when it is inside it, so that the table is the same
  // bytes in every checkout.
  const fs::path source = fs::weakly_canonical(data_dir()), file = fs::weakly_canonical(manifest);
  const fs::path rel = file.lexically_relative(source);
  const bool inside = !rel.empty() && rel.native().rfind("..", 0) != 0;
  if (args.layouts) {
    const auto progress = [&args](const std::string& line) {
      if (!args.quiet) std::cerr << line << "\n";
    };
    std::cout << layout_ranking_table(rank_measured_layouts(series, progress)) << std::flush;
    return;
  }
  std::cout << fidelity_table(series, inside ? rel.string() : manifest) << std::flush;
}

}  // namespace

void register_fidelity_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "fidelity", "Compare simulated with published measured iteration times (one utilisation calibrated per series)");
  auto a = std::make_shared<FidelityArgs>();
  cmd->add_option("dir", a->dir, "folder with measured.yaml, or a manifest file")->capture_default_str();
  auto* series = cmd->add_option("--series", a->series, "comma-separated series to run (default: all)");
  cmd->add_flag("--quiet", a->quiet, "no progress lines on stderr");
  cmd->add_flag("--layouts", a->layouts,
                "instead of the table: for each job measured in several layouts on the same hardware, the ranking "
                "`hulk plan` predicts next to the measured one, and the plan's own choice");
  cmd->footer(R"(Examples:
  hulk fidelity                                    (scenarios/validation: every series, about 5 minutes)
  hulk fidelity --series dtfm-v100-geo             (one series)
  hulk fidelity tests/data/fidelity                (the tiny manifest of the tests)
  hulk fidelity --series dtfm-v100-datacenter --layouts   (DT-FM's four layouts: plan's ranking vs measured)

Manifest format, series and sources: scenarios/validation/README.md.)");
  cmd->callback([a, series] {
    a->series_given = series->count() > 0;
    run_fidelity_command(*a);
  });
}

}  // namespace hulk::cli
