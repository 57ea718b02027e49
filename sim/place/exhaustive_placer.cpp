#include "sim/place/exhaustive_placer.hpp"

#include <chrono>
#include <limits>
#include <ostream>

#include "sim/core/errors.hpp"
#include "sim/core/jobs.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/jobs_placement.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk {
namespace {

/** Depth-first enumeration of rank -> host maps respecting capacity and memory, over the ranks of every job (the
 *  Placement order): slots are given in Placement order inside a host, so jobs sharing a host get distinct GPUs. */
class Enumerator {
 public:
  Enumerator(const Scenario& sc, const std::function<bool(const Placement&)>& fn) : sc_(sc), ev_(sc), fn_(fn) {
    free_.resize(sc.platform.hosts.size());
    for (size_t h = 0; h < free_.size(); ++h) free_[h] = sc.platform.hosts[h].gpus;
    hosts_.assign(total_ranks(sc), -1);
  }
  bool run() { return rec(0); }

 private:
  bool rec(int r) {
    if (r == static_cast<int>(hosts_.size())) return fn_(placement_from_hosts(hosts_));
    for (int h = 0; h < static_cast<int>(free_.size()); ++h) {
      if (free_[h] == 0 || !ev_.fits(r, h)) continue;
      --free_[h];
      hosts_[r] = h;
      const bool go_on = rec(r + 1);
      ++free_[h];
      if (!go_on) return false;
    }
    return true;
  }
  const Scenario& sc_;
  JobsEvaluator ev_;  // only its per-rank memory check (one job: that Evaluator's fits)
  const std::function<bool(const Placement&)>& fn_;
  std::vector<int> free_;
  std::vector<int> hosts_;
};

/** Why several jobs have no placement: the first job that does not fit the platform's memory alone, if any. */
std::string jobs_do_not_fit(const Scenario& s) {
  for (int j = 0; j < job_count(s); ++j)
    if (!job_fits_gpus(s, j, all_gpus(s.platform)))
      return "exhaustive placement: " + job_label(s, j) + " does not fit the platform's GPU memory";
  return "exhaustive placement: the jobs do not fit the platform's GPU memory together";
}

}  // namespace

bool for_each_placement_up_to_symmetry(const Scenario& scenario, const std::function<bool(const Placement&)>& fn) {
  return Enumerator(scenario, fn).run();
}

long long count_placements_up_to_symmetry(const Scenario& scenario, long long limit) {
  long long n = 0;
  for_each_placement_up_to_symmetry(scenario, [&](const Placement&) { return ++n <= limit; });
  return n;
}

long long ExhaustivePlacer::check_applies(const Scenario& scenario) const {
  const int gpus = scenario.platform.total_gpus();
  if (gpus > options_.max_gpus)
    throw InputError(scenario.file, 0, "placement",
                     "exhaustive placement is limited to " + std::to_string(options_.max_gpus) +
                         " GPUs; the platform has " + std::to_string(gpus) + " (use search)");
  const long long n = count_placements_up_to_symmetry(scenario, options_.max_placements);
  if (n > options_.max_placements)
    throw InputError(scenario.file, 0, "placement",
                     "exhaustive placement: more than " + std::to_string(options_.max_placements) +
                         " placements to try (use search)");
  if (n == 0 && names_jobs(scenario)) throw InputError(scenario.file, 0, "jobs", jobs_do_not_fit(scenario));
  if (n == 0) throw InputError(scenario.file, 0, "job", "exhaustive placement: no placement fits GPU memory");
  return n;
}

Placement ExhaustivePlacer::place(const Scenario& scenario) {
  const long long total = check_applies(scenario);

  // The JobsEvaluator's objective: with one job exactly the Evaluator's iteration time.
  std::unique_ptr<JobsEvaluator> ev;
  if (!options_.time_oracle) ev = std::make_unique<JobsEvaluator>(scenario);
  Placement best;
  double best_t = std::numeric_limits<double>::infinity();
  evaluated_ = 0;
  // Thousands of SimGrid runs can take minutes: say how far it is.
  auto last_report = std::chrono::steady_clock::now();
  for_each_placement_up_to_symmetry(scenario, [&](const Placement& p) {
    const double t = ev ? ev->objective_s(p) : options_.time_oracle(scenario, p);
    ++evaluated_;
    if (t < best_t) {
      best_t = t;
      best = p;
    }
    const auto now = std::chrono::steady_clock::now();
    if (options_.progress && std::chrono::duration<double>(now - last_report).count() >= options_.progress_every_s) {
      *options_.progress << "exhaustive: " << evaluated_ << " of " << total << " placements timed, best "
                         << best_t << " s so far\n" << std::flush;
      last_report = now;
    }
    return true;
  });
  best_time_s_ = best_t;
  return best;
}

}  // namespace hulk
