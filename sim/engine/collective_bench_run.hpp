#pragma once
/** @file collective_bench_run.hpp
 *  @brief A collective benchmark (sim/core/collective_bench.hpp) simulated by SimGrid with the engine's own
 *  collectives (collectives.hpp): one rank actor per GPU, all starting at time 0, the time to the last rank's end.
 *  Ranks are numbered node by node (NCCL's ring through a node's GPUs, then over its NIC to the next node). */
#include <nlohmann/json.hpp>

#include "sim/core/collective_bench.hpp"

namespace hulk {

/** @brief Simulates the benchmark in this process (SimGrid's engine: at most once per process, see simulator.hpp).
 *  The network is SimGrid's CM02 with one channel per peer, as simulate()'s default. */
CollectiveBenchResult simulate_collective(const CollectiveBenchSpec& spec);

/** @brief simulate_collective in a forked child (subprocess.hpp). */
CollectiveBenchResult simulate_collective_isolated(const CollectiveBenchSpec& spec);

/** @brief result.json of a benchmark: its name, the collective, ranks, time, algbw and busbw (GB/s, as
 *  nccl-tests prints them), messages and bytes per link class. */
nlohmann::json collective_result_json(const CollectiveBenchSpec& spec, const CollectiveBenchResult& result);

}  // namespace hulk
