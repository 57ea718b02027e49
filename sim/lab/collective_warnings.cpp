#include "sim/lab/collective_warnings.hpp"

#include "sim/core/jobs.hpp"
#include "sim/engine/collectives.hpp"
#include "sim/workload/plan.hpp"

namespace hulk {
namespace {

/** "3 + 1": the members each region holds, in the layout's order. */
std::string block_sizes(const HierarchicalLayout& layout) {
  std::string out;
  for (const auto& block : layout.blocks) out += (out.empty() ? "" : " + ") + std::to_string(block.size());
  return out;
}

}  // namespace

std::vector<std::string> unbalanced_hierarchical_warnings(const Scenario& scenario, const Placement& placement) {
  std::vector<std::string> out;
  for (int j = 0; j < job_count(scenario); ++j) {
    const JobSpec& job = job_at(scenario, j);
    if (job.collective != "hierarchical" || job.par.dp < 2 || job.sync.diloco()) continue;
    const Placement slice = job_slice(scenario, placement, j);
    const ParallelPlan plan(job.par);
    int unbalanced = 0;
    std::string example;
    for (int pp = 0; pp < job.par.pp; ++pp)
      for (int tp = 0; tp < job.par.tp; ++tp) {
        std::vector<int> regions;
        for (int member : plan.dp_group(plan.rank_of(pp, 0, tp)))
          regions.push_back(scenario.platform.hosts[slice.gpu_of_rank[member].host].region);
        const HierarchicalLayout layout = hierarchical_layout(regions);
        if (layout.balanced) continue;
        if (unbalanced++ == 0) example = block_sizes(layout);
      }
    if (unbalanced > 0)
      out.push_back(job_label(scenario, j) + ": collective hierarchical: " + std::to_string(unbalanced) + " of " +
                    std::to_string(job.par.pp * job.par.tp) + " DP groups hold unequal numbers of replicas per region "
                    "(e.g. " + example + "); each runs one ring ordered region by region, not the hierarchical phases");
  }
  return out;
}

}  // namespace hulk
