#include "sim/core/collective_bench.hpp"

namespace hulk {

double collective_bus_factor(const std::string& op, int n) {
  if (n <= 1) return 1.0;
  const double f = static_cast<double>(n - 1) / n;
  return op == "all_reduce" ? 2.0 * f : f;
}

const std::vector<std::string>& collective_ops() {
  static const std::vector<std::string> ops = {"all_reduce", "all_gather", "reduce_scatter"};
  return ops;
}

const std::vector<std::string>& collective_algorithms() {
  static const std::vector<std::string> algorithms = {"ring", "tree"};
  return algorithms;
}

CollectiveBenchResult with_bandwidths(const CollectiveBenchSpec& spec, CollectiveBenchResult r) {
  r.algbw_Bps = r.time_s > 0 ? spec.bytes / r.time_s : 0.0;
  r.busbw_Bps = r.algbw_Bps * collective_bus_factor(spec.op, spec.ranks());
  return r;
}

}  // namespace hulk
