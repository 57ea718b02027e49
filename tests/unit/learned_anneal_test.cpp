// The gnn method's short annealing (sim/methods/gnn_method.hpp): its reruns while a run gains. From random
// placements (far from good, so the first run gains and earns reruns) on the training family's clusters.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/features/scenario_sampler.hpp"
#include "sim/methods/gnn_method.hpp"
#include "sim/place/jobs_search.hpp"
#include "sim/place/random_placer.hpp"
#include "sim/workload/placement_check.hpp"

namespace hulk {
namespace {

TEST(LearnedAnneal, RerunsWhileARunGainsAreNeverSlowerThanTheStartAndGainOnAverage) {
  SamplerOptions o;
  o.max_total_gpus = 32;
  int faster = 0, compared = 0;
  double log_ratio = 0;  // sum of log(reruns / one run), by the evaluator
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const Placement start = RandomPlacer(seed).place(s);
    const Evaluator ev(s);
    // From the random start itself (an alternative start, when faster, would leave little for reruns to find).
    LearnedAnnealOptions reruns;
    reruns.alternative_starts = false;
    LearnedAnnealOptions one_run = reruns;
    one_run.reruns = 0;
    const Placement once = anneal_learned_placement(s, start, one_run);
    const Placement more = anneal_learned_placement(s, start, reruns);
    EXPECT_EQ(placement_problem(s, more, s.job.check_memory), "") << seed;
    EXPECT_LE(ev.iteration_time_s(more), ev.iteration_time_s(start)) << seed;
    EXPECT_EQ(anneal_learned_placement(s, start, reruns).gpu_of_rank, more.gpu_of_rank) << seed;
    ++compared;
    faster += ev.iteration_time_s(more) < ev.iteration_time_s(once);
    log_ratio += std::log(ev.iteration_time_s(more) / ev.iteration_time_s(once));
  }
  EXPECT_EQ(compared, 16);
  std::printf("[learned-anneal] reruns faster than one run on %d of %d, mean log ratio %.4f\n", faster, compared,
              log_ratio / compared);
  EXPECT_GT(faster, 0) << "no rerun ever gained: the reruns do nothing here";
  EXPECT_LT(log_ratio, 0.0) << "the reruns are slower on average than one run";
}

TEST(LearnedAnneal, RerunsOfSmallJobsDoubleTheirBudgetAndEndFasterThanEqualReruns) {
  // From random placements on the training family's clusters (<= 32 GPUs, so <= kLearnedAnnealEscalateMaxRanks
  // ranks): every rerun gets twice the evaluations of the run before; without escalation each gets the first run's.
  // Over the clusters where a rerun happened, the doubled runs must end faster on average (by the evaluator).
  SamplerOptions o;
  o.max_total_gpus = 32;
  int escalated = 0, faster = 0, slower = 0;
  double log_ratio = 0;  // sum of log(doubled / equal) over the escalated clusters
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    ASSERT_LE(s.job.par.ranks(), kLearnedAnnealEscalateMaxRanks);
    const Placement start = RandomPlacer(seed).place(s);
    LearnedAnnealReport doubled, equal;
    LearnedAnnealOptions doubling;
    doubling.alternative_starts = false;  // from the random start itself, as above
    LearnedAnnealOptions equal_runs = doubling;
    equal_runs.escalate = false;
    const Placement a = anneal_learned_placement(s, start, doubling, &doubled);
    const Placement b = anneal_learned_placement(s, start, equal_runs, &equal);
    ASSERT_FALSE(doubled.run_evaluations.empty()) << seed;
    EXPECT_EQ(doubled.run_evaluations[0], kLearnedAnnealEvaluations) << seed;
    for (size_t i = 1; i < doubled.run_evaluations.size(); ++i)
      EXPECT_EQ(doubled.run_evaluations[i], 2 * doubled.run_evaluations[i - 1]) << seed;
    for (const int e : equal.run_evaluations) EXPECT_EQ(e, kLearnedAnnealEvaluations) << seed;
    EXPECT_EQ(placement_problem(s, a, s.job.check_memory), "") << seed;
    if (doubled.run_evaluations.size() < 2) continue;
    const Evaluator ev(s);
    ++escalated;
    const double ta = ev.iteration_time_s(a), tb = ev.iteration_time_s(b);
    faster += ta < tb;
    slower += ta > tb;
    log_ratio += std::log(ta / tb);
  }
  std::printf("[learned-anneal] doubled reruns on %d of 16: faster than equal reruns on %d, slower on %d, mean log "
              "ratio %.4f\n", escalated, faster, slower, escalated > 0 ? log_ratio / escalated : 0.0);
  EXPECT_GE(escalated, 4) << "too few clusters earned a rerun to compare";
  EXPECT_LT(log_ratio, 0.0) << "the doubled reruns end slower on average than equal ones";
}

TEST(LearnedAnneal, RerunsOfJobsAboveTheEscalationLimitKeepTheFirstRunsBudget) {
  SamplerOptions o;
  o.min_total_gpus = 96;
  o.max_total_gpus = 160;
  int reran = 0;
  for (std::uint64_t seed = 1; seed <= 12 && reran < 2; ++seed) {
    const Scenario s = sample_scenario(seed, o);
    const int ranks = s.job.par.ranks();
    if (ranks <= kLearnedAnnealEscalateMaxRanks || ranks > kLearnedAnnealMaxRanks) continue;
    LearnedAnnealReport report;
    LearnedAnnealOptions no_orders;
    no_orders.alternative_starts = false;
    no_orders.stage_orders = 0;
    no_orders.tp_rings = false;
    anneal_learned_placement(s, RandomPlacer(seed).place(s), no_orders, &report);
    ASSERT_FALSE(report.run_evaluations.empty()) << seed;
    for (const int e : report.run_evaluations)
      EXPECT_EQ(e, std::min(kLearnedAnnealEvaluations, kLearnedAnnealRankBudget / ranks)) << seed;
    reran += report.run_evaluations.size() > 1;
  }
  EXPECT_GE(reran, 1) << "no job above the limit earned a rerun: nothing was checked";
}

TEST(LearnedAnneal, SeveralJobsJointRunNeverWorseThanItsStartAndMovesSharesSometimes) {
  // From greedy's best job order (where the gnn method's learned placement starts on most clusters): the joint run
  // must keep every job valid and the jobs disjoint, never raise the objective, be deterministic, do nothing at
  // budget 0, and improve the objective somewhere (else it is not running).
  SamplerOptions o;
  o.max_total_gpus = 48;
  int improved = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Scenario s = sample_jobs_scenario(seed, 2 + static_cast<int>(seed % 3), o);
    const JobsEvaluator ev(s);
    const Placement start = best_greedy_jobs_placement(s, ev);
    const Placement annealed = anneal_learned_placement(s, start, kLearnedAnnealEvaluations);
    EXPECT_EQ(placement_problem(s, annealed, true), "") << seed;
    EXPECT_LE(ev.objective_s(annealed), ev.objective_s(start)) << seed;
    EXPECT_EQ(anneal_learned_placement(s, start, kLearnedAnnealEvaluations).gpu_of_rank, annealed.gpu_of_rank)
        << seed;
    EXPECT_EQ(anneal_learned_placement(s, start, 0).gpu_of_rank, start.gpu_of_rank) << seed;
    improved += ev.objective_s(annealed) < ev.objective_s(start);
  }
  std::printf("[learned-anneal] several jobs: the joint run improved greedy's objective on %d of 10\n", improved);
  EXPECT_GT(improved, 0);
}

}  // namespace
}  // namespace hulk
