#include "sim/evaluate/sync_evaluator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/errors.hpp"
#include "sim/workload/cost_model.hpp"
#include "sim/workload/islands.hpp"

namespace hulk {

SyncEvaluator::SyncEvaluator(const Scenario& scenario) : scenario_(scenario), whole_(scenario) {
  outer_bytes_per_param_ = scenario.only_job().sync.bytes_per_value();
  for (const StageCost& st : whole_.cost().stages) largest_stage_params_ = std::max(largest_stage_params_, st.params);
}

SyncEvaluator::~SyncEvaluator() = default;

const Evaluator& SyncEvaluator::island_evaluator(int replicas) const {
  const std::lock_guard<std::mutex> lock(island_mutex_);
  std::unique_ptr<Evaluator>& ev = island_evaluators_[replicas];
  if (!ev) {
    Scenario island = scenario_;
    JobSpec& job = island.only_job();
    job.global_batch = replicas * job.micro_batch * scenario_.only_job().micro_batches();
    job.par.dp = replicas;
    job.sync = SyncSpec{};
    ev = std::make_unique<Evaluator>(island);
  }
  return *ev;
}

double SyncEvaluator::step_time_of_hosts(const std::vector<int>& host_of_rank) const {
  Placement p;
  for (int h : host_of_rank) p.gpu_of_rank.push_back({h, 0});  // islands depend on hosts only
  IslandPlan islands;
  try {
    islands = island_plan(scenario_, p);
  } catch (const InputError&) {  // a replica on a host of no island group: not a valid DiLoCo placement
    return std::numeric_limits<double>::infinity();
  }
  const ParallelPlan& plan = whole_.plan();
  const Parallelism& par = plan.parallelism();
  double inner = 0;
  std::vector<int> hosts;
  for (const std::vector<int>& replicas : islands.replicas) {
    const int d = static_cast<int>(replicas.size());
    hosts.assign(static_cast<std::size_t>(par.pp) * d * par.tp, 0);
    for (int s = 0; s < par.pp; ++s)
      for (int k = 0; k < d; ++k)
        for (int t = 0; t < par.tp; ++t) hosts[(s * d + k) * par.tp + t] = host_of_rank[plan.rank_of(s, replicas[k], t)];
    inner = std::max(inner, island_evaluator(d).time_of_hosts(hosts));
  }
  if (!std::isfinite(inner)) return std::numeric_limits<double>::infinity();
  double outer = 0;
  if (islands.islands() > 1) {
    std::vector<std::vector<int>> rings;
    for (int s = 0; s < par.pp; ++s)
      for (int t = 0; t < par.tp; ++t)
        for (int k = 0; k < islands.slices; ++k) {
          rings.emplace_back();
          for (const std::vector<int>& replicas : islands.replicas)
            rings.back().push_back(host_of_rank[plan.rank_of(s, replicas[k], t)]);
        }
    outer = whole_.concurrent_rings_s(rings, largest_stage_params_ * outer_bytes_per_param_ / islands.slices);
  }
  const double H = scenario_.only_job().sync.inner_steps;
  const double round = scenario_.only_job().sync.overlap == "outer" ? std::max(H * inner, outer) : H * inner + outer;
  return round / H;
}

double SyncEvaluator::step_time_s(const Placement& placement) const {
  std::vector<int> hosts;
  for (const GpuSlot& g : placement.gpu_of_rank) hosts.push_back(g.host);
  return step_time_of_hosts(hosts);
}

}  // namespace hulk
