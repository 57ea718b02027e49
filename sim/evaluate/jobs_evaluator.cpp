#include "sim/evaluate/jobs_evaluator.hpp"

#include <algorithm>
#include <limits>

#include "sim/core/jobs.hpp"
#include "sim/evaluate/evaluator_scratch_slots.hpp"
#include "sim/evaluate/interleaved.hpp"

namespace hulk {

struct JobsEvaluator::Scratch {
  bool sized = false;  ///< sized for its owner (a fresh slot is not)
  std::vector<int> jobs_on_link, last_job_on_link, touched;
  std::vector<double> divisors;  ///< max(1, jobs_on_link) per link
  std::vector<int> group, local;
  std::vector<int> ranks_on_host;  ///< capacity check
  std::vector<EvaluatorScratch> job_scratch;  ///< per job
  /** @brief Several jobs: per job a copy of its Evaluator whose links this thread divides (share_links). */
  std::vector<std::unique_ptr<Evaluator>> sharing;
};

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/** Marks the links of the route a -> b (a != b) as used by job j. */
void mark_route(JobsEvaluator::Scratch& w, const RouteModel& network, int j, int a, int b) {
  if (a == b) return;  // intra-host links are not divided (header)
  const Route& r = network.route(a, b);
  for (int k = 0; k < r.n_links; ++k) {
    const int l = r.links[k];
    if (w.last_job_on_link[l] == j) continue;  // this job is counted on l already
    if (w.last_job_on_link[l] < 0) w.touched.push_back(l);
    w.last_job_on_link[l] = j;
    ++w.jobs_on_link[l];
  }
}

/** Marks every route between two distinct hosts of w.group (both directions) for job j. */
void mark_group(JobsEvaluator::Scratch& w, const RouteModel& network, int j) {
  std::vector<int>& hosts = w.group;
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  for (int a : hosts)
    for (int b : hosts) mark_route(w, network, j, a, b);
}

}  // namespace

JobsEvaluator::JobsEvaluator(const Scenario& scenario, std::shared_ptr<const RouteModel> network)
    : scenario_(scenario), id_(new_estimator_id()) {
  const int J = job_count(scenario);
  for (int j = 0; j < J; ++j) {
    // The jobs share the platform, so one route model serves them all.
    evaluators_.push_back(std::make_unique<Evaluator>(job_view(scenario, j), network));
    network = evaluators_.back()->shared_network();
    offset_.push_back(job_rank_offset(scenario, j));
    job_of_.insert(job_of_.end(), job_at(scenario, j).par.ranks(), j);
  }
  offset_.push_back(total_ranks(scenario));
}

JobsEvaluator::Scratch& JobsEvaluator::thread_scratch() const {
  Scratch& w = thread_scratch_of<Scratch>(id_);
  if (!w.sized) {
    const int L = evaluators_[0]->network().links();
    w.jobs_on_link.assign(L, 0);
    w.last_job_on_link.assign(L, -1);
    w.divisors.assign(L, 1.0);
    w.job_scratch.resize(evaluators_.size());
    if (jobs() > 1)
      for (const std::unique_ptr<Evaluator>& ev : evaluators_) w.sharing.push_back(std::make_unique<Evaluator>(*ev));
    w.sized = true;
  }
  return w;
}

bool JobsEvaluator::fits(int global_rank, int host) const {
  const int j = job_of_.at(global_rank);
  return evaluators_[j]->fits(global_rank - offset_[j], host);
}

