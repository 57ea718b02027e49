// `prices:` of a scenario (scenarios/README.md, "Planning"): what `hulk plan` needs for its cost objective.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "sim/core/did_you_mean.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/scenario_parts.hpp"

namespace hulk::detail {
namespace {

/** A price: a finite number >= 0. */
double price(const YamlReader& r, const YAML::Node& node, const std::string& key) {
  const double v = r.number(node, key);
  if (v < 0) r.fail(node, key, "a price of " + node.Scalar() + " (expected a number >= 0, in dollars)");
  return v;
}

/** The platform's GPU kinds, in host order without repeats. */
std::vector<std::string> gpu_kinds(const PlatformSpec& platform) {
  std::vector<std::string> kinds;
  for (const HostSpec& h : platform.hosts)
    if (std::find(kinds.begin(), kinds.end(), h.gpu.name) == kinds.end()) kinds.push_back(h.gpu.name);
  return kinds;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/** Index of a region named at `key`, or a failure naming the platform's regions. */
int region_index(const YamlReader& r, const YAML::Node& node, const std::string& key, const PlatformSpec& platform) {
  const std::string name = r.str(node, key);
  for (std::size_t i = 0; i < platform.regions.size(); ++i)
    if (platform.regions[i] == name) return static_cast<int>(i);
  const std::string close = closest_name(name, platform.regions);
  r.fail(node, key, "unknown region '" + name + "'" + (close.empty() ? "" : " (did you mean '" + close + "'?)") +
                        " (expected one of " + listed(platform.regions) + ")");
}

void parse_gpu_hour(const YamlReader& r, const YAML::Node& node, const PlatformSpec& platform, PriceSpec& prices) {
  r.expect_map(node, "prices.gpu_hour");
  const std::vector<std::string> kinds = gpu_kinds(platform);
  for (const auto& kv : node) {
    const std::string kind = kv.first.Scalar(), key = "prices.gpu_hour." + kind;
    r.collect([&] {
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        r.fail(kv.first, key, "no GPU of the platform is a " + kind + " (expected one of " + listed(kinds) + ")");
      prices.gpu_hour[kind] = price(r, kv.second, key);
    });
  }
}

/** `egress_gb`: a number (every region pair) or {default, pairs: [{regions: [a, b], per_gb}]}. */
void parse_egress(const YamlReader& r, const YAML::Node& node, const PlatformSpec& platform, PriceSpec& prices) {
  const std::size_t n = platform.regions.size();
  const double none = std::numeric_limits<double>::quiet_NaN();
  if (node.IsScalar()) {
    prices.egress_gb.assign(n, std::vector<double>(n, price(r, node, "prices.egress_gb")));
    return;
  }
  r.expect_map(node, "prices.egress_gb");
  r.check_keys(node, "prices.egress_gb", {"default", "pairs"});
  const double fallback = node["default"] ? price(r, node["default"], "prices.egress_gb.default") : none;
  prices.egress_gb.assign(n, std::vector<double>(n, fallback));
  if (!node["pairs"]) return;
  r.expect_list(node["pairs"], "prices.egress_gb.pairs");
  for (std::size_t i = 0; i < node["pairs"].size(); ++i) {
    const YAML::Node e = node["pairs"][i];
    const std::string key = "prices.egress_gb.pairs." + std::to_string(i);
    r.collect([&] {
      r.expect_map(e, key);
      r.check_keys(e, key, {"regions", "per_gb"});
      const YAML::Node regions = r.require(e, key, "regions");
      if (!regions.IsSequence() || regions.size() != 2)
        r.fail(regions, key + ".regions", "expected a list of two region names");
      const int a = region_index(r, regions[0], key + ".regions.0", platform);
      const int b = region_index(r, regions[1], key + ".regions.1", platform);
      if (a == b) r.fail(regions, key + ".regions", "a region with itself (expected two different regions)");
      prices.egress_gb[a][b] = prices.egress_gb[b][a] = price(r, r.require(e, key, "per_gb"), key + ".per_gb");
    });
  }
}

}  // namespace

void parse_prices(const YamlReader& r, const YAML::Node& node, const PlatformSpec& platform, PriceSpec& prices) {
  r.record("prices", node);
  r.expect_map(node, "prices");
  r.check_keys(node, "prices", {"gpu_hour", "egress_gb"});
  if (node["gpu_hour"]) r.collect([&] { parse_gpu_hour(r, node["gpu_hour"], platform, prices); });
  if (node["egress_gb"]) r.collect([&] { parse_egress(r, node["egress_gb"], platform, prices); });
}

void check_prices_for_cost(const Scenario& s, const YamlReader& r) {
  if (s.plan.objective != "cost") return;
  const std::string why = " (expected prices for the cost objective)";
  if (!s.prices.any())
    r.fail_key("plan.objective", "objective cost needs `prices:` (gpu_hour per GPU kind, egress_gb)" + why);
  for (const std::string& kind : gpu_kinds(s.platform))
    if (!s.prices.gpu_hour.count(kind))
      r.fail_key("prices.gpu_hour", "no price per GPU-hour for " + kind + ", a GPU of the platform" + why);
  const std::size_t n = s.platform.regions.size();
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (s.prices.egress_gb.empty() || std::isnan(s.prices.egress_gb[a][b]))
        r.fail_key(s.prices.egress_gb.empty() ? "prices" : "prices.egress_gb",
                   "no egress price per GB between " + s.platform.regions[a] + " and " + s.platform.regions[b] +
                       " (expected prices.egress_gb: a number, a default or an entry of its pairs)");
}

}  // namespace hulk::detail
