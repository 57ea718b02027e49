#include "sim/lab/fidelity_collective.hpp"

#include <cstdio>
#include <filesystem>

#include "sim/core/atomic_file.hpp"
#include "sim/engine/collective_bench_run.hpp"
#include "sim/engine/simgrid_xml.hpp"
#include "sim/scenario/collective_bench_file.hpp"

namespace hulk {

CollectiveBenchSpec load_collective_bench_file(const std::string& path,
                                               const std::map<std::string, double>& achieved_of_transport) {
  return load_collective_bench(path, achieved_of_transport, describe_simgrid_xml);
}

std::string collective_validation_line(const CollectiveBenchSpec& spec) {
  char bytes[32];
  std::snprintf(bytes, sizeof bytes, "%.0f", spec.bytes);
  return "ok: " + spec.name + ": " + std::to_string(spec.platform.hosts.size()) + " hosts, " +
         std::to_string(spec.platform.total_gpus()) + " GPUs, " + std::to_string(spec.platform.regions.size()) +
         " regions, collective " + spec.op + " (" + spec.algorithm + ") of " + bytes + " B over " +
         std::to_string(spec.nodes) + " nodes x " + std::to_string(spec.gpus_per_node) + " GPUs\n";
}

nlohmann::json run_collective_bench(const std::string& path, const std::string& out_dir) {
  const CollectiveBenchSpec spec = load_collective_bench_file(path);
  const nlohmann::json j = collective_result_json(spec, simulate_collective_isolated(spec));
  if (!out_dir.empty()) {
    std::filesystem::create_directories(out_dir);
    write_file_atomic(out_dir + "/result.json", j.dump(2) + "\n");
  }
  return j;
}

std::string collective_summary(const nlohmann::json& r) {
  const nlohmann::json& c = r.at("collective");
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s: %s (%s) over %d nodes x %d GPUs = %d ranks\n"
                "%14s %12s %10s %10s\n%14.0f %12.1f %10.2f %10.2f\n"
                "(time in us; algbw = size / time, busbw = algbw x %.4g, GB/s: nccl-tests' columns)\n",
                r.at("name").get<std::string>().c_str(), c.at("op").get<std::string>().c_str(),
                c.at("algorithm").get<std::string>().c_str(), c.at("nodes").get<int>(), c.at("gpus_per_node").get<int>(),
                c.at("ranks").get<int>(), "size(B)", "time(us)", "algbw", "busbw", c.at("bytes").get<double>(),
                r.at("time_s").get<double>() * 1e6, r.at("algbw_GBps").get<double>(), r.at("busbw_GBps").get<double>(),
                r.at("bus_factor").get<double>());
  return buf;
}

}  // namespace hulk