bool JobsEvaluator::count_jobs_on_links(Scratch& w, const std::vector<int>& host_of_rank) const {
  // Forget the last evaluation's counts through the links it touched (the link table may be large: H^2 latency
  // links with measured pair latencies).
  for (int l : w.touched) {
    w.jobs_on_link[l] = 0;
    w.last_job_on_link[l] = -1;
    w.divisors[l] = 1.0;
  }
  w.touched.clear();
  const RouteModel& network = evaluators_[0]->network();
  for (int j = 0; j < jobs(); ++j) {
    const JobSpec& job = evaluators_[j]->scenario().only_job();
    const Parallelism& par = job.par;
    const ParallelPlan& plan = evaluators_[j]->plan();
    const int* h = host_of_rank.data() + offset_[j];
    for (int s = 0; s < par.pp; ++s)
      for (int d = 0; d < par.dp; ++d) {  // TP groups
        w.group.clear();
        for (int t = 0; t < par.tp; ++t) w.group.push_back(h[plan.rank_of(s, d, t)]);
        mark_group(w, network, j);
      }
    for (int s = 0; s < handoff_boundaries(job); ++s)  // PP hand-offs, both directions
      for (int d = 0; d < par.dp; ++d)
        for (int t = 0; t < par.tp; ++t) {
          const int a = h[plan.rank_of(s, d, t)], b = h[plan.rank_of(boundary_receiver(s, par.pp), d, t)];
          mark_route(w, network, j, a, b);
          mark_route(w, network, j, b, a);
        }
    for (int s = 0; s < par.pp; ++s)
      for (int t = 0; t < par.tp; ++t) {  // DP groups
        w.group.clear();
        for (int d = 0; d < par.dp; ++d) w.group.push_back(h[plan.rank_of(s, d, t)]);
        mark_group(w, network, j);
      }
  }
  bool shared = false;
  for (int l : w.touched) {
    w.divisors[l] = std::max(1, w.jobs_on_link[l]);
    shared = shared || w.jobs_on_link[l] > 1;
  }
  return shared;
}

std::vector<int> JobsEvaluator::jobs_on_links(const std::vector<int>& host_of_rank) const {
  Scratch& w = thread_scratch();
  if (static_cast<int>(host_of_rank.size()) != offset_.back()) return std::vector<int>(w.jobs_on_link.size(), 0);
  count_jobs_on_links(w, host_of_rank);
  return w.jobs_on_link;
}

std::vector<double> JobsEvaluator::job_times_of_hosts(const std::vector<int>& host_of_rank) const {
  return per_job_of_hosts(host_of_rank, false);
}

double JobsEvaluator::objective_lower_bound_of_hosts(const std::vector<int>& host_of_rank) const {
  return combine(per_job_of_hosts(host_of_rank, true));
}

std::vector<double> JobsEvaluator::per_job_of_hosts(const std::vector<int>& host_of_rank, bool lower_bound) const {
  const auto time_of = [lower_bound](const Evaluator& ev, const std::vector<int>& hosts, EvaluatorScratch& scratch) {
    return lower_bound ? ev.time_lower_bound_of_hosts(hosts, scratch)
                       : ev.evaluate_hosts(hosts, scratch).iteration_time_s;
  };
  std::vector<double> times(jobs(), kInf);
  const auto& hosts = scenario_.platform.hosts;
  if (static_cast<int>(host_of_rank.size()) != offset_.back()) return times;
  Scratch& w = thread_scratch();
  // Capacity: the per-job evaluators cannot see two jobs on one GPU; a host holding more ranks than GPUs can.
  w.ranks_on_host.assign(hosts.size(), 0);
  for (int h : host_of_rank) {
    if (h < 0 || h >= static_cast<int>(hosts.size()) || ++w.ranks_on_host[h] > hosts[h].gpus) return times;
  }
  if (jobs() == 1) {
    times[0] = time_of(*evaluators_[0], host_of_rank, w.job_scratch[0]);
    return times;
  }
  const bool shared = count_jobs_on_links(w, host_of_rank);
  for (int j = 0; j < jobs(); ++j) {
    w.local.assign(host_of_rank.begin() + offset_[j], host_of_rank.begin() + offset_[j + 1]);
    Evaluator& ev = *w.sharing[j];
    ev.share_links(shared ? &w.divisors : nullptr);
    times[j] = time_of(ev, w.local, w.job_scratch[j]);
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
  id_ = new_estimator_id();  // threads' copies of the evaluators were made with the old setting
}

}  // namespace hulk
