#pragma once
/** @file exhaustive_placer.hpp
 *  @brief The true optimum for tiny instances: enumerates placements up to symmetry and simulates each.
 *
 *  Symmetry used: the GPUs of one host are identical, so a placement is determined (for timing) by the host of
 *  every rank; slots are given in rank order within a host. Enumerated: every map rank -> host with at most
 *  gpus(host) ranks per host whose stage fits the host's GPU memory (job.check_memory), in lexicographic order of
 *  the host sequence. The first placement with the minimal time wins (deterministic).
 *  Oracle: SimGrid (simulate() in a forked child per placement, run_in_child) or, for tests of the search, the
 *  analytic evaluator. Refuses (InputError) platforms with more than 8 GPUs and enumerations above the cap.
 *
 *  Several jobs (names_jobs): the same enumeration over the ranks of all jobs in Placement order (every
 *  assignment of all ranks to distinct GPUs, up to the order of GPUs inside a host), each rank checked against
 *  its own job's memory; the same caps (GPUs of the platform, placements enumerated). Objective: the oracle, which
 *  then gets the whole several-job scenario and Placement and must return the cluster objective (weighted mean of
 *  the jobs' iteration times, sim/core/jobs.hpp), or else the JobsEvaluator's objective_s. */
#include <functional>

#include "sim/place/placer.hpp"

#include <iosfwd>

namespace hulk {

/** @brief Options of the exhaustive placer. */
struct ExhaustiveOptions {
  /** @brief Judges each placement (SimGrid in a child, given by the caller; with several jobs it returns the
   *  objective); empty: the analytic evaluator (JobsEvaluator::objective_s, with one job the Evaluator's time). */
  TimeOracle time_oracle;
  long long max_placements = 5000; ///< refuse enumerations larger than this (default: ~minutes of SimGrid runs)
  int max_gpus = 8;               ///< refuse platforms with more GPUs than this
  /** @brief Where a progress line goes every progress_every_s seconds of a long enumeration (nullptr: none). */
  std::ostream* progress = nullptr;
  double progress_every_s = 10.0;  ///< seconds between progress lines
};

/** @brief Calls fn for every placement up to symmetry (see file comment), in a deterministic order; stops early
 *  and returns false if fn returns false. */
bool for_each_placement_up_to_symmetry(const Scenario& scenario, const std::function<bool(const Placement&)>& fn);

/** @brief Number of placements up to symmetry, counting stops at limit + 1. */
long long count_placements_up_to_symmetry(const Scenario& scenario, long long limit);

/** @brief Exhaustive placer (see file comment). */
class ExhaustivePlacer : public Placer {
 public:
  explicit ExhaustivePlacer(ExhaustiveOptions options = {}) : options_(options) {}
  std::string name() const override { return "exhaustive"; }
  /** @throws InputError above the GPU or enumeration cap, or if no placement fits. */
  Placement place(const Scenario& scenario) override;
  /** @brief The checks place() makes before it simulates anything (GPU and enumeration caps, a placement that fits
   *  memory), alone: a report can refuse the method up front. @return the number of placements to try.
   *  @throws InputError as place(). */
  long long check_applies(const Scenario& scenario) const;
  /** @brief Time (several jobs: objective) of the returned placement (s) by the oracle used. */
  double best_time_s() const { return best_time_s_; }
  /** @brief Placements evaluated by the last place(). */
  long long evaluated() const { return evaluated_; }

 private:
  ExhaustiveOptions options_;
  double best_time_s_ = 0;
  long long evaluated_ = 0;
};

}  // namespace hulk
