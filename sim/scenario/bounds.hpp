#pragma once
/** @file bounds.hpp
 *  @brief Accepted ranges of every quantity of a scenario (the table "Bounds" of scenarios/README.md, which gives
 *  the reason for each). A value outside its range is refused at load with its key, so that an absurd number
 *  (a 1e308 s latency, a 1e-300 Gbps link, a 640,000,000-sequence batch) is a one-line input error instead of a
 *  deadlocked, endless or meaningless simulation. Values from every platform source (regions, Hulk data, SimGrid
 *  XML) and from `--set` overrides meet the same bounds. */
#include <string>
#include <vector>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief A closed range [min, max] of a real quantity in SI units, with its text for messages. */
struct Bound {
  double min;         ///< smallest accepted value (SI unit)
  double max;         ///< largest accepted value (SI unit)
  const char* what;   ///< "a latency"
  const char* range;  ///< the range as a user writes it: "0s .. 10s"
  const char* why;    ///< one short reason (the README table has the long one)
};

/** @brief The bounds of real quantities (SI units inside; see scenarios/README.md). */
namespace bounds {
extern const Bound kLatency;        ///< one-way latency of any link or host pair, seconds
extern const Bound kBandwidth;      ///< any link bandwidth, bytes/s
extern const Bound kMemoryBandwidth;  ///< a GPU's device memory bandwidth, bytes/s
extern const Bound kFlops;          ///< a GPU's peak flop/s
extern const Bound kMemory;         ///< a GPU's memory, bytes
extern const Bound kTcpWindow;      ///< SimGrid's TCP window (0 = no cap is handled before), bytes

/** @brief Integer bounds: each count is in [1, max] (scenarios/README.md gives the reason of each). */
/** @brief Servers of a platform, all regions, where every route decomposes into per-host and per-region-pair parts
 *  (built platforms, WAN capacity `pair`, no measured pair latencies): the route model and SimGrid's zones hold
 *  hosts + regions^2 parts, but a region's zone holds its own hosts^2 routes (kMaxHostsPerRegion). */
constexpr long long kMaxHosts = 16384;
/** @brief Servers of a platform whose routes do not decompose (measured pair latencies, SimGrid XML, WAN capacity
 *  `host`): a route is kept for every pair, so memory grows with the square (4,096 single-GPU servers: 1.1 GB to
 *  place, 2.7 GB to simulate; 100,000 ran out of memory). */
constexpr long long kMaxHostsPairTable = 4096;
/** @brief Servers per region: SimGrid keeps every route between the hosts of a region. */
constexpr long long kMaxHostsPerRegion = 4096;
constexpr long long kMaxGpusPerHost = 64;                ///< GPUs per server (any platform source)
constexpr long long kMaxLayers = 1000;                   ///< transformer layers
constexpr long long kMaxHidden = 131072;                 ///< hidden size, elements
constexpr long long kMaxHeads = 1024;                    ///< attention heads
constexpr long long kMaxSeqLen = 1048576;                ///< sequence length, tokens
constexpr long long kMaxVocab = 10000000;                ///< vocabulary, tokens
constexpr long long kMaxGlobalBatch = 10000000;          ///< sequences per iteration
constexpr long long kMaxMicroBatch = 100000;             ///< sequences per micro-batch
constexpr long long kMaxDegree = 1000000;                ///< dp, tp and pp each (the platform bounds their product)
constexpr long long kMaxIterations = 1000;               ///< simulated iterations
constexpr long long kMaxMicroBatchesPerPipeline = 10000; ///< global_batch / (dp x micro_batch)
constexpr long long kMaxChannelsPerPeer = 64;            ///< network.channels_per_peer (parallel channels per peer)
/** @brief job.utilisation, smallest: 0.1% of peak flop/s (measured runs reach 10-60%; 1e-300 gave 1e300-second
 *  iterations). */
constexpr double kMinUtilisation = 1e-3;
constexpr double kMinJobWeight = 1e-6;                   ///< jobs[i].weight, smallest
constexpr double kMaxJobWeight = 1e6;                    ///< jobs[i].weight, largest
}  // namespace bounds

/** @brief "" if value is finite and inside b, else what is wrong: "1e+308 s is out of range (expected a latency in
 *  0s .. 10s: why)". @param shown the value as the user wrote it (used in the message). */
std::string bound_problem(double value, const Bound& b, const std::string& shown);

/** @brief Checks every real quantity of a resolved platform (hosts' GPUs, links, WAN, host-pair latencies and
 *  bandwidths) and the GPU count of every host against the bounds. Used for platforms that do not come from
 *  scenario keys (SimGrid XML, Hulk data), whose values have no YAML line. @return one message per problem, naming
 *  the host, region pair or host pair ("" none). */
std::vector<std::string> platform_bound_problems(const PlatformSpec& platform);

}  // namespace hulk
