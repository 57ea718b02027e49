#include "sim/place/host_prefix_greedy.hpp"

#include "sim/core/errors.hpp"
#include "sim/place/gpu_share.hpp"
#include "sim/place/greedy_placer.hpp"

namespace hulk {

std::optional<Placement> greedy_on_host_prefix(const Scenario& scenario, const std::vector<int>& host_order) {
  const auto& hosts = scenario.platform.hosts;
  std::vector<GpuSlot> gpus;
  for (std::size_t i = 0; i < host_order.size(); ++i) {
    for (int slot = 0; slot < hosts[host_order[i]].gpus; ++slot) gpus.push_back({host_order[i], slot});
    if (static_cast<int>(gpus.size()) < scenario.only_job().par.ranks()) continue;
    if (static_cast<int>(gpus.size()) == scenario.platform.total_gpus()) return std::nullopt;
    const GpuShare share = make_gpu_share(scenario, 0, gpus);
    try {
      return share.to_original(GreedyPlacer().place(share.scenario));
    } catch (const InputError&) {
      // The stages do not fit these GPUs' memory: one host more.
    }
  }
  return std::nullopt;
}

}  // namespace hulk
