// One estimator object from two threads at once (sim/evaluate/evaluator_scratch_slots.hpp: each thread estimates in
// its own scratch): every estimate has the bits the same calls give one after another on one thread. Two jobs on
// shared links exercise the jobs' evaluator's per-thread copies of the jobs' evaluators (their link divisors).
#include <gtest/gtest.h>

#include <functional>
#include <thread>
#include <vector>

#include "placement_test_platforms.hpp"
#include "sim/evaluate/evaluator.hpp"
#include "sim/evaluate/jobs_evaluator.hpp"
#include "sim/place/greedy_placer.hpp"
#include "sim/place/placer_common.hpp"

namespace hulk {
namespace {

using testing::a100;
using testing::make_job;
using testing::make_platform;

/** f of every host list, in one thread, then again in two threads at once (each over all of them). */
void expect_same_bits_from_two_threads(const std::vector<std::vector<int>>& walk,
                                       const std::function<double(const std::vector<int>&)>& f) {
  std::vector<double> alone;
  for (const std::vector<int>& hosts : walk) alone.push_back(f(hosts));
  std::vector<std::vector<double>> together(2, std::vector<double>(walk.size()));
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t]() {
      for (std::size_t i = 0; i < walk.size(); ++i) together[t][i] = f(walk[i]);
    });
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 2; ++t)
    for (std::size_t i = 0; i < walk.size(); ++i) EXPECT_EQ(together[t][i], alone[i]) << "thread " << t << ", " << i;
}

TEST(EstimatorThreads, OneEvaluatorFromTwoThreadsGivesTheSameBits) {
  const Scenario s = testing::hulk_like_scenario();
  const Evaluator ev(s);
  const std::vector<std::vector<int>> walk = testing::swap_walk(hosts_of(GreedyPlacer().place(s)), 60, 5);
  expect_same_bits_from_two_threads(walk, [&ev](const std::vector<int>& h) { return ev.time_of_hosts(h); });
  expect_same_bits_from_two_threads(walk,
                                    [&ev](const std::vector<int>& h) { return ev.time_lower_bound_of_hosts(h); });
}

TEST(EstimatorThreads, OneJobsEvaluatorOfJobsSharingLinksFromTwoThreadsGivesTheSameBits) {
  Scenario s = testing::jobs_scenario(make_platform({2, 2}, 2, a100()), {make_job(2, 2, 1, 4), make_job(2, 1, 2, 4)});
  const JobsEvaluator ev(s);
  // Round-robin's placement spreads both jobs over every host: they share the NICs and the WAN.
  const std::vector<std::vector<int>> walk = testing::swap_walk(hosts_of(round_robin_placement(s)), 60, 5);
  expect_same_bits_from_two_threads(walk, [&ev](const std::vector<int>& h) { return ev.objective_of_hosts(h); });
  expect_same_bits_from_two_threads(
      walk, [&ev](const std::vector<int>& h) { return ev.objective_lower_bound_of_hosts(h); });
}

}  // namespace
}  // namespace hulk
