#include "sim/report/sync_result.hpp"

#include <algorithm>

#include "sim/workload/cost_model.hpp"
#include "sim/workload/islands.hpp"

namespace hulk {

nlohmann::json diloco_result_json(const Scenario& s, const Placement& placement, const nlohmann::json& inner,
                                  const nlohmann::json& outer) {
  const SyncSpec& sync = s.only_job().sync;
  const IslandPlan islands = island_plan(s, placement);
  const double H = sync.inner_steps;
  const double t_inner = inner.at("iteration_time_s").get<double>();
  const double t_outer = outer.at("iteration_time_s").get<double>();
  const double round = sync.overlap == "outer" ? std::max(H * t_inner, t_outer) : H * t_inner + t_outer;
  const double tokens = H * s.only_job().global_batch * s.only_job().model.seq_len;
  const double wan = H * inner.at("bytes").at("inter_region").get<double>() +
                     outer.at("bytes").at("inter_region").get<double>();
  double params = 0;
  for (const StageCost& st : compute_job_cost(s.only_job()).stages) params = std::max(params, st.params);
  nlohmann::json per_island = nlohmann::json::array();
  for (const auto& r : islands.replicas) per_island.push_back(r.size());
  nlohmann::json out = inner;
  out["objective_s"] = round / H;
  out["sync"] = {{"algorithm", sync.algorithm},
                 {"inner_steps", sync.inner_steps},
                 {"islands", islands.islands()},
                 {"replicas_per_island", per_island},
                 {"slices", islands.slices},
                 // The ratio in its shortest exact form (std::to_string printed 1e-9 as 0.000000).
                 {"compression", sync.compression == "topk" ? "topk:" + nlohmann::json(sync.topk_ratio).dump()
                                                            : sync.compression},
                 {"bytes_per_value", sync.bytes_per_value()},
                 {"overlap", sync.overlap},
                 {"inner_iteration_s", t_inner},
                 {"outer_allreduce_s", t_outer},
                 {"round_s", round},
                 {"compute_time_share", H * inner.at("compute_s").get<double>() / round},
                 // The inner run's model FLOPs, H times per round, over the round's wall time.
                 {"mfu", inner.at("mfu").get<double>() * H * t_inner / round},
                 // Wall time in inner steps (compute and the island's own communication) over the round: what
                 // INTELLECT-1 reports as compute utilisation (time not spent in the outer synchronisation).
                 {"inner_time_share", H * t_inner / round},
                 {"wan_bytes_per_round", wan},
                 {"tokens_per_round", tokens},
                 {"wan_bytes_per_token", wan / tokens},
                 // fp32 outer parameters and Nesterov momentum of the rank's shard (INTELLECT-1 keeps them in host
                 // memory: reported, not counted against the GPU's).
                 {"outer_state_bytes_per_rank", 8 * params}};
  return out;
}

}  // namespace hulk
