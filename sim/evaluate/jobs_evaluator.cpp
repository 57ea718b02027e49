#include "sim/evaluate/jobs_evaluator.hpp"

#include <algorithm>
#include <limits>

#include "sim/core/jobs.hpp"
#include "sim/evaluate/interleaved.hpp"

namespace hulk {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

JobsEvaluator::JobsEvaluator(const Scenario& scenario, std::shared_ptr<const RouteModel> network)
    : scenario_(scenario) {
  const int J = job_count(scenario);
  for (int j = 0; j < J; ++j) {
    // The jobs share the platform, so one route model serves them all.
    evaluators_.push_back(std::make_unique<Evaluator>(job_view(scenario, j), network));
    network = evaluators_.back()->shared_network();
    offset_.push_back(job_rank_offset(scenario, j));
    job_of_.insert(job_of_.end(), job_at(scenario, j).par.ranks(), j);
  }
  offset_.push_back(total_ranks(scenario));
  const int L = evaluators_[0]->network().links();
  scratch_.jobs_on_link.assign(L, 0);
  scratch_.last_job_on_link.assign(L, -1);
  scratch_.divisors.assign(L, 1.0);
}

bool JobsEvaluator::fits(int global_rank, int host) const {
  const int j = job_of_.at(global_rank);
  return evaluators_[j]->fits(global_rank - offset_[j], host);
}

void JobsEvaluator::mark_route(int j, int a, int b) const {
  if (a == b) return;  // intra-host links are not divided (header)
  const Route& r = evaluators_[j]->network().route(a, b);
  for (int k = 0; k < r.n_links; ++k) {
    const int l = r.links[k];
    if (scratch_.last_job_on_link[l] == j) continue;  // this job is counted on l already
    if (scratch_.last_job_on_link[l] < 0) scratch_.touched.push_back(l);
    scratch_.last_job_on_link[l] = j;
    ++scratch_.jobs_on_link[l];
  }
}

void JobsEvaluator::mark_group(int j, std::vector<int>& hosts) const {
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  for (int a : hosts)
    for (int b : hosts) mark_route(j, a, b);
}

bool JobsEvaluator::count_jobs_on_links(const std::vector<int>& host_of_rank) const {
  // Forget the last evaluation's counts through the links it touched (the link table may be large: H^2 latency
  // links with measured pair latencies).
  for (int l : scratch_.touched) {
    scratch_.jobs_on_link[l] = 0;
    scratch_.last_job_on_link[l] = -1;
    scratch_.divisors[l] = 1.0;
  }
  scratch_.touched.clear();
  for (int j = 0; j < jobs(); ++j) {
    const Parallelism& par = evaluators_[j]->scenario().only_job().par;
    const ParallelPlan& plan = evaluators_[j]->plan();
    const int* h = host_of_rank.data() + offset_[j];
    for (int s = 0; s < par.pp; ++s)
      for (int d = 0; d < par.dp; ++d) {  // TP groups
        scratch_.group.clear();
        for (int t = 0; t < par.tp; ++t) scratch_.group.push_back(h[plan.rank_of(s, d, t)]);
        mark_group(j, scratch_.group);
      }
    const JobSpec& job = evaluators_[j]->scenario().only_job();
    for (int s = 0; s < handoff_boundaries(job); ++s)  // PP hand-offs, both directions
      for (int d = 0; d < par.dp; ++d)
        for (int t = 0; t < par.tp; ++t) {
          const int a = h[plan.rank_of(s, d, t)], b = h[plan.rank_of(boundary_receiver(s, par.pp), d, t)];
          mark_route(j, a, b);
          mark_route(j, b, a);
        }
    for (int s = 0; s < par.pp; ++s)
      for (int t = 0; t < par.tp; ++t) {  // DP groups
        scratch_.group.clear();
        for (int d = 0; d < par.dp; ++d) scratch_.group.push_back(h[plan.rank_of(s, d, t)]);
        mark_group(j, scratch_.group);
      }
  }
  bool shared = false;
  for (int l : scratch_.touched) {
    scratch_.divisors[l] = std::max(1, scratch_.jobs_on_link[l]);
    shared = shared || scratch_.jobs_on_link[l] > 1;
  }
  return shared;
}

std::vector<double> JobsEvaluator::job_times_of_hosts(const std::vector<int>& host_of_rank) const {
  return per_job_of_hosts(host_of_rank, false);
}

double JobsEvaluator::objective_lower_bound_of_hosts(const std::vector<int>& host_of_rank) const {
  return combine(per_job_of_hosts(host_of_rank, true));
}

std::vector<double> JobsEvaluator::per_job_of_hosts(const std::vector<int>& host_of_rank, bool lower_bound) const {
  const auto time_of = [lower_bound](const Evaluator& ev, const std::vector<int>& hosts) {
    return lower_bound ? ev.time_lower_bound_of_hosts(hosts) : ev.time_of_hosts(hosts);
  };
  std::vector<double> times(jobs(), kInf);
  const auto& hosts = scenario_.platform.hosts;
  if (static_cast<int>(host_of_rank.size()) != offset_.back()) return times;
  // Capacity: the per-job evaluators cannot see two jobs on one GPU; a host holding more ranks than GPUs can.
  scratch_.ranks_on_host.assign(hosts.size(), 0);
  for (int h : host_of_rank) {
    if (h < 0 || h >= static_cast<int>(hosts.size()) || ++scratch_.ranks_on_host[h] > hosts[h].gpus) return times;
  }
  if (jobs() == 1) {
    times[0] = time_of(*evaluators_[0], host_of_rank);
    return times;
  }
  const bool shared = count_jobs_on_links(host_of_rank);
  for (int j = 0; j < jobs(); ++j) {
    scratch_.local.assign(host_of_rank.begin() + offset_[j], host_of_rank.begin() + offset_[j + 1]);
    Evaluator& ev = *evaluators_[j];
    if (shared) ev.share_links(&scratch_.divisors);
    times[j] = time_of(ev, scratch_.local);
    ev.share_links(nullptr);
    if (times[j] == kInf) return std::vector<double>(jobs(), kInf);  // one job infeasible: the placement is
  }
  return times;
}

std::vector<double> JobsEvaluator::job_times_s(const Placement& placement) const {
  std::vector<int> hosts(placement.gpu_of_rank.size());
  for (size_t r = 0; r < hosts.size(); ++r) hosts[r] = placement.gpu_of_rank[r].host;
  return job_times_of_hosts(hosts);
}

double JobsEvaluator::combine(const std::vector<double>& times) const {
  if (jobs() == 1) return times[0];  // w t / w may differ from t in the last bit
  for (double t : times)
    if (!(t < kInf)) return kInf;
  return weighted_objective(scenario_, times);
}

double JobsEvaluator::objective_s(const Placement& placement) const { return combine(job_times_s(placement)); }

double JobsEvaluator::objective_of_hosts(const std::vector<int>& host_of_rank) const {
  return combine(job_times_of_hosts(host_of_rank));
}

void JobsEvaluator::set_pipeline_cache(bool across_evaluations) {
  for (const std::unique_ptr<Evaluator>& ev : evaluators_) ev->set_pipeline_cache(across_evaluations);
}

}  // namespace hulk
