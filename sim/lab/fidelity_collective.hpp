#pragma once
/** @file fidelity_collective.hpp
 *  @brief `hulk simulate` on a collective benchmark file (collective_bench_file.hpp): the collective simulated by
 *  SimGrid in a child process, result.json, and the line nccl-tests would print for it. */
#include <string>

#include <map>

#include <nlohmann/json.hpp>

#include "sim/core/collective_bench.hpp"

namespace hulk {

/** @brief load_collective_bench with every platform source (a `simgrid:` XML described by the engine). */
CollectiveBenchSpec load_collective_bench_file(const std::string& path,
                                               const std::map<std::string, double>& achieved_of_transport = {});

/** @brief One line for `hulk validate`: name, hosts, GPUs, regions, and the collective. */
std::string collective_validation_line(const CollectiveBenchSpec& spec);

/** @brief Loads and simulates the benchmark at `path`; with out_dir, writes result.json there (atomically).
 *  @return result.json's content (collective_result_json). @throws InputError for a bad file. */
nlohmann::json run_collective_bench(const std::string& path, const std::string& out_dir);

/** @brief The printed summary: the collective, then size, time, algbw and busbw as nccl-tests' columns. */
std::string collective_summary(const nlohmann::json& result);

}  // namespace hulk
