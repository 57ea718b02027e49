#pragma once
/** @file collective_bench.hpp
 *  @brief One collective alone, as nccl-tests measures it (all_reduce_perf, all_gather_perf,
 *  reduce_scatter_perf): S bytes over nodes x gpus_per_node GPUs, its time, algbw = S / time and
 *  busbw = algbw x the operation's bus factor (2(n-1)/n for all-reduce, (n-1)/n for all-gather and
 *  reduce-scatter; nccl-tests' doc/PERFORMANCE.md). A scenario file with `collective:` instead of `job:`
 *  (scenarios/README.md "Collective benchmarks"). */
#include <string>
#include <vector>

#include "sim/core/sim_result.hpp"
#include "sim/core/spec.hpp"

namespace hulk {

/** @brief A collective benchmark: the platform and the one collective it runs. */
struct CollectiveBenchSpec {
  std::string name;
  std::string file;             ///< the YAML file it came from ("" if built in code)
  PlatformSpec platform;
  std::string op = "all_reduce";   ///< all_reduce | all_gather | reduce_scatter
  std::string algorithm = "ring";  ///< ring | tree (tree: all_reduce only)
  double bytes = 0;             ///< nccl-tests' size column: the buffer each rank reduces, or the gathered total
  int nodes = 1;                ///< the platform's first `nodes` hosts, in platform order
  int gpus_per_node = 1;        ///< the first `gpus_per_node` GPUs of each of those hosts
  /** @brief GPUs taking part. */
  int ranks() const { return nodes * gpus_per_node; }
};

/** @brief What one collective took. */
struct CollectiveBenchResult {
  double time_s = 0;   ///< from the common start to the last rank's end
  double algbw_Bps = 0;
  double busbw_Bps = 0;
  long long messages = 0;
  BytesByClass bytes;  ///< bytes sent, per link class
};

/** @brief nccl-tests' bus factor of `op` over n ranks: 2(n-1)/n for all_reduce, (n-1)/n otherwise (1 when n = 1). */
double collective_bus_factor(const std::string& op, int n);

/** @brief The operations and algorithms a benchmark may name. */
const std::vector<std::string>& collective_ops();
const std::vector<std::string>& collective_algorithms();

/** @brief Time and bytes into algbw and busbw. */
CollectiveBenchResult with_bandwidths(const CollectiveBenchSpec& spec, CollectiveBenchResult r);

}  // namespace hulk
