#include "tools/cli/result_summary.hpp"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace hulk::cli {
namespace {

/** "1.23 GB". */
std::string human_bytes(double b) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2) << b / 1e9 << " GB";
  return os.str();
}

void print_times(const nlohmann::json& r, const char* indent) {
  std::cout << indent << "  compute         " << r["compute_s"].get<double>() << " s\n"
            << indent << "  comm dp/tp/pp   " << r["comm_s"]["dp"].get<double>() << " / "
            << r["comm_s"]["tp"].get<double>() << " / " << r["comm_s"]["pp"].get<double>() << " s\n"
            << indent << "  bubble          " << r["bubble_s"].get<double>() << " s\n";
}

}  // namespace

void print_summary(const nlohmann::json& r) {
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "scenario          " << r.value("scenario", "") << "\n";
  if (r.contains("iteration_time_s")) {
    std::cout << "iteration time    " << r["iteration_time_s"].get<double>() << " s\n";
    print_times(r, "");
  } else {
    std::cout << "objective         " << r["objective_s"].get<double>()
              << " s (weighted mean iteration time of the jobs)\n"
              << "makespan          " << r["makespan_s"].get<double>() << " s\n";
    for (const nlohmann::json& j : r["jobs"]) {
      std::cout << "job " << j["name"].get<std::string>() << " (" << j["gpus"].get<int>() << " GPUs, weight "
                << std::setprecision(3) << j["weight"].get<double>() << std::setprecision(4) << ")\n"
                << "  iteration time  " << j["iteration_time_s"].get<double>() << " s\n";
      print_times(j, "  ");
    }
  }
  // MFU: model FLOP/s over the peak FLOP/s of the GPUs used (docs/outputs.md); with several jobs the cluster's.
  if (r.contains("mfu"))
    std::cout << "MFU               " << std::setprecision(1) << 100 * r["mfu"].get<double>() << std::setprecision(4)
              << "% (model FLOP/s over the peak of the " << r["gpus_used"].get<int>() << " GPUs used)\n";
  if (r.contains("evaluator_estimate_s"))
    std::cout << "estimate          " << r["evaluator_estimate_s"].get<double>() << " s (analytic evaluator, "
              << std::showpos << std::setprecision(1) << 100 * r["evaluator_error"].get<double>() << std::noshowpos
              << std::setprecision(4) << "% against SimGrid)\n";
  if (r.contains("sync")) {
    const nlohmann::json& y = r["sync"];
    std::cout << "outer round       " << y["round_s"].get<double>() << " s (" << y["inner_steps"].get<int>()
              << " inner steps of " << y["inner_iteration_s"].get<double>() << " s, outer all-reduce "
              << y["outer_allreduce_s"].get<double>() << " s, overlap " << y["overlap"].get<std::string>() << ")\n"
              << "  islands         " << y["islands"].get<int>() << ", compression "
              << y["compression"].get<std::string>() << "\n"
              << "  time share      compute " << 100 * y["compute_time_share"].get<double>() << "%, inner steps "
              << 100 * y["inner_time_share"].get<double>() << "% of the round's wall time; MFU over the round "
              << 100 * y["mfu"].get<double>() << "%\n"
              << "  WAN per round   " << human_bytes(y["wan_bytes_per_round"].get<double>()) << " ("
              << y["wan_bytes_per_token"].get<double>() << " bytes per token)\n";
  }
  if (r.contains("events")) {
    const nlohmann::json& e = r["events"];
    std::cout << "events            " << e["count"].get<int>() << ", wall time " << e["wall_s"].get<double>()
              << " s, goodput " << 100 * e["goodput"].get<double>() << "%\n";
    if (e["attempts"].size() > 1)
      std::cout << "  failures        " << e["attempts"].size() - 1 << " restart(s), "
                << e["redone_iterations"].get<int>() << " iteration(s) redone, " << e["restart_s"].get<double>()
                << " s from failure to resumed training\n";
    if (e["checkpoint_s"].get<double>() > 0)
      std::cout << "  checkpoints     " << e["checkpoint_s"].get<double>() << " s\n";
    if (e.contains("costs"))
      for (const nlohmann::json& c : e["costs"])
        std::cout << "  lost to " << std::left << std::setw(24) << c["origin"].get<std::string>() << std::right
                  << c["lost_s"].get<double>() << " s\n";
  }
  std::cout << "bytes/iteration   intra-host " << human_bytes(r["bytes"]["intra_host"].get<double>())
            << ", intra-region " << human_bytes(r["bytes"]["intra_region"].get<double>()) << ", inter-region "
            << human_bytes(r["bytes"]["inter_region"].get<double>()) << "\n";
}

}  // namespace hulk::cli
