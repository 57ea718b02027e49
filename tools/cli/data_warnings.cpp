#include "tools/cli/data_warnings.hpp"

#include <iostream>
#include <set>
#include <string>

namespace hulk::cli {

void add_quiet_flag(CLI::App* cmd, bool& quiet) {
  cmd->add_flag("--quiet,-q", quiet, "do not print data warnings (e.g. the Hulk importer's rounding of GPU counts)");
}

void print_data_warnings(const Scenario& scenario, bool quiet) {
  static std::set<std::string> printed;  // one command per process: "once per process" is "once per command"
  if (quiet) return;
  for (const auto& w : scenario.platform.warnings)
    if (printed.insert(w).second) std::cerr << "hulk: warning: " << w << "\n";
}

}  // namespace hulk::cli
