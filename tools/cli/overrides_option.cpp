#include "tools/cli/overrides_option.hpp"

#include <set>

#include "sim/core/errors.hpp"
#include "sim/core/utf8.hpp"

namespace hulk::cli {

void add_set_option(CLI::App* cmd, std::vector<std::string>& sets) {
  cmd->add_option("--set", sets,
                  "KEY=VALUE: override a scenario key before validation (repeatable; e.g. wan.default.bandwidth=10Gbps, "
                  "job.parallelism.dp=4, 'regions.east.host_link={bandwidth: 25Gbps, latency: 10us}')")
      ->allow_extra_args(false);  // one KEY=VALUE per --set, so the scenario positional is never swallowed
}

std::vector<Override> parse_set_overrides(const std::vector<std::string>& sets) {
  std::vector<Override> overrides;
  std::set<std::string> keys;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      throw InputError("", 0, "--set", "'" + s + "' is not KEY=VALUE (e.g. wan.default.bandwidth=10Gbps)");
    const std::string key = s.substr(0, eq);
    if (first_invalid_utf8(s) != std::string::npos)
      throw InputError("", 0, "--set", "the value of '" + key + "' has a byte that is not UTF-8 (expected UTF-8 text)");
    // Two values for one key would silently keep one of them; sweep is the command for several values.
    if (!keys.insert(key).second)
      throw InputError("", 0, "--set", "key '" + key + "' given twice (to try several values, use hulk sweep)");
    overrides.push_back({key, s.substr(eq + 1)});
  }
  return overrides;
}

}  // namespace hulk::cli
